/**
 * Scores and flags, logic groups and the new comparisons, answer rules (require_note, require_photo,
 * require_action, flag), corrective actions raised by answers, and location with the bbox filter,
 * against the real API and worker processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, until, type Stack } from "@insp/testing";
import { createTemplate, dataUrl, importOk, png, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const rt = (t: DemoSeed, inputType: string) => t.responseTypes.find((r) => r.inputType === inputType)!.id;
const auth = (t: DemoSeed) => ({ auth: { bearer: t.apiKey } });

/**
 * "Press check": guard (ok 2 / damaged 0, flagged / n/a), pressure (NUMBER), valve (yes 1 / no 0),
 * damage_notes (shown when the guard is damaged), bonus (a 0..5 question shown when the guard is
 * damaged AND the pressure is over 3: a group reading two questions), remarks.
 * Answer rules: a damaged guard needs a note on the guard and a corrective action on damage_notes;
 * valve "no" needs a photo; a pressure between 10 and 20 flags the valve answer.
 */
function pressBody(t: DemoSeed, extra: Record<string, unknown> = {}) {
  return {
    createdBy: t.users.admin.id,
    name: "Press check",
    type: "AUDIT",
    sections: [
      {
        title: "Press",
        questions: [
          {
            key: "guard",
            text: "Guard intact?",
            required: true,
            options: [
              { label: "OK", value: "ok", score: 2 },
              { label: "Damaged", value: "damaged", score: 0, flagged: true },
              { label: "Not applicable", value: "na", score: null },
            ],
          },
          { key: "pressure", text: "Pressure (bar)", responseTypeId: rt(t, "NUMBER") },
          {
            key: "valve",
            text: "Relief valve works?",
            options: [
              { label: "Yes", value: "yes", score: 1 },
              { label: "No", value: "no", score: 0 },
            ],
          },
          { key: "damage_notes", text: "What is damaged?", responseTypeId: rt(t, "TEXT") },
          {
            key: "bonus",
            text: "Spare guard on site?",
            options: [
              { label: "Yes", value: "yes", score: 5 },
              { label: "No", value: "no", score: 0 },
            ],
          },
          { key: "remarks", text: "Remarks", responseTypeId: rt(t, "TEXT") },
        ],
      },
    ],
    logicRules: [
      { sourceKey: "guard", targetKey: "damage_notes", condition: { type: "equals", value: "damaged" } },
      {
        sourceKey: "guard",
        targetKey: "bonus",
        condition: {
          all: [
            { type: "equals", value: "damaged" },
            { type: "greater_than", value: 3, sourceKey: "pressure" },
          ],
        },
      },
      { sourceKey: "guard", condition: { type: "equals", value: "damaged" }, actionType: "require_note" },
      { sourceKey: "guard", targetKey: "damage_notes", condition: { type: "equals", value: "damaged" }, actionType: "require_action" },
      { sourceKey: "valve", condition: { type: "equals", value: "no" }, actionType: "require_photo" },
      { sourceKey: "pressure", targetKey: "valve", condition: { type: "between", value: [10, 20] }, actionType: "flag" },
    ],
    ...extra,
  };
}

const ans = (tpl: Tpl, key: string, fields: Record<string, unknown>) => ({ questionId: tpl.q[key]!.id, ...fields });
const choose = (tpl: Tpl, key: string, value: string, fields: Record<string, unknown> = {}) =>
  ans(tpl, key, { responseOptionId: tpl.opt(key, value), ...fields });
const body = (t: DemoSeed, tpl: Tpl, answers: unknown[], extra: Record<string, unknown> = {}) => ({
  templateId: tpl.id,
  conductedBy: t.users.inspector.id,
  siteId: t.sites[0]!.id,
  answers,
  ...extra,
});
const detail = async (t: DemoSeed, id: string) => (await stack.http.get(`/api/inspections/${id}?images=url`, auth(t))).body;

describe("template logic and scoring at save time", () => {
  it("the detail shows option scores and flags, groups and answer rules as saved; a copied version keeps them", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, pressBody(t));
    const res = await stack.http.get(`/api/templates/${tpl.id}`, auth(t));
    const questions = res.body.sections[0].questions;
    const guard = questions.find((q: any) => q.key === "guard");
    expect(guard.options.map((o: any) => [o.value, o.score, o.flagged])).toEqual([
      ["ok", 2, false],
      ["damaged", 0, true],
      ["na", null, false],
    ]);
    expect(questions.find((q: any) => q.key === "remarks").options).toEqual([]);
    expect(guard.logicRules.map((r: any) => [r.actionType, r.triggeredQuestion.text, r.condition])).toEqual([
      ["ask_questions", "What is damaged?", { type: "equals", value: "damaged" }],
      [
        "ask_questions",
        "Spare guard on site?",
        {
          all: [
            { type: "equals", value: "damaged" },
            { type: "greater_than", value: 3, sourceKey: "pressure" },
          ],
        },
      ],
      ["require_note", "Guard intact?", { type: "equals", value: "damaged" }],
      ["require_action", "What is damaged?", { type: "equals", value: "damaged" }],
    ]);
    // Only ask_questions rules show a question: the answer rules are not trigger rules.
    expect(guard.triggerRules).toEqual([]);
    expect(questions.find((q: any) => q.key === "bonus").triggerRules).toHaveLength(1);

    const v2 = await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, auth(t));
    expect(v2.status).toBe(201);
    const copy = (await stack.http.get(`/api/templates/${tpl.id}?version=2`, auth(t))).body.sections[0].questions;
    expect(copy).toEqual(questions);
  });

  it("refuses unknown keys in group leaves, comparisons that do not fit, bounds out of order, cycles through leaves and a missing targetKey", async () => {
    const t = await stack.tenant();
    const refused = async (logicRules: unknown[]) => {
      const res = await stack.http.post("/api/templates", pressBody(t, { logicRules }), auth(t));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Invalid template logic");
      return res.body.details as string[];
    };
    expect(
      await refused([
        {
          sourceKey: "guard",
          targetKey: "bonus",
          condition: {
            any: [
              { type: "equals", value: "ok" },
              { type: "is_empty", sourceKey: "nope" },
            ],
          },
        },
      ]),
    ).toEqual(["Condition in rule from 'guard' to 'bonus': sourceKey 'nope' matches no question key"]);
    expect(await refused([{ sourceKey: "guard", targetKey: "bonus", condition: { type: "contains", value: "x", sourceKey: "pressure" } }])).toEqual([
      "Condition 'contains' cannot be used on NUMBER question 'pressure'",
    ]);
    expect(await refused([{ sourceKey: "pressure", targetKey: "bonus", condition: { type: "between", value: [9, 3] } }])).toEqual([
      "Condition 'between' in rule from 'pressure' to 'bonus': bounds out of order, '9' is above '3'",
    ]);
    expect(
      await refused([
        { sourceKey: "guard", targetKey: "bonus", condition: { all: [{ type: "is_not_empty", sourceKey: "remarks" }] } },
        { sourceKey: "bonus", targetKey: "remarks", condition: { type: "is_not_empty" } },
      ]),
    ).toEqual(["Logic cycle: bonus -> remarks -> bonus"]);
    expect(await refused([{ sourceKey: "guard", condition: { type: "equals", value: "ok" } }])).toEqual([
      "logicRules[0]: targetKey is required for ask_questions rules (the question the rule shows)",
    ]);
    expect(await refused([{ sourceKey: "guard", targetKey: "bonus", condition: { not: [] } }])).toEqual([
      "Condition in rule from 'guard' to 'bonus': a condition must be an object, got []",
    ]);
  });
});

describe("scores, flags and answer rules at import", () => {
  it("scores the visible scored questions: unanswered counts 0 of its maximum, not applicable is left out, hidden questions count for nothing", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, pressBody(t));
    // guard ok 2/2, valve yes 1/1; bonus hidden
    const a = await importOk(stack, t, body(t, tpl, [choose(tpl, "guard", "ok"), choose(tpl, "valve", "yes")]));
    expect(await detail(t, a.id)).toMatchObject({ score: 3, maxScore: 3, scorePercentage: 100, flaggedCount: 0 });
    // guard n/a: out of both; valve unanswered: 0 of 1
    const b = await importOk(stack, t, body(t, tpl, [choose(tpl, "guard", "na")]));
    expect(await detail(t, b.id)).toMatchObject({ score: 0, maxScore: 1, scorePercentage: 0, flaggedCount: 0 });
    // guard damaged (0/2, flagged, note, action), pressure 12 (flags the valve), valve yes 1/1, bonus shown by the group: yes 5/5
    const c = await importOk(
      stack,
      t,
      body(t, tpl, [
        choose(tpl, "guard", "damaged", { note: "cracked" }),
        ans(tpl, "pressure", { answerNumber: 12 }),
        choose(tpl, "valve", "yes"),
        ans(tpl, "damage_notes", {
          answerText: "left panel",
          actions: [{ title: "Replace the guard", priority: "HIGH", assigneeId: t.users.inspector.id, dueAt: "2030-01-01T00:00:00Z" }],
        }),
        choose(tpl, "bonus", "yes"),
      ]),
    );
    const d = await detail(t, c.id);
    expect(d).toMatchObject({ score: 6, maxScore: 8, scorePercentage: 75, flaggedCount: 2 });
    expect(Object.fromEntries(d.answers.map((x: any) => [x.question.text, x.flagged]))).toEqual({
      "Guard intact?": true,
      "Pressure (bar)": false,
      "Relief valve works?": true,
      "What is damaged?": false,
      "Spare guard on site?": false,
    });
    // The action was created with the inspection and is listed on its answer and in /api/actions.
    const notes = d.answers.find((x: any) => x.question.text === "What is damaged?");
    expect(notes.actions).toMatchObject([
      {
        title: "Replace the guard",
        priority: "HIGH",
        status: "OPEN",
        inspectionId: c.id,
        questionId: tpl.q.damage_notes!.id,
        assigneeId: t.users.inspector.id,
      },
    ]);
    const listed = await stack.http.get(`/api/actions?inspectionId=${c.id}`, auth(t));
    expect(listed.body.actions.map((x: any) => x.id)).toEqual([notes.actions[0].id]);
    // An action falling overdue (no change of its own) is a new representation of the detail.
    const etag = (await stack.http.get(`/api/inspections/${c.id}`, auth(t))).headers.get("etag")!;
    expect((await stack.http.get(`/api/inspections/${c.id}`, { ...auth(t), headers: { "if-none-match": etag } })).status).toBe(304);
    await stack.db.sql`update corrective_actions set due_at = now() - interval '1 minute' where id = ${notes.actions[0].id}`;
    const stale = await stack.http.get(`/api/inspections/${c.id}?images=url`, { ...auth(t), headers: { "if-none-match": etag.replace(/"$/, '.url"') } });
    expect(stale.status).toBe(200);
    expect(stale.body.answers.find((x: any) => x.question.text === "What is damaged?").actions[0].overdue).toBe(true);
    // Summaries carry the score too: the list, and the feed webhooks are built from.
    const list = await stack.http.get(`/api/inspections?limit=10`, auth(t));
    expect(list.body.inspections.find((i: any) => i.id === c.id)).toMatchObject({
      score: 6,
      maxScore: 8,
      scorePercentage: 75,
      flaggedCount: 2,
      location: null,
    });
    // A change appears in a feed once every transaction older than it has ended, on the whole server: polled.
    const feed = await until(
      "the import in the feed",
      async () => (await stack.http.get(`/api/feed/inspections?limit=100`, auth(t))).body,
      (b) => b.items.some((i: any) => i.id === c.id),
    );
    expect(feed.items.find((i: any) => i.id === c.id).resource).toMatchObject({ score: 6, scorePercentage: 75, flaggedCount: 2 });
  });

  it("a completed inspection owes the notes, photos and actions its answer rules ask for: one detail each; IN_PROGRESS owes them at the PATCH that completes it", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, pressBody(t));
    const answers = [choose(tpl, "guard", "damaged"), choose(tpl, "valve", "no"), ans(tpl, "damage_notes", { answerText: "panel" })];
    const res = await stack.http.post("/api/inspections", body(t, tpl, answers), auth(t));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Inspection validation failed",
      details: [
        "Answer to 'Relief valve works?' requires a photo (a logic rule on 'Relief valve works?' holds)",
        "Answer to 'Guard intact?' requires a note (a logic rule on 'Guard intact?' holds)",
        "Answer to 'What is damaged?' requires a corrective action (a logic rule on 'Guard intact?' holds)",
      ],
    });
    const other = await stack.tenant();
    const foreign = await stack.http.post(
      "/api/inspections",
      body(t, tpl, [choose(tpl, "guard", "ok"), ans(tpl, "remarks", { answerText: "x", actions: [{ title: "Fix", assigneeId: other.users.inspector.id }] })]),
      auth(t),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual([`Answer to 'Remarks': actions[0]: assigneeId '${other.users.inspector.id}' is not a user of this organization`]);

    const draft = await importOk(stack, t, body(t, tpl, answers, { status: "IN_PROGRESS" }));
    let etag = (await stack.http.get(`/api/inspections/${draft.id}`, auth(t))).headers.get("etag")!;
    const complete = await stack.http.patch(`/api/inspections/${draft.id}`, { status: "COMPLETED" }, { ...auth(t), headers: { "if-match": etag } });
    expect(complete.status).toBe(400);
    expect(complete.body.details).toHaveLength(3);
    const fixed = await stack.http.patch(
      `/api/inspections/${draft.id}`,
      {
        status: "COMPLETED",
        answers: [
          choose(tpl, "guard", "damaged", { note: "bent" }),
          choose(tpl, "valve", "no", { media: [dataUrl("image/png", png(2, 2))] }),
          ans(tpl, "damage_notes", { answerText: "panel", actions: [{ title: "Order a new guard" }] }),
        ],
      },
      { ...auth(t), headers: { "if-match": etag } },
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ status: "COMPLETED", score: 0, maxScore: 3, flaggedCount: 1 });
    etag = fixed.headers.get("etag")!;
    // The action is kept: a later correction need not raise it again.
    const again = await stack.http.patch(
      `/api/inspections/${draft.id}`,
      { answers: [ans(tpl, "remarks", { answerText: "checked twice" })] },
      { ...auth(t), headers: { "if-match": etag } },
    );
    expect(again.status).toBe(200);
  });

  it("a PATCH recomputes score and flags, also of answers it leaves alone (a flag rule reads another question)", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, pressBody(t));
    const { id } = await importOk(stack, t, body(t, tpl, [choose(tpl, "guard", "ok"), choose(tpl, "valve", "yes"), ans(tpl, "pressure", { answerNumber: 5 })]));
    expect(await detail(t, id)).toMatchObject({ score: 3, flaggedCount: 0 });
    const etag = (await stack.http.get(`/api/inspections/${id}`, auth(t))).headers.get("etag")!;
    const res = await stack.http.patch(
      `/api/inspections/${id}?images=url`,
      { answers: [ans(tpl, "pressure", { answerNumber: 15 })] },
      { ...auth(t), headers: { "if-match": etag } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ score: 3, flaggedCount: 1 });
    expect(res.body.answers.find((a: any) => a.questionId === tpl.q.valve!.id).flagged).toBe(true);
    const flagged = await stack.http.get(`/api/inspections?flagged=true`, auth(t));
    expect(flagged.body.inspections.map((i: any) => i.id)).toEqual([id]);
    // The whole form sent again, the valve unchanged: its flag still follows the pressure.
    const back = await stack.http.patch(
      `/api/inspections/${id}?images=url`,
      { answers: [choose(tpl, "guard", "ok"), choose(tpl, "valve", "yes"), ans(tpl, "pressure", { answerNumber: 5 })] },
      { ...auth(t), headers: { "if-match": res.headers.get("etag")! } },
    );
    expect(back.body.flaggedCount).toBe(0);
    expect(back.body.answers.find((a: any) => a.questionId === tpl.q.valve!.id).flagged).toBe(false);
  });
});

describe("list filters: flagged, score range, location and bbox", () => {
  it("filters by flagged, scorePercentage and bbox (antimeridian too), with totals; bad values are 400s", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, pressBody(t));
    const make = async (guard: string, valve: string, location: unknown, extra: unknown[] = []) =>
      (
        await importOk(
          stack,
          t,
          body(t, tpl, [choose(tpl, "guard", guard, guard === "damaged" ? { note: "n" } : {}), choose(tpl, "valve", valve), ...extra], {
            location,
            status: guard === "damaged" || valve === "no" ? "IN_PROGRESS" : "COMPLETED",
          }),
        )
      ).id;
    const berlin = await make("ok", "yes", { latitude: 52.52, longitude: 13.4, accuracyMeters: 8 }); // 100 %
    const fiji = await make("ok", "no", { latitude: -17.7, longitude: 178.0 }); // 67 %
    const nowhere = await make("damaged", "yes", null); // 33 %, flagged
    const ids = async (query: string) => {
      const res = await stack.http.get(`/api/inspections?${query}`, auth(t));
      expect(res.status, res.text).toBe(200);
      return { ids: res.body.inspections.map((i: any) => i.id).sort(), total: res.body.pagination.total };
    };
    expect(await ids("flagged=true")).toEqual({ ids: [nowhere], total: 1 });
    expect(await ids("flagged=false")).toEqual({ ids: [berlin, fiji].sort(), total: 2 });
    expect(await ids("minScorePercentage=50")).toEqual({ ids: [berlin, fiji].sort(), total: 2 });
    expect(await ids("minScorePercentage=50&maxScorePercentage=70")).toEqual({ ids: [fiji], total: 1 });
    expect(await ids("maxScorePercentage=33.33")).toEqual({ ids: [nowhere], total: 1 });
    expect(await ids("bbox=13,52,14,53")).toEqual({ ids: [berlin], total: 1 });
    expect(await ids("bbox=170,-20,-170,-10")).toEqual({ ids: [fiji], total: 1 });
    expect(await ids("bbox=-10,-90,10,90")).toEqual({ ids: [], total: 0 });
    expect((await stack.http.get(`/api/inspections/${berlin}`, auth(t))).body.location).toEqual({ latitude: 52.52, longitude: 13.4, accuracyMeters: 8 });

    for (const [query, message] of [
      ["bbox=1,2,3", "bbox must be four numbers: minLon,minLat,maxLon,maxLat"],
      ["bbox=0,10,1,5", "bbox minLat must not be above maxLat"],
      ["bbox=0,0,181,1", "bbox longitudes must be between -180 and 180 and latitudes between -90 and 90"],
      ["flagged=yes", "flagged must be true or false"],
      ["minScorePercentage=abc", "minScorePercentage must be a number"],
    ]) {
      const res = await stack.http.get(`/api/inspections?${query}`, auth(t));
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body.details ?? res.body.error)).toContain(message);
    }
    for (const location of [
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -180.5 },
      { latitude: 0, longitude: 0, accuracyMeters: -1 },
      { latitude: "52", longitude: 13 },
      { longitude: 13 },
    ]) {
      const res = await stack.http.post("/api/inspections", body(t, tpl, [choose(tpl, "guard", "ok")], { location }), auth(t));
      expect(res.status, JSON.stringify(location)).toBe(400);
    }
    // PATCH moves and removes it.
    let etag = (await stack.http.get(`/api/inspections/${berlin}`, auth(t))).headers.get("etag")!;
    const moved = await stack.http.patch(
      `/api/inspections/${berlin}`,
      { location: { latitude: 48.85, longitude: 2.35 } },
      { ...auth(t), headers: { "if-match": etag } },
    );
    expect(moved.body).toMatchObject({ revision: 2, location: { latitude: 48.85, longitude: 2.35 } });
    etag = moved.headers.get("etag")!;
    const removed = await stack.http.patch(`/api/inspections/${berlin}`, { location: null }, { ...auth(t), headers: { "if-match": etag } });
    expect(removed.body).toMatchObject({ revision: 3, location: null });
  });
});
