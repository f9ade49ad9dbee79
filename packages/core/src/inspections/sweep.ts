import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";

/**
 * Imports still PENDING after `olderThanMs` whose job is gone (the API died between writing the
 * import and enqueueing it, or Redis lost the job) or failed without recording it: queued again
 * under the same job id. Work accepted is never lost; a repeated request converges on it.
 * Pages through all of them (`page` at a time, by id).
 */
export async function requeueStalledImports(db: DbOrTx, queues: Queues, olderThanMs: number, page = 1000): Promise<number> {
  return requeuePaged(
    queues,
    "inspection-import",
    (after) =>
      db
        .select({ id: inspectionImports.id, organizationId: inspectionImports.organizationId })
        .from(inspectionImports)
        .where(
          and(
            eq(inspectionImports.status, "PENDING"),
            sql`${inspectionImports.createdAt} <= now() - ${olderThanMs} * interval '1 millisecond'`,
            after ? gt(inspectionImports.id, after) : undefined,
          ),
        )
        .orderBy(asc(inspectionImports.id))
        .limit(page),
    (imp) => ({ jobId: jobIds.import(imp.id), data: { organizationId: imp.organizationId, importId: imp.id } }),
    page,
  );
}
