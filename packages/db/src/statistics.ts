import type postgres from "postgres";

/**
 * Tables whose size decides the plans of the sync and import hot paths. Prepared statements
 * planned while these were nearly empty keep plans that scan them whole as they grow, until
 * the table is analyzed again (autovacuum does it eventually; it may be off or slow).
 */
const HOT_TABLES = [
  "employees",
  "users",
  "employee_roles",
  "employee_groups",
  "employee_sites",
  "sync_requests",
  "sync_request_items",
  "mail_outbox",
  "idempotency_keys",
  "inspections",
  "inspection_answers",
  "inspection_imports",
  "media",
  "change_events",
  "webhook_deliveries",
] as const;

/**
 * ANALYZEs each hot table that changed a lot since it was last analyzed (by anyone, autovacuum
 * included): more than `minRows` changed rows and more than `fraction` of its rows, the rule
 * autovacuum uses (with a larger floor). One caller at a time across replicas (advisory lock);
 * returns the tables analyzed. Costs one catalog query when nothing is due.
 */
export async function analyzeGrownTables(sql: postgres.Sql, opts: { minRows?: number; fraction?: number } = {}): Promise<string[]> {
  const minRows = opts.minRows ?? 200;
  const fraction = opts.fraction ?? 0.2;
  const due = await sql<{ table: string }[]>`
    select relname as table from pg_stat_user_tables
    where schemaname = current_schema() and relname = any(string_to_array(${HOT_TABLES.join(",")}, ','))
      and n_mod_since_analyze > ${minRows}::bigint and n_mod_since_analyze > ${fraction}::float8 * greatest(n_live_tup - n_mod_since_analyze, 0)`;
  if (due.length === 0) return [];
  return sql.begin(async (tx) => {
    const [{ locked }] = (await tx`select pg_try_advisory_xact_lock(hashtextextended('insp:analyze-grown-tables', 0)) as locked`) as unknown as [
      { locked: boolean },
    ];
    if (!locked) return [];
    for (const { table } of due) await tx.unsafe(`analyze "${table.replace(/"/g, '""')}"`);
    return due.map((d) => d.table);
  });
}
