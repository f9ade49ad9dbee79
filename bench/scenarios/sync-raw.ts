import { randomUUID } from "node:crypto";
import { validateEmployee } from "@insp/contracts";
import { createSyncRequest, type NewItem } from "@insp/core";
import type { BenchContext } from "../lib/context.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { employeeBatch } from "../lib/fixtures.ts";
import type { Progress, Scenario } from "../lib/scenario.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { drift, median, p95, pool, round, timed } from "../lib/stats.ts";
import { newTag, warmupSize } from "../lib/sync.ts";

/**
 * The machine's floor for the rows a sync writes: for each new employee, its user account, the
 * employee, 2 role rows, 1 group row, 1 site row and the item's outcome, in ONE statement
 * (data-modifying CTEs, so one implicit transaction and one round trip per employee, prepared
 * once), over a pool of `--pool` connections with `--worker-concurrency` employees in flight.
 * No lock, no read, no decision, no queue, no HTTP: what is left is Postgres writing the rows
 * and the leanest Node driver work around it.
 */
async function rawBatch(ctx: BenchContext, size: number, tag: string, refs: { roles: string[]; group: string; site: string }): Promise<number> {
  const organizationId = ctx.tenant.organization.id;
  const sql = ctx.db.sql;
  const employees = employeeBatch(ctx.tenant, tag, size).map((raw) => {
    const v = validateEmployee(raw);
    if (!v.ok) throw new Error(`bench employee invalid: ${v.message}`);
    return v.employee;
  });
  const items: NewItem[] = employees.map((e, idx) => ({ idx, externalEmployeeId: e.externalEmployeeId, input: e }));
  const { ms } = await timed(async () => {
    const r = await createSyncRequest(ctx.db.db, { organizationId, clientId: null, syncBatchId: tag, dryRun: false, items });
    await pool(r.items, ctx.opts.workerConcurrency, async (item) => {
      const e = employees[item.idx]!;
      const [employeeId, userId] = [randomUUID(), randomUUID()];
      const displayName = `${e.firstName} ${e.lastName}`;
      const result = { externalEmployeeId: e.externalEmployeeId, status: "CREATED", employeeId, userId, warnings: [] };
      await sql`
        with u as (insert into users (id, organization_id, email, username, name) values (${userId}, ${organizationId}, ${e.email!}, ${e.email!}, ${displayName})),
        em as (insert into employees (id, organization_id, external_employee_id, status, first_name, last_name, display_name, email, phone, job_title, department, hire_date, user_id, last_sync_request_id)
               values (${employeeId}, ${organizationId}, ${e.externalEmployeeId}, 'ACTIVE', ${e.firstName!}, ${e.lastName!}, ${displayName}, ${e.email!}, ${e.phone!}, ${e.jobTitle!}, ${e.department!}, ${e.hireDate!}, ${userId}, ${r.requestId})),
        ro as (insert into employee_roles (employee_id, role_id, organization_id) select ${employeeId}, unnest(${refs.roles}::uuid[]), ${organizationId}),
        gr as (insert into employee_groups (employee_id, group_id, organization_id, member_role) values (${employeeId}, ${refs.group}, ${organizationId}, 'member')),
        si as (insert into employee_sites (employee_id, site_id, organization_id) values (${employeeId}, ${refs.site}, ${organizationId})),
        it as (update sync_request_items set status = 'done', result = ${JSON.stringify(result)}::jsonb, updated_at = now() where id = ${item.id})
        select 1`;
    });
  });
  return ms;
}

async function rawRounds(ctx: BenchContext, progress: Progress) {
  const { rounds, batch } = ctx.opts;
  const t = ctx.tenant;
  const roleRows = await ctx.db.sql<
    { id: string }[]
  >`select id from roles where organization_id = ${t.organization.id} and name in ('inspector', 'FIELD_TECH')`;
  const refs = { roles: roleRows.map((r) => r.id), group: t.groups[0]!.id, site: t.sites[0]!.id };
  await rawBatch(ctx, warmupSize(batch), newTag("rawwarm"), refs);
  await ctx.beforeRounds();
  const ms: number[] = [];
  const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
    for (let r = 0; r < rounds; r++) {
      ms.push(await rawBatch(ctx, batch, newTag("raw"), refs));
      progress(`round ${r + 1}/${rounds}: ${batch} employees in ${round(ms[r]!, 0)} ms (${round((batch * 1000) / ms[r]!, 0)}/s)`);
    }
  });
  return { ms, cpu };
}

export const syncRaw: Scenario = {
  name: "sync-raw",
  freshDatabase: true,
  describe: "the rows of each new employee written by one prepared statement from the bench process (same pool and concurrency): the machine's floor",
  async run(ctx, progress) {
    const { batch, workerConcurrency, poolSize } = ctx.opts;
    const { ms, cpu } = await rawRounds(ctx, progress);
    return {
      name: "sync-raw",
      rows: [
        latencyRow(
          "sync-raw",
          `batch of ${batch} new employees, one statement each, ${workerConcurrency} in flight over ${poolSize} connections`,
          ms,
          { items: batch, unit: "employees/s" },
          describeCpu(cpu, ms.length * batch, "employee", "API+worker (idle)"),
        ),
      ],
      metrics: {
        batch,
        medianMs: round(median(ms)),
        p95Ms: round(p95(ms)),
        employeesPerS: round((batch * 1000) / median(ms)),
        drift: round(drift(ms), 3),
        ...cpuMetrics(cpu, ms.length * batch),
      },
      samples: { batch: ms },
      notes: [],
    };
  },
};
