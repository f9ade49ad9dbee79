import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "@insp/db";
import { answerMedia, inspectionAnswers, inspectionRevisions, inspections } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, isUuid, notFound } from "../errors.ts";
import { stableJson } from "../stable-json.ts";
import { loadTemplateForValidation } from "../templates/index.ts";
import { actionsOfInspection, checkActionInputs, insertInspectionActions } from "../actions/index.ts";
import { answerValues, holdMedia, locationValues, storeAnswerImages, VALIDATION_FAILED, type PrepareServices } from "./prepare.ts";
import { reopenApprovedReview } from "./review.ts";
import { chunks } from "./run.ts";
import { answerActionItems, answerViolations, outcomeOf, type ImportAnswerInput, type InspectionLocation, type InspectionStatus } from "./validate.ts";

/** PATCH /api/inspections/{id} after schema validation (contracts PatchInspectionBody). */
export interface PatchInput {
  /** Only IN_PROGRESS -> COMPLETED moves; COMPLETED stays COMPLETED. */
  status?: InspectionStatus;
  completedAt?: string;
  /** Each replaces the answer to its question (value, note and images), or adds one. */
  answers?: ImportAnswerInput[];
  /** Question ids whose answer is removed. */
  removeAnswers?: string[];
  /** Where it took place; null removes it. */
  location?: InspectionLocation | null;
}

export type PatchOutcome = { changed: boolean; revision: number };

/** What a revision changed, by question id (inspection_revisions.changes). */
interface Changes {
  added: string[];
  changed: string[];
  removed: string[];
  status?: { from: string; to: string };
}

const quote = (s: string) => `'${s}'`;

/**
 * Continues or corrects an inspection: adds, changes or removes answers and their images, and may
 * complete it (IN_PROGRESS -> COMPLETED), as ONE new revision written in one transaction. The
 * answers it ends with are validated like an import against the inspection's own template version
 * (every violation at once, 400); completing needs every visible required question answered.
 *
 * `expectedRevisions` are the If-Match revisions (null: `If-Match: *`); any other is a 412,
 * checked before the images are stored and again under the row lock. A request that changes
 * nothing makes no revision. A COMPLETED inspection may still be corrected (each correction is a
 * revision) but never goes back to IN_PROGRESS (409).
 */
// eslint-disable-next-line max-lines-per-function -- to be split into a pure planPatch and a revision writer shared with the import
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
  const questionText = new Map(template.questions.map((q) => [q.id, q.text]));
  const status: InspectionStatus = input.status ?? (current.status as InspectionStatus);
  const details: string[] = [];
  const completedAt = input.completedAt ?? (status === "COMPLETED" && current.status !== "COMPLETED" ? new Date().toISOString() : undefined);
  if (status === "IN_PROGRESS" && input.completedAt !== undefined) details.push("completedAt must not be given for an IN_PROGRESS inspection");
  else if (completedAt !== undefined && current.startedAt && Date.parse(completedAt) < current.startedAt.getTime()) details.push("completedAt is before startedAt");

  const existing = await currentAnswers(svc.db, organizationId, id);
  const patched = input.answers ?? [];
  const removed = [...new Set(input.removeAnswers ?? [])];
  const patchedIds = new Set(patched.map((a) => a.questionId));
  for (const q of removed) {
    const label = questionText.has(q) ? quote(questionText.get(q)!) : quote(q);
    if (!existing.has(q)) details.push(`removeAnswers: question ${label} has no answer to remove`);
    if (patchedIds.has(q)) details.push(`removeAnswers: question ${label} is also answered in this request`);
  }
  // The answers it ends with: those kept, then those given (the engine reports a question given
  // twice). Checked before any image is stored, as for an import: a refused request stores nothing.
  const kept = [...existing.values()].filter((a) => !patchedIds.has(a.values.questionId) && !removed.includes(a.values.questionId));
  // Actions raised before count for require_action with those raised now, whatever became of them
  // since: the rule asks that one was raised (cancelling it is a decision about the action, and
  // must not leave the inspection unable to take any change).
  const actionsBefore = new Map<string, number>();
  for (const [questionId, list] of await actionsOfInspection(svc.db, organizationId, id)) actionsBefore.set(questionId, list.length);
  const finalAnswers: ImportAnswerInput[] = [...kept.map((a) => ({ ...a.values, mediaIds: a.mediaIds })), ...patched];
  details.push(...answerViolations(template, finalAnswers, status, actionsBefore));
  details.push(...(await checkActionInputs(svc.db, organizationId, answerActionItems(template, patched))));
  const newMedia = await storeAnswerImages(svc, organizationId, patched, questionText, details);
  if (details.length) throw new AppError("invalid", VALIDATION_FAILED, details);
  const outcome = outcomeOf(template, finalAnswers, actionsBefore);

  const changes: Changes = { added: [], changed: [], removed };
  const writes: { values: ReturnType<typeof answerValues>; mediaIds: string[]; position: number }[] = [];
  let nextPosition = Math.max(-1, ...[...existing.values()].map((a) => a.position)) + 1;
  patched.forEach((a, i) => {
    const values = answerValues(a);
    const before = existing.get(a.questionId);
    const unchanged = before && stableJson(before.values) === stableJson(values) && stableJson(before.mediaIds) === stableJson(newMedia[i]);
    if (unchanged && !a.actions?.length) return; // unchanged, and no action raised on it
    (before ? changes.changed : changes.added).push(a.questionId);
    writes.push({ values, mediaIds: newMedia[i]!, position: before?.position ?? nextPosition++ });
  });
  const statusMoved = status !== current.status;
  const completedAtMoved = completedAt !== undefined && Date.parse(completedAt) !== current.completedAt?.getTime();
  if (statusMoved) changes.status = { from: current.status, to: status };
  const location = input.location === undefined ? undefined : locationValues(input.location);
  const currentLocation = current.latitude === null || current.longitude === null ? null : { latitude: current.latitude, longitude: current.longitude, accuracyMeters: current.locationAccuracyMeters };
  const locationMoved = location !== undefined && stableJson(location) !== stableJson(currentLocation);
  if (!writes.length && !removed.length && !statusMoved && !completedAtMoved && !locationMoved) return { changed: false, revision: current.revision };
  // Answers left as they are (not given, or given unchanged) whose flag moved (a flag rule reads
  // another answer): updated in place.
  const written = new Set(writes.map((w) => w.values.questionId));
  const reflagged = [...existing.values()]
    .filter((a) => !written.has(a.values.questionId) && !removed.includes(a.values.questionId) && a.flagged !== outcome.flagged.has(a.values.questionId))
    .map((a) => a.values.questionId);

  return svc.db.transaction(async (tx) => {
    // Row lock: PATCHes of one inspection apply one after the other; the loser of a race sees the new revision.
    const [locked] = await tx.select({ revision: inspections.revision, reviewState: inspections.reviewState }).from(inspections).where(eq(inspections.id, id)).for("update");
    if (!locked) throw notFound(`Inspection ${id} not found`);
    if (locked.revision !== current.revision) {
      assertRevision(expectedRevisions, locked.revision);
      // If-Match: * accepts any revision, but this request was checked against the one before.
      throw new AppError("conflict", "The inspection changed while this request was being processed; send it again");
    }
    const revision = current.revision + 1;
    await holdMedia(tx, organizationId, writes.flatMap((w) => w.mediaIds));
    const closing = [...changes.changed, ...removed];
    if (closing.length) {
      await tx
        .update(inspectionAnswers)
        .set({ revisionTo: revision })
        .where(and(eq(inspectionAnswers.inspectionId, id), isNull(inspectionAnswers.revisionTo), inArray(inspectionAnswers.questionId, closing)));
    }
    const rows = writes.map((w) => ({
      row: { ...w.values, flagged: outcome.flagged.has(w.values.questionId), id: randomUUID(), organizationId, inspectionId: id, position: w.position, revisionFrom: revision },
      mediaIds: w.mediaIds,
    }));
    // In statements of at most 1,000 answers and 5,000 links: one may carry at most 65,535 parameters.
    for (const batch of chunks(rows, 1000)) await tx.insert(inspectionAnswers).values(batch.map((r) => r.row));
    const links = rows.flatMap((r) => r.mediaIds.map((mediaId, position) => ({ answerId: r.row.id, mediaId, organizationId, position })));
    for (const batch of chunks(links, 5000)) await tx.insert(answerMedia).values(batch);
    for (const batch of chunks(reflagged, 1000)) {
      await tx
        .update(inspectionAnswers)
        .set({ flagged: sql`not ${inspectionAnswers.flagged}` })
        .where(and(eq(inspectionAnswers.inspectionId, id), isNull(inspectionAnswers.revisionTo), inArray(inspectionAnswers.questionId, batch)));
    }
    const raised = patched.flatMap((a) => (a.actions ?? []).map((input) => ({ questionId: a.questionId, input })));
    if (raised.length) await insertInspectionActions(tx, organizationId, audit, id, raised);
    const finalCompletedAt = status === "COMPLETED" ? (completedAt !== undefined ? new Date(completedAt) : current.completedAt) : null;
    await tx
      .update(inspections)
      .set({
        revision,
        status,
        completedAt: finalCompletedAt,
        score: outcome.score,
        maxScore: outcome.maxScore,
        scorePercentage: outcome.scorePercentage,
        flaggedCount: outcome.flagged.size,
        ...(location !== undefined ? { latitude: location?.latitude ?? null, longitude: location?.longitude ?? null, locationAccuracyMeters: location?.accuracyMeters ?? null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(inspections.id, id));
    await tx.insert(inspectionRevisions).values({
      organizationId,
      inspectionId: id,
      revision,
      status,
      completedAt: finalCompletedAt,
      actorType: audit.actorType,
      actorId: audit.actorId,
      requestId: audit.requestId,
      changes,
    });
    await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "updated" });
    // An approved inspection that changes is no longer approved (docs/review.md).
    if (locked.reviewState === "APPROVED") await reopenApprovedReview(tx, organizationId, id, revision, audit);
    if (statusMoved) await recordChange(tx, { organizationId, resourceType: "inspection", resourceId: id, change: "completed" });
    const changedFields = [
      ...(writes.length || removed.length ? ["answers"] : []),
      ...(statusMoved ? ["status"] : []),
      ...(completedAtMoved ? ["completedAt"] : []),
      ...(locationMoved ? ["location"] : []),
    ];
    await recordAudit(tx, audit, { organizationId, action: "inspection.updated", resourceType: "inspection", resourceId: id, changedFields });
    return { changed: true, revision };
  });
}

/** If-Match: any of the revisions named, or any at all (null: `*`). */
function assertRevision(expected: number[] | null, actual: number): void {
  if (expected !== null && !expected.includes(actual)) {
    throw new AppError("stale", `The inspection has changed since you read it (it is at revision ${actual}); GET it again and reapply your change with its new ETag`);
  }
}

interface StoredAnswer {
  values: ReturnType<typeof answerValues>;
  mediaIds: string[];
  position: number;
  flagged: boolean;
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
        .where(and(eq(answerMedia.organizationId, organizationId), inArray(answerMedia.answerId, rows.map((r) => r.id))))
        .orderBy(asc(answerMedia.answerId), asc(answerMedia.position))
    : [];
  const mediaOf = new Map<string, string[]>();
  for (const l of links) mediaOf.set(l.answerId, [...(mediaOf.get(l.answerId) ?? []), l.mediaId]);
  return new Map(rows.map((r) => [r.questionId, { values: answerValues(r as ImportAnswerInput), mediaIds: mediaOf.get(r.id) ?? [], position: r.position, flagged: r.flagged }]));
}
