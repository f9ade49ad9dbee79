import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTemplateForValidation } from "@insp/core";
import { validateLogicGraph, visibleQuestions, type AnswerInput } from "@insp/logic";
import { startStack, type Stack } from "@insp/testing";
import { createTemplate, forkliftBody, responseType, smallBody } from "../fixtures/templates.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const byKey = (detail: any) => {
  const all = [...detail.sections.flatMap((s: any) => s.questions), ...detail.standaloneQuestions];
  return Object.fromEntries(all.filter((q: any) => q.key).map((q: any) => [q.key, q]));
};
const ref = (q: any) => ({ id: q.id, text: q.text, position: q.position });

describe("POST /api/templates then GET /api/templates/{id}", () => {
  it("creates a DRAFT with sections, copied options and a three-level rule chain, and reads it back in the spec's shape", async () => {
    const t = await stack.tenant();
    const res = await stack.http.post("/api/templates", forkliftBody(t), { auth: { bearer: t.apiKey } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Template created as DRAFT", skippedRules: [] });
    const created = res.body.template;
    expect(created).toMatchObject({
      title: "Forklift daily check",
      initialTitle: "Forklift daily check",
      description: "Before the first shift",
      type: "ASSET",
      status: "DRAFT",
      version: 1,
      isActive: true,
      organizationId: t.organization.id,
      assetTypeId: t.assetTypes[0]!.id,
      assetType: { id: t.assetTypes[0]!.id, name: "Forklift" },
      assetTypeMetadata: null,
    });

    const detail = await stack.http.get(`/api/templates/${created.id}`, { auth: { bearer: t.apiKey } });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(created);

    const d = detail.body;
    expect(d.sections.map((s: any) => [s.title, s.position, s.description])).toEqual([
      ["Safety", 0, "Brakes and leaks"],
      ["General", 1, null],
    ]);
    expect(d.sections[0].questions.map((q: any) => [q.key, q.position])).toEqual([
      ["brakes", 0],
      ["brake_issue", 1],
      ["leak_size", 2],
    ]);
    expect(d.standaloneQuestions).toHaveLength(1);
    expect(d.standaloneQuestions[0]).toMatchObject({
      text: "Inspector remarks",
      key: null,
      required: false,
      position: 0,
      responseType: null,
      options: [],
      logicRules: [],
      triggerRule: null,
    });

    const q = byKey(d);
    const yesNo = responseType(t, "SELECT");
    expect(q.brakes.responseType).toEqual({ id: yesNo.id, name: "Yes/No/N/A", inputType: "SELECT", uiLabel: "Yes/No/N/A" });
    expect(q.brakes.required).toBe(true);
    expect(q.leak_size.hint).toBe("Measure the puddle");
    expect(q.brakes.options.map((o: any) => [o.label, o.value, o.position, o.requiresNote, o.requiresPhoto])).toEqual([
      ["Yes", "yes", 0, false, false],
      ["No", "no", 1, true, true],
      ["N/A", "na", 2, false, false],
    ]);
    // Copied with ids of their own.
    const rtOptionIds = yesNo.options.map((o) => o.id);
    for (const o of q.brakes.options) expect(rtOptionIds).not.toContain(o.id);
    expect(q.notes.options).toEqual([]);
    expect(q.colour.responseType).toBeNull();
    expect(q.colour.options.map((o: any) => [o.label, o.value, o.requiresNote])).toEqual([
      ["Red", "red", false],
      ["Blue", "blue", true],
    ]);

    // The chain, seen from both sides.
    const chain = [
      ["brakes", "brake_issue", { type: "equals", value: "no" }, 0],
      ["brake_issue", "leak_size", { type: "is_selected", value: "leak" }, 0],
      ["leak_size", "notes", { type: "greater_than", value: 5 }, 3],
    ] as const;
    for (const [from, to, condition, order] of chain) {
      expect(q[from].logicRules).toHaveLength(1);
      const rule = q[from].logicRules[0];
      expect(rule).toEqual({
        id: expect.any(String),
        order,
        condition,
        actionType: "ask_questions",
        triggeredQuestionId: q[to].id,
        triggeredQuestion: ref(q[to]),
      });
      expect(q[to].triggerRule).toEqual({ id: rule.id, order, condition, questionId: q[from].id, question: ref(q[from]) });
      expect(q[to].triggerRules).toEqual([q[to].triggerRule]);
    }
    expect(q.brakes.triggerRule).toBeNull();
    expect(q.notes.logicRules).toEqual([]);
  });

  it("keeps its own copy of the options when the response type changes later", async () => {
    const t = await stack.tenant();
    const created = await createTemplate(stack, t, forkliftBody(t));
    await stack.db.sql`update response_type_options set label = 'Nope' where response_type_id = ${responseType(t, "SELECT").id} and value = 'no'`;
    const detail = await stack.http.get(`/api/templates/${created.id}`, { auth: { bearer: t.apiKey } });
    expect(byKey(detail.body).brakes.options.map((o: any) => o.label)).toEqual(["Yes", "No", "N/A"]);
  });

  it("rewrites a condition naming a response-type option id to the id of its copy", async () => {
    const t = await stack.tenant();
    const yesNo = responseType(t, "SELECT");
    const naId = yesNo.options.find((o) => o.value === "na")!.id;
    const noId = yesNo.options.find((o) => o.value === "no")!.id;
    const body = smallBody(
      t,
      [
        { key: "a", text: "A?", responseTypeId: yesNo.id },
        { key: "b", text: "B", responseTypeId: responseType(t, "TEXT").id },
        { key: "c", text: "C" },
      ],
      [
        { sourceKey: "a", targetKey: "b", condition: { type: "equals", value: naId } },
        { sourceKey: "a", targetKey: "c", condition: { type: "is_one_of", value: [noId, "yes"] } },
      ],
    );
    const q = byKey(await createTemplate(stack, t, body));
    const copied = (value: string) => q.a.options.find((o: any) => o.value === value).id;
    expect(q.a.logicRules.map((r: any) => r.condition)).toEqual([
      { type: "equals", value: copied("na") },
      { type: "is_one_of", value: [copied("no"), "yes"] },
    ]);
    expect(q.a.logicRules.map((r: any) => r.order)).toEqual([0, 1]);
  });

  it("accepts several rules that show one question (shown when any holds) and lists them all", async () => {
    const t = await stack.tenant();
    const body = smallBody(
      t,
      [
        { key: "a", text: "A?", responseTypeId: responseType(t, "SELECT").id },
        { key: "n", text: "N", responseTypeId: responseType(t, "NUMBER").id },
        { key: "x", text: "X" },
      ],
      [
        { sourceKey: "n", targetKey: "x", condition: { type: "less_than", value: 0 }, order: 2 },
        { sourceKey: "a", targetKey: "x", condition: { type: "equals", value: "no" }, order: 1 },
      ],
    );
    const q = byKey(await createTemplate(stack, t, body));
    expect(q.x.triggerRules.map((r: any) => r.questionId)).toEqual([q.a.id, q.n.id]);
    expect(q.x.triggerRule).toEqual(q.x.triggerRules[0]);
  });

  it("skips a rule whose key matches no question and says so", async () => {
    const t = await stack.tenant();
    const body = smallBody(
      t,
      [
        { key: "a", text: "A" },
        { key: "b", text: "B" },
      ],
      [
        { sourceKey: "a", targetKey: "b", condition: { type: "is_not_empty" } },
        { sourceKey: "x", targetKey: "b", condition: { type: "is_not_empty" } },
      ],
    );
    const res = await stack.http.post("/api/templates", body, { auth: { bearer: t.apiKey } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Template created as DRAFT; 1 logic rule skipped: sourceKey 'x' matches no question key");
    expect(res.body.skippedRules).toEqual(["logicRules[1]: sourceKey 'x' matches no question key"]);
    const q = byKey(res.body.template);
    expect(q.a.logicRules).toHaveLength(1);
    expect(q.b.triggerRules).toHaveLength(1);
  });
});

describe("a template at every size limit", () => {
  it("200 sections, 5000 questions, 20000 options and 5000 rules are written (the options past one statement's 65,535 parameters) and read back", async () => {
    const t = await stack.tenant();
    const options = Array.from({ length: 4 }, (_, i) => ({ label: `Option ${i}`, value: `o${i}` }));
    const sections = Array.from({ length: 200 }, (_, s) => ({
      title: `Section ${s}`,
      questions: Array.from({ length: 25 }, (_, i) => ({ key: `q${s * 25 + i}`, text: `Question ${s * 25 + i}`, options })),
    }));
    // A chain q0 -> q1 -> ... -> q4999, and one more rule from q0 to q4999.
    const logicRules = [
      ...Array.from({ length: 4999 }, (_, i) => ({
        sourceKey: `q${i}`,
        targetKey: `q${i + 1}`,
        condition: { type: "is_one_of", value: ["o1", "o2"] },
        order: i,
      })),
      { sourceKey: "q0", targetKey: "q4999", condition: { type: "equals", value: "o3" }, order: 2_147_483_647 },
    ];
    const res = await stack.http.post("/api/templates", { ...smallBody(t, []), sections, logicRules }, { auth: { bearer: t.apiKey } });
    expect(res.status).toBe(200);
    const id = res.body.template.id as string;
    const [rows] = await stack.db.sql`select
      (select count(*)::int from template_sections where template_id = ${id}) as sections,
      (select count(*)::int from template_questions where template_id = ${id}) as questions,
      (select count(*)::int from template_question_options o join template_questions q on q.id = o.question_id where q.template_id = ${id}) as options,
      (select count(*)::int from template_logic_rules where template_id = ${id}) as rules`;
    expect(rows).toEqual({ sections: 200, questions: 5000, options: 20000, rules: 5000 });
    const detail = await stack.http.get(`/api/templates/${id}`, { auth: { bearer: t.apiKey } });
    expect(detail.status).toBe(200);
    const last = detail.body.sections[199].questions[24];
    expect(last.key).toBe("q4999");
    expect(last.options.map((o: any) => o.value)).toEqual(options.map((o) => o.value));
    expect(last.triggerRules.map((r: any) => r.order)).toEqual([4998, 2_147_483_647]);
    // A limit for hangs, not a timing: about 13 s here beside the suite, over 60 s once on a
    // machine that other work was loading.
  }, 180_000);
});

describe("loadTemplateForValidation (used by inspection import)", () => {
  it("gives the template as the engine's LogicTemplate with option flags, status, type and version; null outside the org", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const created = await createTemplate(stack, t, forkliftBody(t));
    const q = byKey(created);
    const loaded = (await loadTemplateForValidation(stack.db.db, t.organization.id, created.id))!;
    expect(loaded).toMatchObject({
      id: created.id,
      organizationId: t.organization.id,
      title: "Forklift daily check",
      status: "DRAFT",
      type: "ASSET",
      version: 1,
    });
    // Display order: sections by position, then standalone questions.
    expect(loaded.questions.map((x) => x.text)).toEqual([
      "Brakes OK?",
      "What is wrong with the brakes?",
      "Leak size in cm",
      "Notes on the leak",
      "Colour",
      "Inspector remarks",
    ]);
    expect(loaded.questions[0]).toEqual({
      id: q.brakes.id,
      key: "brakes",
      text: "Brakes OK?",
      inputType: "SELECT",
      required: true,
      options: q.brakes.options.map((o: any) => ({
        id: o.id,
        value: o.value,
        label: o.label,
        requiresNote: o.requiresNote,
        requiresPhoto: o.requiresPhoto,
        flagged: false,
      })),
    });
    expect(loaded.questions[5]).toMatchObject({ key: null, inputType: "TEXT", options: [] });
    expect(loaded.rules).toHaveLength(3);
    expect(loaded.rules).toContainEqual({
      id: q.brakes.logicRules[0].id,
      sourceQuestionId: q.brakes.id,
      targetQuestionId: q.brake_issue.id,
      condition: { type: "equals", value: "no" },
      actionType: "ask_questions",
    });
    expect(validateLogicGraph(loaded)).toEqual([]);

    const answers = (...list: AnswerInput[]) => new Map(list.map((a) => [a.questionId, a]));
    const visible = (...list: AnswerInput[]) => [...visibleQuestions(loaded, answers(...list))].sort();
    const always = [q.brakes.id, q.colour.id, created.standaloneQuestions[0].id];
    expect(visible({ questionId: q.brakes.id, answerText: "yes" })).toEqual([...always].sort());
    expect(
      visible(
        { questionId: q.brakes.id, answerText: "no" },
        { questionId: q.brake_issue.id, answerJson: ["leak"] },
        { questionId: q.leak_size.id, answerNumber: 7 },
      ),
    ).toEqual([...always, q.brake_issue.id, q.leak_size.id, q.notes.id].sort());

    expect(await loadTemplateForValidation(stack.db.db, other.organization.id, created.id)).toBeNull();
    expect(await loadTemplateForValidation(stack.db.db, t.organization.id, "not-a-uuid")).toBeNull();
  });
});

describe("GET /api/templates, publish and archive", () => {
  it("answers 200 [] for a new tenant", async () => {
    const t = await stack.tenant();
    const res = await stack.http.get("/api/templates", { auth: { bearer: t.apiKey } });
    expect(res).toMatchObject({ status: 200, body: [] });
  });

  it("lists only PUBLISHED by default; publish moves a template there and the filter follows; archive takes it out", async () => {
    const t = await stack.tenant();
    const a = await createTemplate(stack, t, forkliftBody(t));
    const b = await createTemplate(stack, t, smallBody(t, [{ text: "Q" }], [], { name: "Site audit" }));
    const list = (publishedOnly?: string) =>
      stack.http.get(`/api/templates${publishedOnly ? `?publishedOnly=${publishedOnly}` : ""}`, { auth: { bearer: t.apiKey } }).then((r) => {
        expect(r.status).toBe(200);
        return r.body as any[];
      });

    expect(await list()).toEqual([]);
    expect(await list("true")).toEqual([]);
    const all = await list("false");
    expect(all.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(all[1]).toEqual({
      id: a.id,
      title: "Forklift daily check",
      initialTitle: "Forklift daily check",
      type: "ASSET",
      status: "DRAFT",
      version: 1,
      isActive: true,
      assetTypeId: t.assetTypes[0]!.id,
      assetType: { id: t.assetTypes[0]!.id, name: "Forklift" },
      assetTypeMetadata: null,
      organizationId: t.organization.id,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      draftVersion: 1, // never published: version 1 is the draft
    });
    expect(all[0]).not.toHaveProperty("assetType");
    expect(all[0]).toMatchObject({ type: "AUDIT", assetTypeId: null, assetTypeMetadata: null });

    const published = await stack.http.post(`/api/templates/${a.id}/publish`, undefined, { auth: { bearer: t.apiKey } });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: a.id, status: "PUBLISHED", version: 1, isActive: true });
    expect(published.body.sections).toEqual(a.sections);
    expect((await list()).map((x) => [x.id, x.status])).toEqual([[a.id, "PUBLISHED"]]);
    expect((await list("false")).map((x) => x.status)).toEqual(["DRAFT", "PUBLISHED"]);
    // Publishing again changes nothing.
    expect((await stack.http.post(`/api/templates/${a.id}/publish`, undefined, { auth: { bearer: t.apiKey } })).body.status).toBe("PUBLISHED");

    const archived = await stack.http.post(`/api/templates/${a.id}/archive`, undefined, { auth: { bearer: t.apiKey } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: a.id, status: "ARCHIVED", isActive: false });
    expect(await list()).toEqual([]);
    expect((await list("false")).map((x) => [x.id, x.status, x.isActive])).toEqual([
      [b.id, "DRAFT", true],
      [a.id, "ARCHIVED", false],
    ]);
    const [row] = await stack.db.sql`select published_at is not null as published, archived_at is not null as archived from templates where id = ${a.id}`;
    expect(row).toEqual({ published: true, archived: true });
  });

  it("orders newest first with the id as tie-break", async () => {
    const t = await stack.tenant();
    const ids: string[] = [];
    for (const name of ["one", "two", "three", "four"]) ids.push((await createTemplate(stack, t, smallBody(t, [{ text: "Q" }], [], { name }))).id);
    // Two templates created at the same instant: the larger id comes first.
    await stack.db.sql`update templates set created_at = '2030-01-01T00:00:00Z' where id in ${stack.db.sql([ids[0]!, ids[1]!])}`;
    const res = await stack.http.get("/api/templates?publishedOnly=false", { auth: { bearer: t.apiKey } });
    const tied = [ids[0]!, ids[1]!].sort().reverse();
    expect(res.body.map((x: any) => x.id)).toEqual([...tied, ids[3], ids[2]]);
    const again = await stack.http.get("/api/templates?publishedOnly=false", { auth: { bearer: t.apiKey } });
    expect(again.body).toEqual(res.body);
  });
});
