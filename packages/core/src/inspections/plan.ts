import type { AnswerActionInputType } from "../actions/index.ts";
import { stableJson } from "../stable-json.ts";
import type { TemplateForValidation } from "../templates/index.ts";
import type { ImportPayload } from "./payload.ts";
import { answerViolations, outcomeOf, type ImportAnswerInput, type InspectionLocation, type InspectionStatus } from "./validate.ts";

// The writes of a revision, decided without I/O: the import's first revision (planImport) and a
// PATCH's next one (patchViolations, then planPatch). writeRevision (write.ts) applies them.

/** What a revision changed, by question id (inspection_revisions.changes). */
export interface RevisionChanges {
  added: string[];
  changed: string[];
  removed: string[];
  status?: { from: string; to: string };
}

/** An answer's stored values: every field, null when not given. */
export function answerValues(a: ImportAnswerInput) {
  return {
    questionId: a.questionId,
    answerText: a.answerText ?? null,
    answerNumber: a.answerNumber ?? null,
    answerBoolean: a.answerBoolean ?? null,
    answerDate: a.answerDate ?? null,
    answerJson: a.answerJson ?? null,
    responseOptionId: a.responseOptionId ?? null,
    templateOptionId: a.templateOptionId ?? null,
    unitId: a.unitId ?? null,
    unitCategory: a.unitCategory ?? null,
    note: a.note ?? null,
  };
}

type AnswerValues = ReturnType<typeof answerValues>;
export type LocationValues = { latitude: number; longitude: number; accuracyMeters: number | null };

/** A location as stored, null when not given. */
export function locationValues(l: InspectionLocation | null | undefined): LocationValues | null {
  return l ? { latitude: l.latitude, longitude: l.longitude, accuracyMeters: l.accuracyMeters ?? null } : null;
}

/** An answer row to insert, with its images' media ids in order. */
interface AnswerWrite {
  values: AnswerValues;
  flagged: boolean;
  position: number;
  mediaIds: string[];
}

/** The rows one revision writes in its transaction (writeRevision applies them in this order). */
export interface RevisionWrites {
  revision: number;
  /** Question ids whose current answer this revision ends: changed or removed. */
  close: string[];
  insert: AnswerWrite[];
  /** Question ids of answers left as they are whose flag flips (a flag rule reads another answer). */
  reflag: string[];
  /** The corrective actions the written answers raise. */
  actions: { questionId: string; input: AnswerActionInputType }[];
  /** The inspection_revisions row: the status and completedAt it ends with, and what changed. */
  status: InspectionStatus;
  completedAt: Date | null;
  changes: RevisionChanges;
}

/** The first revision: the inspection row (its number and id come from the database) and every answer of the payload. */
export function planImport(p: ImportPayload) {
  const completedAt = p.completedAt === null ? null : new Date(p.completedAt);
  const inspection = {
    templateId: p.templateId,
    templateVersion: p.templateVersion,
    assetId: p.assetId,
    assetName: p.assetName,
    siteId: p.siteId,
    conductedBy: p.conductedBy,
    status: p.status,
    startedAt: new Date(p.startedAt),
    completedAt,
    // Imports queued before scores and locations existed have none.
    score: p.score ?? 0,
    maxScore: p.maxScore ?? 0,
    scorePercentage: p.scorePercentage ?? null,
    flaggedCount: p.flaggedCount ?? 0,
    latitude: p.location?.latitude ?? null,
    longitude: p.location?.longitude ?? null,
    locationAccuracyMeters: p.location?.accuracyMeters ?? null,
  };
  const revision: RevisionWrites = {
    revision: 1,
    close: [],
    insert: p.answers.map((a, position) => ({ values: answerValues(a), flagged: a.flagged ?? false, position, mediaIds: a.mediaIds })),
    reflag: [],
    actions: raisedActions(p.answers),
    status: p.status,
    completedAt,
    changes: { added: p.answers.map((a) => a.questionId), changed: [], removed: [] },
  };
  return { inspection, revision };
}

/** An answer as stored, with its images' media ids in order. */
export interface StoredAnswer {
  values: AnswerValues;
  mediaIds: string[];
  position: number;
  flagged: boolean;
}

/** What a PATCH is planned against: the inspection as it is. */
export interface InspectionState {
  status: InspectionStatus;
  revision: number;
  startedAt: Date | null;
  completedAt: Date | null;
  location: LocationValues | null;
  /** The current answers by question id. */
  answers: ReadonlyMap<string, StoredAnswer>;
  /** How many actions each question has raised so far, whatever became of them since. */
  actionsBefore: ReadonlyMap<string, number>;
}

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
  /** The occurrence of a schedule it does (docs/schedules.md). */
  occurrenceId?: string;
}

/** The next revision of a PATCH: its rows, the inspection's new values, and what the change log and audit say. */
export interface PatchPlan {
  revision: RevisionWrites;
  inspection: {
    status: InspectionStatus;
    completedAt: Date | null;
    score: number;
    maxScore: number;
    scorePercentage: number | null;
    flaggedCount: number;
    /** Absent: left as it is; null: removed. */
    location?: LocationValues | null;
  };
  /** The status moved (the change log says "completed"). */
  statusMoved: boolean;
  /** The audit entry's changedFields. */
  changedFields: string[];
}

const quote = (s: string) => `'${s}'`;

/** What a PATCH ends with: its status and completedAt (now when it completes without one), and its answers. */
function resolvePatch(state: InspectionState, input: PatchInput, now: Date) {
  const status: InspectionStatus = input.status ?? state.status;
  const completedAt = input.completedAt ?? (status === "COMPLETED" && state.status !== "COMPLETED" ? now.toISOString() : undefined);
  const patched = input.answers ?? [];
  const removed = [...new Set(input.removeAnswers ?? [])];
  const patchedIds = new Set(patched.map((a) => a.questionId));
  // The answers it ends with: those kept, then those given (the engine reports a question given twice).
  const kept = [...state.answers.values()].filter((a) => !patchedIds.has(a.values.questionId) && !removed.includes(a.values.questionId));
  const finalAnswers: ImportAnswerInput[] = [...kept.map((a) => ({ ...a.values, mediaIds: a.mediaIds })), ...patched];
  return { status, completedAt, patched, removed, patchedIds, finalAnswers };
}

/**
 * A PATCH's violations that need no I/O, one message each, in the order the client sees them:
 * completedAt, removeAnswers, then the answers it ends with, validated like an import against the
 * inspection's template version (completing needs every visible required question answered).
 * Actions raised before count for require_action with those raised now (see InspectionState).
 */
export function patchViolations(state: InspectionState, template: TemplateForValidation, input: PatchInput, now: Date): string[] {
  const { status, completedAt, removed, patchedIds, finalAnswers } = resolvePatch(state, input, now);
  const details: string[] = [];
  if (status === "IN_PROGRESS" && input.completedAt !== undefined) details.push("completedAt must not be given for an IN_PROGRESS inspection");
  else if (completedAt !== undefined && state.startedAt && Date.parse(completedAt) < state.startedAt.getTime()) details.push("completedAt is before startedAt");
  const questionText = new Map(template.questions.map((q) => [q.id, q.text]));
  for (const q of removed) {
    const label = quote(questionText.get(q) ?? q);
    if (!state.answers.has(q)) details.push(`removeAnswers: question ${label} has no answer to remove`);
    if (patchedIds.has(q)) details.push(`removeAnswers: question ${label} is also answered in this request`);
  }
  details.push(...answerViolations(template, finalAnswers, status, state.actionsBefore));
  return details;
}

/**
 * The next revision of a valid PATCH (patchViolations found nothing), or null when it changes
 * nothing. `media` holds each given answer's media ids once its images are stored. An answer given
 * as it is, raising no action, is not written again; an answer left as it is whose flag moved is
 * reflagged in place.
 */
export function planPatch(state: InspectionState, template: TemplateForValidation, input: PatchInput, media: string[][], now: Date): PatchPlan | null {
  const { status, completedAt, patched, removed, finalAnswers } = resolvePatch(state, input, now);
  const outcome = outcomeOf(template, finalAnswers, state.actionsBefore);
  const changes: RevisionChanges = { added: [], changed: [], removed };
  const insert: AnswerWrite[] = [];
  let nextPosition = Math.max(-1, ...[...state.answers.values()].map((a) => a.position)) + 1;
  patched.forEach((a, i) => {
    const values = answerValues(a);
    const before = state.answers.get(a.questionId);
    const unchanged = before && stableJson(before.values) === stableJson(values) && stableJson(before.mediaIds) === stableJson(media[i]);
    if (unchanged && !a.actions?.length) return;
    (before ? changes.changed : changes.added).push(a.questionId);
    insert.push({ values, flagged: outcome.flagged.has(a.questionId), mediaIds: media[i]!, position: before?.position ?? nextPosition++ });
  });
  const statusMoved = status !== state.status;
  const completedAtMoved = completedAt !== undefined && Date.parse(completedAt) !== state.completedAt?.getTime();
  if (statusMoved) changes.status = { from: state.status, to: status };
  const location = input.location === undefined ? undefined : locationValues(input.location);
  const locationMoved = location !== undefined && stableJson(location) !== stableJson(state.location);
  if (!insert.length && !removed.length && !statusMoved && !completedAtMoved && !locationMoved) return null;

  const written = new Set(insert.map((w) => w.values.questionId));
  const reflag = [...state.answers.values()]
    .filter((a) => !written.has(a.values.questionId) && !removed.includes(a.values.questionId) && a.flagged !== outcome.flagged.has(a.values.questionId))
    .map((a) => a.values.questionId);
  const finalCompletedAt = status === "COMPLETED" ? (completedAt !== undefined ? new Date(completedAt) : state.completedAt) : null;
  const changedFields = [
    ...(insert.length || removed.length ? ["answers"] : []),
    ...(statusMoved ? ["status"] : []),
    ...(completedAtMoved ? ["completedAt"] : []),
    ...(locationMoved ? ["location"] : []),
  ];
  return {
    revision: {
      revision: state.revision + 1,
      close: [...changes.changed, ...removed],
      insert,
      reflag,
      actions: raisedActions(patched),
      status,
      completedAt: finalCompletedAt,
      changes,
    },
    inspection: {
      status,
      completedAt: finalCompletedAt,
      score: outcome.score,
      maxScore: outcome.maxScore,
      scorePercentage: outcome.scorePercentage,
      flaggedCount: outcome.flagged.size,
      ...(location !== undefined ? { location } : {}),
    },
    statusMoved,
    changedFields,
  };
}

/** The actions the answers raise, in answer order. */
function raisedActions(answers: { questionId: string; actions?: AnswerActionInputType[] | undefined }[]): RevisionWrites["actions"] {
  return answers.flatMap((a) => (a.actions ?? []).map((input) => ({ questionId: a.questionId, input })));
}
