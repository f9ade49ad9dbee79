import { describe, expect, it } from "vitest";
import { answerValues, patchViolations, planImport, planPatch, type InspectionState, type PatchInput, type StoredAnswer } from "../src/inspections/plan.ts";
import type { ImportPayload } from "../src/inspections/payload.ts";
import type { TemplateForValidation } from "../src/templates/index.ts";

// The writes of the import's first revision and of a PATCH's next one, decided without I/O
// (run.ts and patch.ts apply them with writeRevision).

const POWERED = "q-powered";
const REMARKS = "q-remarks";
const READING = "q-reading";
const option = (id: string, value: string, extra: { score?: number; flagged?: boolean } = {}) => ({
  id,
  value,
  label: value,
  requiresNote: false,
  requiresPhoto: false,
  ...extra,
});

/** Powered? (scored, "no" flags it), Remarks (flagged by a rule when Powered? is "no"), Reading (required). */
const template: TemplateForValidation = {
  id: "t1",
  organizationId: "org",
  title: "Pump check",
  status: "PUBLISHED",
  type: "ASSET",
  version: 1,
  questions: [
    {
      id: POWERED,
      key: "powered",
      text: "Powered?",
      inputType: "SELECT",
      required: false,
      options: [option("o-yes", "yes", { score: 1 }), option("o-no", "no", { score: 0, flagged: true })],
    },
    { id: REMARKS, key: "remarks", text: "Remarks", inputType: "TEXT", required: false, options: [] },
    { id: READING, key: "reading", text: "Reading", inputType: "NUMBER", required: true, options: [] },
  ],
  rules: [{ id: "r1", sourceQuestionId: POWERED, targetQuestionId: REMARKS, condition: { type: "equals", value: "no" }, actionType: "flag" }],
};

const stored = (questionId: string, fields: object, position: number, extra: Partial<StoredAnswer> = {}): [string, StoredAnswer] => [
  questionId,
  { values: answerValues({ questionId, ...fields }), mediaIds: [], position, flagged: false, ...extra },
];

const STARTED = new Date("2026-03-01T08:00:00Z");
const NOW = new Date("2026-03-02T12:00:00Z");

/** An IN_PROGRESS inspection at revision 3: Powered? yes (position 0), Remarks with one image (position 2). */
const state = (over: Partial<InspectionState> = {}): InspectionState => ({
  status: "IN_PROGRESS",
  revision: 3,
  startedAt: STARTED,
  completedAt: null,
  location: { latitude: 1, longitude: 2, accuracyMeters: null },
  answers: new Map([stored(POWERED, { responseOptionId: "yes" }, 0), stored(REMARKS, { answerText: "ok" }, 2, { mediaIds: ["m1"] })]),
  actionsBefore: new Map(),
  ...over,
});

const completed = (over: Partial<InspectionState> = {}) =>
  state({
    status: "COMPLETED",
    completedAt: new Date("2026-03-01T09:00:00Z"),
    answers: new Map([...state().answers, stored(READING, { answerNumber: 4 }, 3)]),
    ...over,
  });

describe("planImport", () => {
  const payload: ImportPayload = {
    v: 1,
    templateId: "t1",
    templateVersion: 2,
    conductedBy: "u1",
    siteId: null,
    assetId: "a1",
    assetName: "Pump 7",
    status: "COMPLETED",
    startedAt: "2026-03-01T08:00:00.000Z",
    completedAt: "2026-03-01T09:00:00.000Z",
    answers: [
      { ...answerValues({ questionId: POWERED, responseOptionId: "no" }), mediaIds: [], flagged: true, actions: [{ title: "Fix the pump" }] },
      { ...answerValues({ questionId: REMARKS, answerText: "sparks" }), mediaIds: ["m1", "m2"] },
    ],
    score: 0,
    maxScore: 1,
    scorePercentage: 0,
    flaggedCount: 1,
    location: { latitude: 1, longitude: 2, accuracyMeters: 5 },
  };

  it("writes revision 1: every answer in order with its flag and images, the actions raised, all answers added", () => {
    const plan = planImport(payload);
    expect(plan.inspection).toMatchObject({
      templateVersion: 2,
      assetName: "Pump 7",
      status: "COMPLETED",
      score: 0,
      maxScore: 1,
      flaggedCount: 1,
      latitude: 1,
      longitude: 2,
      locationAccuracyMeters: 5,
    });
    expect([plan.inspection.startedAt, plan.inspection.completedAt]).toEqual([new Date(payload.startedAt), new Date(payload.completedAt!)]);
    expect(plan.revision.insert.map((a) => [a.values.questionId, a.position, a.flagged, a.mediaIds])).toEqual([
      [POWERED, 0, true, []],
      [REMARKS, 1, false, ["m1", "m2"]],
    ]);
    expect(plan.revision).toMatchObject({ revision: 1, close: [], reflag: [], status: "COMPLETED", completedAt: new Date(payload.completedAt!) });
    expect(plan.revision.actions).toEqual([{ questionId: POWERED, input: { title: "Fix the pump" } }]);
    expect(plan.revision.changes).toEqual({ added: [POWERED, REMARKS], changed: [], removed: [] });
  });

  it("reads a payload queued before scores, locations and flags existed as 0, null and unflagged", () => {
    const { score: _s, maxScore: _m, scorePercentage: _p, flaggedCount: _f, location: _l, ...old } = payload;
    const plan = planImport({ ...old, status: "IN_PROGRESS", completedAt: null, answers: [{ ...payload.answers[1]!, flagged: undefined }] });
    expect(plan.inspection).toMatchObject({
      score: 0,
      maxScore: 0,
      scorePercentage: null,
      flaggedCount: 0,
      latitude: null,
      longitude: null,
      locationAccuracyMeters: null,
      completedAt: null,
    });
    expect(plan.revision.insert[0]!.flagged).toBe(false);
    expect(plan.revision.completedAt).toBeNull();
  });
});

describe("patchViolations", () => {
  it.each<[string, InspectionState, PatchInput, string[]]>([
    ["a valid change", state(), { answers: [{ questionId: REMARKS, answerText: "fine" }] }, []],
    [
      "completedAt while it stays IN_PROGRESS",
      state(),
      { completedAt: "2026-03-01T09:00:00Z" },
      ["completedAt must not be given for an IN_PROGRESS inspection"],
    ],
    ["completedAt before startedAt", completed(), { completedAt: "2026-03-01T07:00:00Z" }, ["completedAt is before startedAt"]],
    [
      "an answer removed that is not there, named by its question's text",
      state(),
      { removeAnswers: [READING, READING] },
      ["removeAnswers: question 'Reading' has no answer to remove"],
    ],
    ["an unknown question removed, named by its id", state(), { removeAnswers: ["q-ghost"] }, ["removeAnswers: question 'q-ghost' has no answer to remove"]],
    [
      "an answer removed and given at once",
      state(),
      { removeAnswers: [REMARKS], answers: [{ questionId: REMARKS, answerText: "x" }] },
      ["removeAnswers: question 'Remarks' is also answered in this request"],
    ],
    ["completing without a required answer", state(), { status: "COMPLETED" }, ["Required question 'Reading' is not answered"]],
    ["removing a required answer of a COMPLETED inspection", completed(), { removeAnswers: [READING] }, ["Required question 'Reading' is not answered"]],
  ])("%s", (_name, s, input, details) => {
    expect(patchViolations(s, template, input, NOW)).toEqual(details);
  });
});

type Summary = {
  close?: string[];
  insert?: [string, number, boolean][];
  reflag?: string[];
  changes?: object;
  changedFields?: string[];
  statusMoved?: boolean;
  inspection?: object;
  actions?: number;
};

/** The plan's parts a case names; the others are not compared. */
function summary(plan: ReturnType<typeof planPatch>, keys: (keyof Summary)[]): Summary | null {
  if (!plan) return null;
  const all: Required<Summary> = {
    close: plan.revision.close,
    insert: plan.revision.insert.map((a) => [a.values.questionId, a.position, a.flagged]),
    reflag: plan.revision.reflag,
    changes: plan.revision.changes,
    changedFields: plan.changedFields,
    statusMoved: plan.statusMoved,
    inspection: plan.inspection,
    actions: plan.revision.actions.length,
  };
  return Object.fromEntries(keys.map((k) => [k, all[k]]));
}

describe("planPatch", () => {
  const same = { answers: [{ questionId: POWERED, responseOptionId: "yes" }] };
  it.each<[string, InspectionState, PatchInput, string[][], Summary | null]>([
    ["an answer given as it is: no revision", state(), same, [[]], null],
    ["a location given as it is: no revision", state(), { location: { latitude: 1, longitude: 2 } }, [], null],
    ["a completedAt given as it is: no revision", completed(), { completedAt: "2026-03-01T09:00:00.000Z" }, [], null],
    [
      "an answer given as it is that raises an action: written again",
      state(),
      { answers: [{ ...same.answers[0]!, actions: [{ title: "Check" }] }] },
      [[]],
      { close: [POWERED], insert: [[POWERED, 0, false]], changes: { added: [], changed: [POWERED], removed: [] }, actions: 1, changedFields: ["answers"] },
    ],
    [
      "an answer changed keeps its position; the answer a flag rule reads is reflagged in place",
      state(),
      { answers: [{ questionId: POWERED, responseOptionId: "no" }] },
      [[]],
      {
        close: [POWERED],
        insert: [[POWERED, 0, true]],
        reflag: [REMARKS],
        changes: { added: [], changed: [POWERED], removed: [] },
        inspection: { status: "IN_PROGRESS", completedAt: null, score: 0, maxScore: 1, scorePercentage: 0, flaggedCount: 2 },
      },
    ],
    [
      "an answer's images changed",
      state(),
      { answers: [{ questionId: REMARKS, answerText: "ok" }] },
      [["m2"]],
      { close: [REMARKS], insert: [[REMARKS, 2, false]] },
    ],
    [
      "a new answer goes after the last; a removed one is closed",
      state(),
      { answers: [{ questionId: READING, answerNumber: 7 }], removeAnswers: [REMARKS] },
      [[]],
      {
        close: [REMARKS],
        insert: [[READING, 3, false]],
        reflag: [],
        changes: { added: [READING], changed: [], removed: [REMARKS] },
        changedFields: ["answers"],
      },
    ],
    [
      "completing without completedAt completes it now",
      state(),
      { status: "COMPLETED", answers: [{ questionId: READING, answerNumber: 7 }] },
      [[]],
      {
        changes: { added: [READING], changed: [], removed: [], status: { from: "IN_PROGRESS", to: "COMPLETED" } },
        changedFields: ["answers", "status", "completedAt"],
        statusMoved: true,
        inspection: { status: "COMPLETED", completedAt: NOW, score: 1, maxScore: 1, scorePercentage: 100, flaggedCount: 0 },
      },
    ],
    [
      "a COMPLETED inspection's completedAt corrected",
      completed(),
      { completedAt: "2026-03-01T10:00:00Z" },
      [],
      { close: [], insert: [], changes: { added: [], changed: [], removed: [] }, changedFields: ["completedAt"], statusMoved: false },
    ],
    [
      "a correction of a COMPLETED inspection keeps its completedAt",
      completed(),
      { answers: [{ questionId: REMARKS, answerText: "later" }] },
      [["m1"]],
      {
        changedFields: ["answers"],
        inspection: { status: "COMPLETED", completedAt: new Date("2026-03-01T09:00:00Z"), score: 1, maxScore: 1, scorePercentage: 100, flaggedCount: 0 },
      },
    ],
    [
      "a location removed",
      state(),
      { location: null },
      [],
      {
        changedFields: ["location"],
        inspection: { status: "IN_PROGRESS", completedAt: null, score: 1, maxScore: 1, scorePercentage: 100, flaggedCount: 0, location: null },
      },
    ],
  ])("%s", (_name, s, input, media, expected) => {
    const plan = planPatch(s, template, input, media, NOW);
    expect(summary(plan, Object.keys(expected ?? {}) as (keyof Summary)[])).toEqual(expected);
  });

  it("writes the next revision with the status and completedAt it ends with, and the new answers' images", () => {
    const plan = planPatch(
      state(),
      template,
      { status: "COMPLETED", completedAt: "2026-03-01T11:00:00Z", answers: [{ questionId: READING, answerNumber: 7, note: "n" }] },
      [["m3", "m4"]],
      NOW,
    )!;
    expect(plan.revision).toMatchObject({ revision: 4, status: "COMPLETED", completedAt: new Date("2026-03-01T11:00:00Z") });
    expect(plan.revision.insert).toEqual([
      { values: answerValues({ questionId: READING, answerNumber: 7, note: "n" }), flagged: false, position: 3, mediaIds: ["m3", "m4"] },
    ]);
  });

  it("counts actions raised before for require_action: an answer kept that needs one stays valid", () => {
    const needsAction: TemplateForValidation = {
      ...template,
      rules: [{ id: "r2", sourceQuestionId: POWERED, targetQuestionId: POWERED, condition: { type: "equals", value: "yes" }, actionType: "require_action" }],
    };
    const input: PatchInput = { status: "COMPLETED", answers: [{ questionId: READING, answerNumber: 7 }] };
    expect(patchViolations(state(), needsAction, input, NOW)).toHaveLength(1);
    expect(patchViolations(state({ actionsBefore: new Map([[POWERED, 1]]) }), needsAction, input, NOW)).toEqual([]);
  });
});
