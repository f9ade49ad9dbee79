import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Duplex } from "node:stream";
import type postgres from "postgres";
import { pgConnect } from "./connect.ts";
import * as schema from "./schema/index.ts";

type Schema = typeof schema;
/** Drizzle over postgres.js; `$client` is the postgres.js client, for the plain-SQL hot paths. */
export type Db = PostgresJsDatabase<Schema> & { $client: postgres.Sql };
/** A transaction handle; query functions take `Db | Tx` so they run inside or outside one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;
/**
 * A postgres.js transaction, for the plain-SQL hot paths: `begin()`'s, or a connection reserved
 * for one (transactionInTwoTrips). Named apart from Drizzle's `Tx`: the two are not interchangeable.
 */
export type SqlTx = postgres.TransactionSql | postgres.ReservedSql;

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/**
 * postgres.js's `socket` option (missing from its types): a connected socket for each of the
 * pool's connections, made from its parsed options (a Unix socket `path`, else `host`/`port`).
 */
export type SocketFactory = (options: { path?: string | false; host: string[]; port: number[] }) => Promise<Duplex>;

export function createDb(url: string, opts: { max?: number; applicationName?: string; prepare?: boolean; socket?: SocketFactory } = {}): DbHandle {
  const sql = pgConnect(url, {
    // The round-trip tests count what crosses a socket of their own.
    ...((opts.socket ? { socket: opts.socket } : {}) as object),
    max: opts.max ?? 10,
    onnotice: () => {},
    connection: { application_name: opts.applicationName ?? "inspection-service" },
    // Idle connections are closed so a scaled-down replica gives its connections back.
    idle_timeout: 30,
    // Reconnecting after the server went away: postgres.js waits up to 20 s between attempts by
    // default (3^n / 100 s), so work resumed long after a 10 s restart. At most 2 s here, with
    // jitter, and a connect attempt gives up after 10 s (a failover to an address that drops packets).
    backoff: (retries: number) => Math.min(2, 0.1 * 2 ** retries) * (0.5 + Math.random() / 2),
    connect_timeout: 10,
  });
  const db = drizzle(opts.prepare === false ? sql : preparing(sql), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * Drizzle runs unnamed queries with `prepare: false`, and postgres.js then sends every
 * query that has parameters in two round trips (Parse/Describe, wait, Bind/Execute).
 * This view of the client asks for named prepared statements instead: the first run
 * of a statement on a connection costs the same, every later run one round trip, and
 * queries issued together are pipelined. postgres.js keeps the statements per
 * connection; connections are recycled (max_lifetime), which bounds that cache. Pass
 * `prepare: false` behind a transaction-mode pooler that cannot keep them.
 */
function preparing<T extends postgres.Sql>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (prop === "begin" || prop === "savepoint") {
        const original = Reflect.get(target, prop, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const fn = args[args.length - 1] as (scoped: postgres.Sql) => unknown;
          return original.apply(target, [...args.slice(0, -1), (scoped: postgres.Sql) => fn(preparing(scoped))]);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}
