import { and, eq, sql } from "drizzle-orm";
import { PG, pgErrorCode, type Db, type DbOrTx } from "@insp/db";
import { inspectionCounters, inspectionImports, inspections } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { recordOccurrenceWork } from "../schedules/index.ts";
import { formatInspectionNumber, isImportPayload } from "./payload.ts";
import { planImport } from "./plan.ts";
import { writeRevision } from "./write.ts";

export type ImportRunResult = { status: "DONE"; id: string; inspectionNumber: string } | { status: "FAILED" | "MISSING" };

/** Thrown for an import that can never succeed; the processor records it without retrying. */
export class PermanentImportError extends Error {}

/**
 * The worker half of an import, in ONE transaction: locks the import row (a retried or
 * duplicated job finds it DONE and does nothing), takes the next number from the
 * organization's counter (upsert: the row is created on first use; its row lock serializes
 * concurrent imports of one organization until commit, so numbers are unique and gapless),
 * inserts the inspection and its first revision (planImport, writeRevision: answers, media links,
 * actions, the revision row), and marks the import DONE.
 */
export async function runImport(db: Db, organizationId: string, importId: string): Promise<ImportRunResult> {
  return db.transaction(async (tx) => {
    const [imp] = await tx
      .select()
      .from(inspectionImports)
      .where(and(eq(inspectionImports.organizationId, organizationId), eq(inspectionImports.id, importId)))
      .for("update");
    if (!imp) return { status: "MISSING" as const };
    if (imp.status === "DONE") {
      const r = imp.result as { id: string; inspectionNumber: string };
      return { status: "DONE" as const, id: r.id, inspectionNumber: r.inspectionNumber };
    }
    if (imp.status !== "PENDING") return { status: "FAILED" as const };
    const p = imp.payload;
    if (!isImportPayload(p)) throw new PermanentImportError("the stored import request is malformed");

    const [counter] = await tx
      .insert(inspectionCounters)
      .values({ organizationId, lastNumber: 1 })
      .onConflictDoUpdate({ target: inspectionCounters.organizationId, set: { lastNumber: sql`${inspectionCounters.lastNumber} + 1` } })
      .returning({ lastNumber: inspectionCounters.lastNumber });
    const inspectionNumber = formatInspectionNumber(counter!.lastNumber);

    const plan = planImport(p);
    const [inspection] = await tx
      .insert(inspections)
      .values({ organizationId, inspectionNumber, ...plan.inspection })
      .returning({ id: inspections.id });
    const inspectionId = inspection!.id;
    await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: inspectionId, change: "created" });
    // The actor and request of the POST that submitted it (imports recorded before audit existed: unknown).
    const actor = (imp.audit as AuditContext | null) ?? { actorType: "anonymous", actorId: null, requestId: null };
    await recordAudit(tx, actor, { organizationId, action: "inspection.created", resourceType: "inspection", resourceId: inspectionId });
    await writeRevision(tx, organizationId, inspectionId, plan.revision, actor);
    if (p.occurrenceId) await recordOccurrenceWork(tx, organizationId, p.occurrenceId, { inspectionId, status: p.status, userId: p.conductedBy });

    const result = { id: inspectionId, inspectionNumber };
    await tx
      .update(inspectionImports)
      .set({ status: "DONE", inspectionId, result, error: null, attempts: sql`${inspectionImports.attempts} + 1` })
      .where(eq(inspectionImports.id, importId));
    return { status: "DONE" as const, ...result };
  });
}

/** Records a failed import with a message the client may see (the details stay in the worker log). */
export async function failImport(db: DbOrTx, organizationId: string, importId: string, message: string): Promise<void> {
  await db
    .update(inspectionImports)
    .set({ status: "FAILED", error: message, attempts: sql`${inspectionImports.attempts} + 1` })
    .where(and(eq(inspectionImports.organizationId, organizationId), eq(inspectionImports.id, importId), eq(inspectionImports.status, "PENDING")));
}

/**
 * Whether a failure is worth another attempt, and what the client is told. Integrity
 * violations (a user, site, asset or template deleted since validation) and malformed
 * requests are permanent; anything else (deadlocks, lost connections) is retried.
 */
export function classifyImportFailure(err: unknown): { permanent: boolean; message: string } {
  if (err instanceof PermanentImportError) return { permanent: true, message: err.message };
  const code = pgErrorCode(err);
  if (code === PG.foreignKeyViolation)
    return { permanent: true, message: "a template, user, site, asset or image it refers to was deleted while it was queued" };
  if (code?.startsWith("23")) return { permanent: true, message: "the inspection violates a database constraint" };
  return { permanent: false, message: "the worker could not create the inspection (the cause is in the worker log)" };
}
