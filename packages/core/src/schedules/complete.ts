import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@insp/db";
import { occurrences } from "@insp/db/schema";
import { recordChange } from "../changes/index.ts";
import { isBlank, isUuid } from "../errors.ts";
import { afterCompletionChanged } from "./sweep.ts";

/**
 * Inspections doing an occurrence's work (docs/schedules.md, "Completing an occurrence"): an import
 * or PATCH naming `occurrenceId`. IN_PROGRESS marks it started; COMPLETED completes it (ONE: the
 * first completion; ALL: once every assignee has completed one). A MISSED occurrence stays missed.
 */

const WORKABLE = ["OPEN", "LATE"];

/** Why an inspection of this template, site and asset cannot name the occurrence: the details of its 400 (empty: it may). */
export async function occurrenceViolations(
  db: DbOrTx,
  organizationId: string,
  occurrenceId: string,
  inspection: { templateId: string; siteId?: string | null; assetId?: string | null },
): Promise<string[]> {
  const [o] = isUuid(occurrenceId)
    ? await db
        .select()
        .from(occurrences)
        .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.id, occurrenceId)))
    : [];
  if (!o) return [`occurrenceId '${occurrenceId}' is not an occurrence of this organization`];
  const details: string[] = [];
  if (!WORKABLE.includes(o.state)) {
    const why =
      o.state === "UPCOMING" ? `it opens at ${o.startAt.toISOString()}` : o.state === "MISSED" ? "it was missed and stays missed" : "it is already completed";
    details.push(`occurrenceId '${occurrenceId}' is ${o.state}: ${why}`);
  }
  if (o.templateId !== inspection.templateId) details.push(`occurrenceId '${occurrenceId}' is for template '${o.templateId}', not '${inspection.templateId}'`);
  // An asset's occurrence carries the asset's site for the lists: the asset is what the inspection must name.
  if (o.siteId && !o.assetId && (isBlank(inspection.siteId) || inspection.siteId !== o.siteId))
    details.push(`occurrenceId '${occurrenceId}' is for site '${o.siteId}': the inspection's siteId must be it`);
  if (o.assetId && (isBlank(inspection.assetId) || inspection.assetId !== o.assetId))
    details.push(`occurrenceId '${occurrenceId}' is for asset '${o.assetId}': the inspection's assetId must be it`);
  return details;
}

/**
 * In the inspection's transaction: records its work on the occurrence (locked). Started once;
 * completed once (COMPLETED, or COMPLETED_LATE from LATE). Nothing for an occurrence no longer
 * OPEN or LATE (it was missed or completed meanwhile: the inspection stands on its own).
 */
export async function recordOccurrenceWork(
  tx: Tx,
  organizationId: string,
  occurrenceId: string,
  work: { inspectionId: string; status: "IN_PROGRESS" | "COMPLETED"; userId: string | null },
): Promise<void> {
  const [o] = await tx
    .select()
    .from(occurrences)
    .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.id, occurrenceId)))
    .for("update");
  if (!o || !WORKABLE.includes(o.state)) return;
  const event = (change: "started" | "completed") => recordChange(tx, { organizationId, resourceType: "occurrence", resourceId: occurrenceId, change });
  if (work.status === "IN_PROGRESS") {
    if (o.startedAt) return;
    await tx
      .update(occurrences)
      .set({ startedAt: sql`now()`, inspectionId: work.inspectionId })
      .where(eq(occurrences.id, occurrenceId));
    await event("started");
    return;
  }
  const by = work.userId && !o.completedByUserIds.includes(work.userId) ? [...o.completedByUserIds, work.userId] : o.completedByUserIds;
  const done = o.mustComplete !== "ALL" || o.assigneeUserIds.every((u) => by.includes(u));
  await tx
    .update(occurrences)
    .set({
      completedByUserIds: by,
      inspectionId: work.inspectionId,
      startedAt: o.startedAt ?? sql`now()`,
      ...(done ? { state: o.state === "LATE" ? "COMPLETED_LATE" : "COMPLETED", completedAt: sql`now()` } : {}),
    })
    .where(eq(occurrences.id, occurrenceId));
  if (!done) return;
  await event("completed");
  await afterCompletionChanged(tx, [occurrenceId]);
}

/** The OPEN or LATE occurrence an inspection was started for, if any (a PATCH completing it completes that one). */
export async function occurrenceOfInspection(db: DbOrTx, organizationId: string, inspectionId: string): Promise<string | null> {
  const [o] = await db
    .select({ id: occurrences.id })
    .from(occurrences)
    .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.inspectionId, inspectionId), sql`${occurrences.state} in ('OPEN', 'LATE')`))
    .limit(1);
  return o?.id ?? null;
}
