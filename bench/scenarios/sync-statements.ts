import type postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { validateEmployee } from "@insp/contracts";
import { createSyncRequest, runSyncItem, type DemoSeed, type NewItem } from "@insp/core";
import { pgConnect, schema, type Db } from "@insp/db";
import type { BenchContext } from "../lib/context.ts";
import { employeeBatch } from "../lib/fixtures.ts";
import type { Row, Scenario } from "../lib/scenario.ts";
import { cpuByPid } from "../lib/cpu.ts";
import { round } from "../lib/stats.ts";
import { newTag } from "../lib/sync.ts";

/**
 * What each statement of one employee's transaction costs Postgres on an organization of
 * --org-size employees (100,000): the organization is written in bulk (users, employees with 2
 * roles, a group and a site each, their change-log and audit rows, and the items of earlier
 * requests, written pending and then done, as the workers leave them), then ANALYZEd, as the
 * workers' statistics watch would; no VACUUM, so finished items are still in the index of
 * pending ones, as between two autovacuum runs. Then --batch new employees, and the same again
 * with a changed job title, go through runSyncItem ONE AT A TIME over one connection: the
 * backend's CPU, the buffers and the WAL per employee; and on a second set of employees over a
 * connection that has auto_explain send every plan back as a notice (ANALYZE, buffers, WAL; no
 * timing per node), per kind of statement, its time, buffers and WAL per employee. A statement is
 * named by what its text contains, so the same scenario runs against older code
 * (bench/README.md: before and after).
 */

const KINDS: [string, (q: string) => boolean][] = [
  ["write (one statement)", (q) => q.includes("w_item")],
  ["lock", (q) => q.includes("pg_advisory_xact_lock")],
  ["read (one statement)", (q) => /\bholders\b|ref_roles/.test(q)],
  ["foreign-key checks (inside the write)", (q) => q.includes("FOR KEY SHARE")],
];
const kindOf = (q: string) => KINDS.find(([, is]) => is(q))?.[0] ?? "other";

interface PlanNode {
  "Node Type": string;
  "Subplan Name"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "WAL Bytes"?: number;
  Plans?: PlanNode[];
}

interface Tally {
  n: number;
  ms: number;
  hits: number;
  walBytes: number;
}

async function seedOrganization(ctx: BenchContext, t: DemoSeed, size: number) {
  const sql = ctx.db.sql;
  const org = t.organization.id;
  const roles = (await sql<{ id: string }[]>`select id from roles where organization_id = ${org} and name in ('inspector', 'FIELD_TECH')`).map((r) => r.id);
  await sql`
    with g as (select g, gen_random_uuid() as uid, gen_random_uuid() as eid from generate_series(1, ${size}::int) g),
    u as (insert into users (id, organization_id, email, username, name)
      select uid, ${org}, 'big-' || g || '@bench.example', 'big-' || g || '@bench.example', 'Big Employee ' || g from g),
    e as (insert into employees (id, organization_id, external_employee_id, status, first_name, last_name, display_name, email, phone, job_title, department, hire_date, user_id)
      select eid, ${org}, 'big-' || g, 'ACTIVE', 'Big', 'Employee ' || g, 'Big Employee ' || g, 'big-' || g || '@bench.example', '+1 555 0100', 'Technician', 'Operations', '2024-01-15', uid from g),
    r as (insert into employee_roles (employee_id, role_id, organization_id) select eid, role, ${org} from g, unnest(${roles}::uuid[]) as role),
    gr as (insert into employee_groups (employee_id, group_id, organization_id, member_role) select eid, ${t.groups[0]!.id}, ${org}, 'member' from g),
    s as (insert into employee_sites (employee_id, site_id, organization_id) select eid, ${t.sites[0]!.id}, ${org} from g),
    c as (insert into change_events (organization_id, resource_type, resource_id, change) select ${org}, 'employee', eid, 'created' from g)
    insert into audit_log (organization_id, actor_type, action, resource_type, resource_id, changed_fields) select ${org}, 'anonymous', 'employee.created', 'employee', eid::text, '{}' from g`;
  await sql`
    with req as (insert into sync_requests (organization_id, total, status, dry_run, completed_at)
      select ${org}, 500, 'completed', false, now() from generate_series(1, ceil(${size}::int / 500.0)::int) returning id),
    numbered as (select id, row_number() over () - 1 as n from req)
    insert into sync_request_items (organization_id, request_id, idx, external_employee_id, chain_key, input, status)
    select ${org}, numbered.id, g % 500, 'big-' || g, 'big-' || g,
      jsonb_build_object('externalEmployeeId', 'big-' || g, 'status', 'ACTIVE', 'email', 'big-' || g || '@bench.example', 'updateMode', 'replace'), 'pending'
    from generate_series(1, ${size}::int) g join numbered on numbered.n = (g - 1) / 500`;
  await sql`update sync_request_items set status = 'done', result = '{"status":"CREATED"}', updated_at = now() where organization_id = ${org} and status = 'pending'`;
  await sql.unsafe("analyze");
}

export const syncStatements: Scenario = {
  name: "sync-statements",
  freshDatabase: true,
  describe: "per-statement Postgres cost of one employee's transaction on a 100,000-employee organization (auto_explain, one at a time)",
  async run(ctx, progress) {
    const { batch, orgSize } = ctx.opts;
    const t = ctx.tenant;
    const started = performance.now();
    await seedOrganization(ctx, t, orgSize);
    // The bulk write leaves WAL to flush: no checkpoint during the timed passes.
    await ctx.beforeRounds();
    progress(`organization of ${orgSize} employees written and analyzed in ${round((performance.now() - started) / 1000, 1)} s`);

    const tallies = new Map<string, Tally>();
    let explaining = false;
    const onnotice = (notice: postgres.Notice) => {
      const text = String(notice.message ?? "");
      const at = text.indexOf("{");
      if (!explaining || at < 0 || !text.startsWith("duration")) return;
      const plan = JSON.parse(text.slice(at)) as { "Query Text": string; Plan: PlanNode };
      const kind = kindOf(plan["Query Text"]);
      const x = tallies.get(kind) ?? { n: 0, ms: 0, hits: 0, walBytes: 0 };
      x.n++;
      // auto_explain's duration covers running the statement and finishing it (data-modifying
      // CTEs, foreign-key triggers), not planning or starting the executor.
      x.ms += Number(/duration: ([\d.]+) ms/.exec(text)?.[1] ?? 0);
      const counted = [plan.Plan, ...(plan.Plan.Plans ?? []).filter((c) => c["Node Type"] === "ModifyTable" && c["Subplan Name"]?.startsWith("CTE"))];
      x.hits += counted.reduce((sum, c) => sum + (c["Shared Hit Blocks"] ?? 0) + (c["Shared Read Blocks"] ?? 0), 0);
      x.walBytes += counted.reduce((sum, c) => sum + (c["WAL Bytes"] ?? 0), 0);
      tallies.set(kind, x);
    };
    const connect = (explain: boolean) => {
      const settings: Record<string, string> = explain
        ? {
            session_preload_libraries: "auto_explain",
            "auto_explain.log_min_duration": "0",
            "auto_explain.log_analyze": "on",
            "auto_explain.log_timing": "off",
            "auto_explain.log_buffers": "on",
            "auto_explain.log_wal": "on",
            "auto_explain.log_nested_statements": "on",
            "auto_explain.log_format": "json",
            "auto_explain.log_level": "notice",
          }
        : {};
      const client = pgConnect(ctx.env.DATABASE_URL!, {
        max: 1,
        connection: { application_name: "bench-statements", ...settings },
        onnotice: explain ? onnotice : () => {},
      });
      return { client, db: drizzle(client, { schema }) as unknown as Db };
    };
    const plain = connect(false);
    const explained = connect(true);
    const sql = ctx.db.sql;
    const pid = (await plain.client<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    const cpuMs = async () => (await cpuByPid([pid])).get(pid) ?? 0;
    /** WAL (the cluster's) and buffers (this database's) so far; a backend reports its statistics at most once a second, at the end of a transaction. */
    const counters = async () => {
      await new Promise((r) => setTimeout(r, 1100));
      await plain.client`select 1`;
      await sql`select pg_stat_clear_snapshot()`;
      const [w] = await sql<{ wal: string; hits: string }[]>`select (select wal_bytes from pg_stat_wal)::text as wal,
        (select blks_hit + blks_read from pg_stat_database where datname = current_database())::text as hits`;
      return { wal: Number(w!.wal), hits: Number(w!.hits) };
    };
    const rows: Row[] = [];
    const metrics: Record<string, number> = { orgSize, employees: batch };
    const tags = [newTag("stmt"), newTag("stmtx")];
    const org = t.organization.id;
    /** One pass: `batch` items over one connection, one at a time, the first tenth not counted (statements prepared and planned). */
    const pass = async (db: Db, tag: string, jobTitle: string | undefined, measure: () => Promise<void>, after: () => Promise<void>) => {
      const items: NewItem[] = employeeBatch(t, tag, batch, jobTitle ? { jobTitle } : {}).map((raw, idx) => {
        const v = validateEmployee(raw);
        if (!v.ok) throw new Error(`bench employee invalid: ${v.message}`);
        return { idx, externalEmployeeId: v.employee.externalEmployeeId, input: v.employee, chainKey: `${tag}-${idx}` };
      });
      const r = await createSyncRequest(ctx.db.db, { organizationId: org, clientId: null, syncBatchId: tag, dryRun: false, items });
      const warm = Math.ceil(r.items.length / 10);
      for (const item of r.items.slice(0, warm)) await runSyncItem(db, { organizationId: org, requestId: r.requestId, itemId: item.id }, { lastAttempt: true });
      await measure();
      for (const item of r.items.slice(warm)) {
        const out = await runSyncItem(db, { organizationId: org, requestId: r.requestId, itemId: item.id }, { lastAttempt: true });
        if (out.kind !== "done") throw new Error(`an item of ${tag} ended ${out.kind}`);
      }
      await after();
      return r.items.length - warm;
    };
    try {
      for (const [label, key, jobTitle] of [
        [`${batch} new employees`, "create", undefined],
        [`the same ${batch} with a new job title`, "update", "Senior Technician"],
      ] as const) {
        // Plain: what the backend spends per employee, and the WAL and buffers it goes through.
        let c0 = 0;
        let k0 = { wal: 0, hits: 0 };
        let c1 = 0;
        let k1 = { wal: 0, hits: 0 };
        const n = await pass(
          plain.db,
          tags[0]!,
          jobTitle,
          async () => {
            k0 = await counters();
            c0 = await cpuMs();
          },
          async () => {
            c1 = await cpuMs();
            k1 = await counters();
          },
        );
        // Explained: the same on another set of employees, each statement's plan sent back.
        tallies.clear();
        const nx = await pass(
          explained.db,
          tags[1]!,
          jobTitle,
          async () => void (explaining = true),
          async () => void (explaining = false),
        );
        const backendUs = ((c1 - c0) * 1000) / n;
        const parts = [...tallies].sort((a, b) => b[1].ms - a[1].ms);
        const described = parts.map(
          ([k, x]) =>
            `${k} ${round((x.ms * 1000) / nx, 0)} us (${round(x.n / nx, 1)} per employee, ${round(x.hits / nx, 0)} buffers, ${round(x.walBytes / nx, 0)} B of WAL)`,
        );
        const totals = `backend CPU ${round(backendUs, 0)} us, ${round((k1.hits - k0.hits) / n, 0)} buffers, ${round((k1.wal - k0.wal) / n, 0)} B of WAL per employee`;
        rows.push({
          scenario: "sync-statements",
          what: `${label}, one at a time, organization of ${orgSize}`,
          n,
          medianMs: Number.NaN,
          p95Ms: Number.NaN,
          extra: `${totals}; statements (auto_explain): ${described.join("; ")}`,
        });
        metrics[`${key}BackendUsPerEmployee`] = round(backendUs, 0);
        metrics[`${key}BuffersPerEmployee`] = round((k1.hits - k0.hits) / n, 0);
        metrics[`${key}WalBytesPerEmployee`] = round((k1.wal - k0.wal) / n, 0);
        for (const [k, x] of parts) {
          metrics[`${key}:${k}:usPerEmployee`] = round((x.ms * 1000) / nx, 1);
          metrics[`${key}:${k}:buffersPerEmployee`] = round(x.hits / nx, 1);
        }
        progress(`${label}: ${totals}; ${described.join("; ")}`);
      }
    } finally {
      await plain.client.end({ timeout: 2 });
      await explained.client.end({ timeout: 2 });
    }
    return { name: "sync-statements", rows, metrics, samples: {}, notes: [] };
  },
};
