/**
 * SQL text (a scalar subquery) for the change log's horizon: a transaction id below which every
 * transaction that could have written to this database has ended, so rows of `change_events` with
 * `xid < horizon` are final and no row added later can sort before them. Readers of the change log
 * (the feeds and the webhook dispatcher) take only those rows.
 *
 * The statement's snapshot says which transactions below its xmax are still running (its xip
 * list); everything at or above xmax counts as running. Postgres's transaction ids are
 * cluster-wide, so the snapshot's xmin would let a long transaction in another database of the
 * same server hold this one's feeds and webhooks back. A running transaction whose backend
 * `pg_stat_activity` shows connected to another database cannot write here and is skipped; every
 * other one (this database's, a prepared transaction, a backend not shown) still holds the horizon.
 */
export const CHANGE_HORIZON = `(select least(pg_snapshot_xmax(s), (
    select min(x) from pg_snapshot_xip(s) x
    where xid(x) not in (select backend_xid from pg_stat_activity where backend_xid is not null and datname <> current_database())))
  from pg_current_snapshot() s)`;
