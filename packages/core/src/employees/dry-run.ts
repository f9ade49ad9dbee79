import type postgres from "postgres";
import { PG, pgErrorCode, type Db } from "@insp/db";
import { EmployeeRuleError } from "./rules.ts";
import { syncEmployee } from "./run.ts";
import type { SyncEmployee, SyncResult } from "./types.ts";

/** A sync request's dry run (`?dryRun=true`): every employee through the real code, then a rollback. */

class RollBack extends Error {}

export type DryRunOutcome = { idx: number; result: SyncResult } | { idx: number; error: string };

/**
 * `?dryRun=true`: the same service code as a real sync, in ONE transaction that is
 * always rolled back. Employees run in request order, each in a savepoint, so a
 * duplicate sees the effect of its predecessor (as it would for real) and a failed
 * employee is rolled back alone. Nothing is written and no job is enqueued; the ids
 * of employees and accounts that would be created are reported as null.
 */
export async function dryRunSync(
  db: Db,
  organizationId: string,
  requestId: string,
  items: { idx: number; employee: SyncEmployee }[],
): Promise<DryRunOutcome[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dryRunOnce(db, organizationId, requestId, items);
    } catch (err) {
      // A dry run holds the locks of every employee until it ends, so it can deadlock
      // with a real sync of the same employees; try again a few times.
      const code = pgErrorCode(err);
      if (attempt >= 3 || (code !== PG.deadlock && code !== PG.serializationFailure && code !== PG.uniqueViolation)) throw err;
    }
  }
}

async function dryRunOnce(db: Db, organizationId: string, requestId: string, items: { idx: number; employee: SyncEmployee }[]): Promise<DryRunOutcome[]> {
  const out: DryRunOutcome[] = [];
  // Ids made inside the rolled-back transaction name nothing: report them as null.
  const phantoms = new Set<string>();
  const real = (id: string | null) => (id && !phantoms.has(id) ? id : null);
  try {
    await db.$client.begin(async (tx: postgres.TransactionSql) => {
      for (const { idx, employee } of items) {
        try {
          const o = await tx.savepoint((sp: postgres.TransactionSql) => syncEmployee(sp, { organizationId, requestId }, employee));
          if (o.createdEmployee && o.result.employeeId) phantoms.add(o.result.employeeId);
          if (o.createdUser && o.result.userId) phantoms.add(o.result.userId);
          out.push({ idx, result: { ...o.result, employeeId: real(o.result.employeeId), userId: real(o.result.userId) } });
        } catch (err) {
          if (!(err instanceof EmployeeRuleError)) throw err;
          out.push({ idx, error: err.message });
        }
      }
      throw new RollBack();
    });
  } catch (err) {
    if (!(err instanceof RollBack)) throw err;
  }
  return out;
}
