import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { requeueMissing, type Queues } from "@insp/queue";
import { importJobId } from "./submit.ts";

/**
 * Imports still PENDING after `olderThanMs` whose job is gone (the API died between writing the
 * import and enqueueing it, or Redis lost the job) or failed without recording it: queued again
 * under the same job id. Work accepted is never lost; a repeated request converges on it.
 */
export async function requeueStalledImports(db: DbOrTx, queues: Queues, olderThanMs: number, batch = 100): Promise<number> {
  const stale = await db
    .select({ id: inspectionImports.id, organizationId: inspectionImports.organizationId })
    .from(inspectionImports)
    .where(and(eq(inspectionImports.status, "PENDING"), sql`${inspectionImports.createdAt} < now() - ${olderThanMs} * interval '1 millisecond'`))
    .orderBy(asc(inspectionImports.createdAt))
    .limit(batch);
  return requeueMissing(
    queues,
    "inspection-import",
    stale.map((imp) => ({ jobId: importJobId(imp.id), data: { organizationId: imp.organizationId, importId: imp.id } })),
  );
}
