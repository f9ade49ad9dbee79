import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "@insp/db";
import { answerMedia, inspectionAnswers, inspections } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, isUuid, notFound } from "../errors.ts";
import { loadTemplateForValidation } from "../templates/index.ts";
import { actionsOfInspection, checkActionInputs } from "../actions/index.ts";
import { occurrenceOfInspection, occurrenceViolations, recordOccurrenceWork } from "../schedules/index.ts";
import { answerValues, patchViolations, planPatch, type InspectionState, type PatchInput, type PatchPlan, type StoredAnswer } from "./plan.ts";
import { holdMedia, storeAnswerImages, VALIDATION_FAILED, type PrepareServices } from "./prepare.ts";
import { reopenApprovedReview } from "./review.ts";
import { answerActionItems, type ImportAnswerInput, type InspectionStatus } from "./validate.ts";
import { writeRevision } from "./write.ts";

export type { PatchInput } from "./plan.ts";

export type PatchOutcome = { changed: boolean; revision: number };

/**
 * Continues or corrects an inspection: adds, changes or removes answers and their images, and may
 * complete it (IN_PROGRESS -> COMPLETED), as ONE new revision written in one transaction. The
 * answers it ends with are validated like an import against the inspection's own template version
 * (every violation at once, 400); completing needs every visible required question answered.
 * What it writes is planned without I/O (patchViolations, planPatch) and applied by writeRevision,
 * as the import's first revision is.
 *
 * `expectedRevisions` are the If-Match revisions (null: `If-Match: *`); any other is a 412,
 * checked before the images are stored and again under the row lock. A request that changes
 * nothing makes no revision. A COMPLETED inspection may still be corrected (each correction is a
 * revision) but never goes back to IN_PROGRESS (409).
 */
export async function patchInspection(
  svc: PrepareServices,
  organizationId: string,
  id: string,
  expectedRevisions: number[] | null,
  input: PatchInput,
  audit: AuditContext,
): Promise<PatchOutcome> {
  if (!isUuid(id)) throw notFound(`Inspection ${id} not found`);
  const [current] = await svc.db
    .select()
    .from(inspections)
    .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, id)));
  if (!current) throw notFound(`Inspection ${id} not found`);
  assertRevision(expectedRevisions, current.revision);
  if (current.status === "COMPLETED" && input.status === "IN_PROGRESS") throw new AppError("conflict", "A COMPLETED inspection cannot go back to IN_PROGRESS");

  const template = await loadTemplateForValidation(svc.db, organizationId, current.templateId, current.templateVersion);
  if (!template) throw new AppError("internal", `Template version ${current.templateVersion} of inspection ${id} is missing`);
  const state = await readState(svc.db, organizationId, current);
  const now = new Date();
  // Everything is checked before any image is stored, as for an import: a refused request stores nothing.
  const details = patchViolations(state, template, input, now);
  const patched = input.answers ?? [];
  details.push(...(await checkActionInputs(svc.db, organizationId, answerActionItems(template, patched))));
  if (input.occurrenceId !== undefined) details.push(...(await occurrenceViolations(svc.db, organizationId, input.occurrenceId, current)));
  const media = await storeAnswerImages(svc, organizationId, patched, new Map(template.questions.map((q) => [q.id, q.text])), details);
  if (details.length) throw new AppError("invalid", VALIDATION_FAILED, details);
  const plan = planPatch(state, template, input, media, now);
  if (!plan) {
    // Nothing else changes: only the occurrence is told (a PATCH with just occurrenceId links an inspection under way).
    if (input.occurrenceId !== undefined) await svc.db.transaction((tx) => occurrenceWork(tx, organizationId, current, input.occurrenceId, false));
    return { changed: false, revision: current.revision };
  }

  return svc.db.transaction(async (tx) => {
    // Row lock: PATCHes of one inspection apply one after the other; the loser of a race sees the new revision.
    const [locked] = await tx
      .select({ revision: inspections.revision, reviewState: inspections.reviewState })
      .from(inspections)
      .where(eq(inspections.id, id))
      .for("update");
    if (!locked) throw notFound(`Inspection ${id} not found`);
    if (locked.revision !== current.revision) {
      assertRevision(expectedRevisions, locked.revision);
      // If-Match: * accepts any revision, but this request was checked against the one before.
      throw new AppError("conflict", "The inspection changed while this request was being processed; send it again");
    }
    await holdMedia(
      tx,
      organizationId,
      plan.revision.insert.flatMap((w) => w.mediaIds),
    );
    await writeRevision(tx, organizationId, id, plan.revision, audit);
    await updateInspection(tx, organizationId, id, plan, locked.reviewState, audit);
    await occurrenceWork(tx, organizationId, current, input.occurrenceId, plan.statusMoved);
    return { changed: true, revision: plan.revision.revision };
  });
}

/**
 * The occurrence a PATCH does (docs/schedules.md): the one it names, or, when it completes the
 * inspection, the one the inspection was started for. Started or completed with the inspection's status.
 */
async function occurrenceWork(
  tx: Tx,
  organizationId: string,
  current: typeof inspections.$inferSelect,
  named: string | undefined,
  completes: boolean,
): Promise<void> {
  const occurrenceId = named ?? (completes ? await occurrenceOfInspection(tx, organizationId, current.id) : null);
  if (!occurrenceId) return;
  const status = completes || current.status === "COMPLETED" ? "COMPLETED" : "IN_PROGRESS";
  await recordOccurrenceWork(tx, organizationId, occurrenceId, { inspectionId: current.id, status, userId: current.conductedBy });
}

/** The inspection row of a planned PATCH, and its events: updated, reopened when it was approved, completed when its status moved. */
async function updateInspection(tx: Tx, organizationId: string, id: string, plan: PatchPlan, reviewState: string, audit: AuditContext): Promise<void> {
  const { location, ...values } = plan.inspection;
  const revision = plan.revision.revision;
  const locationColumns =
    location === undefined
      ? {}
      : { latitude: location?.latitude ?? null, longitude: location?.longitude ?? null, locationAccuracyMeters: location?.accuracyMeters ?? null };
  await tx
    .update(inspections)
    .set({ revision, ...values, ...locationColumns, updatedAt: sql`now()` })
    .where(eq(inspections.id, id));
  await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "updated" });
  // An approved inspection that changes is no longer approved (docs/review.md).
  if (reviewState === "APPROVED") await reopenApprovedReview(tx, organizationId, id, revision, audit);
  if (plan.statusMoved) await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "completed" });
  await recordAudit(tx, audit, { organizationId, action: "inspection.updated", resourceType: "inspection", resourceId: id, changedFields: plan.changedFields });
}

/**
 * What a PATCH is planned against. Actions raised before count for require_action with those
 * raised now, whatever became of them since: the rule asks that one was raised (cancelling it is
 * a decision about the action, and must not leave the inspection unable to take any change).
 */
async function readState(db: PrepareServices["db"], organizationId: string, current: typeof inspections.$inferSelect): Promise<InspectionState> {
  const answers = await currentAnswers(db, organizationId, current.id);
  const actionsBefore = new Map<string, number>();
  for (const [questionId, list] of await actionsOfInspection(db, organizationId, current.id)) actionsBefore.set(questionId, list.length);
  return {
    status: current.status as InspectionStatus,
    revision: current.revision,
    startedAt: current.startedAt,
    completedAt: current.completedAt,
    location:
      current.latitude === null || current.longitude === null
        ? null
        : { latitude: current.latitude, longitude: current.longitude, accuracyMeters: current.locationAccuracyMeters },
    answers,
    actionsBefore,
  };
}

/** If-Match: any of the revisions named, or any at all (null: `*`). */
function assertRevision(expected: number[] | null, actual: number): void {
  if (expected !== null && !expected.includes(actual)) {
    throw new AppError(
      "stale",
      `The inspection has changed since you read it (it is at revision ${actual}); GET it again and reapply your change with its new ETag`,
    );
  }
}

/** The current answers by question id, with their images' media ids in order. */
async function currentAnswers(db: Tx | PrepareServices["db"], organizationId: string, inspectionId: string): Promise<Map<string, StoredAnswer>> {
  const rows = await db
    .select()
    .from(inspectionAnswers)
    .where(and(eq(inspectionAnswers.organizationId, organizationId), eq(inspectionAnswers.inspectionId, inspectionId), isNull(inspectionAnswers.revisionTo)))
    .orderBy(asc(inspectionAnswers.position));
  const links = rows.length
    ? await db
        .select({ answerId: answerMedia.answerId, mediaId: answerMedia.mediaId })
        .from(answerMedia)
        .where(
          and(
            eq(answerMedia.organizationId, organizationId),
            inArray(
              answerMedia.answerId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(asc(answerMedia.answerId), asc(answerMedia.position))
    : [];
  const mediaOf = new Map<string, string[]>();
  for (const l of links) mediaOf.set(l.answerId, [...(mediaOf.get(l.answerId) ?? []), l.mediaId]);
  return new Map(
    rows.map((r) => [
      r.questionId,
      { values: answerValues(r as ImportAnswerInput), mediaIds: mediaOf.get(r.id) ?? [], position: r.position, flagged: r.flagged },
    ]),
  );
}
