import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, until, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

type Q = { id: string; key: string | null; text: string; required: boolean; options: { id: string; value: string }[] };
const questionsOf = (detail: { sections: { questions: Q[] }[]; standaloneQuestions: Q[] }): Q[] => [
  ...detail.sections.flatMap((s) => s.questions),
  ...detail.standaloneQuestions,
];
const byKey = (detail: Parameters<typeof questionsOf>[0]) => Object.fromEntries(questionsOf(detail).map((q) => [q.key, q]));
/** A create body to edit freely. */
type Body = { sections: { title: string; questions: Record<string, unknown>[] }[] } & Record<string, unknown>;
const editable = (body: unknown) => body as Body;

/** A published "Plant audit" (version 1) of tenant `t`. */
async function published(t: DemoSeed) {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const detail = (await stack.http.get(`/api/templates/${tpl.id}`, { auth: { bearer: t.apiKey } })).body;
  return { tpl, detail };
}

describe("template versions", () => {
  it("a copy without a body is version 2, a DRAFT with every id kept; publishing makes it current and supersedes version 1", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const { tpl, detail: v1 } = await published(t);
    expect(v1).toMatchObject({ version: 1, status: "PUBLISHED", versionStatus: "PUBLISHED", currentVersion: 1, draftVersion: null });

    const made = await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ success: true, message: "Version 2 created as DRAFT", skippedRules: [] });
    const v2 = made.body.template;
    expect(v2).toMatchObject({ id: tpl.id, version: 2, status: "PUBLISHED", versionStatus: "DRAFT", currentVersion: 1, draftVersion: 2 });
    // A copy: the same sections, questions, options and rules, ids and all.
    const strip = (d: typeof v1) => ({ sections: d.sections, standaloneQuestions: d.standaloneQuestions });
    expect(strip(v2)).toEqual(strip(v1));

    // Until it is published, the list and the detail still show version 1.
    expect((await stack.http.get(`/api/templates/${tpl.id}`, { auth })).body).toMatchObject({ version: 1, draftVersion: 2 });
    expect((await stack.http.get("/api/templates", { auth })).body.find((x: { id: string }) => x.id === tpl.id).version).toBe(1);
    // One draft at a time.
    const second = await stack.http.post(`/api/templates/${tpl.id}/versions`, {}, { auth });
    expect(second).toMatchObject({ status: 409, body: { error: "Template already has a draft (version 2); publish it before creating another version" } });

    const pub = await stack.http.post(`/api/templates/${tpl.id}/publish`, {}, { auth });
    expect(pub.body).toMatchObject({ version: 2, status: "PUBLISHED", versionStatus: "PUBLISHED", currentVersion: 2, draftVersion: null });
    expect((await stack.http.get("/api/templates", { auth })).body.find((x: { id: string }) => x.id === tpl.id).version).toBe(2);
    const old = await stack.http.get(`/api/templates/${tpl.id}?version=1`, { auth });
    expect(old.body).toMatchObject({ version: 1, versionStatus: "SUPERSEDED", currentVersion: 2 });
    expect(strip(old.body)).toEqual(strip(v1));

    const versions = await stack.http.get(`/api/templates/${tpl.id}/versions`, { auth });
    expect(versions.status).toBe(200);
    const [first, latest] = versions.body.versions;
    expect(versions.body.versions).toHaveLength(2);
    expect(first).toMatchObject({
      version: 1,
      status: "SUPERSEDED",
      title: "Plant audit",
      createdBy: t.users.admin.id,
      publishedAt: expect.any(String),
      supersededAt: expect.any(String),
    });
    expect(latest).toMatchObject({ version: 2, status: "PUBLISHED", title: "Plant audit", createdBy: null, supersededAt: null });
    expect(latest.publishedAt).toBe(first.supersededAt); // one transaction
  });

  it("a version from a body keeps the ids of questions with the same key, options with the same value and sections with the same title", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const { tpl, detail: v1 } = await published(t);
    const before = byKey(v1);
    const body = editable(auditTemplateBody(t, { name: "Plant audit (2027)" }));
    body.sections[0]!.questions[0] = {
      key: "brakes",
      text: "Are the brakes OK?",
      required: true,
      options: [
        { label: "Yes", value: "yes" },
        { label: "No", value: "no" },
        { label: "Unsure", value: "unsure" },
      ],
    };
    body.sections[1]!.questions = [
      { key: "noise", text: "Any noise?" },
      { text: "Keyless note" },
      ...body.sections[1]!.questions.filter((q) => q.key !== "powered"),
    ];
    body.sections.push({ title: "New section", questions: [] });
    const made = await stack.http.post(`/api/templates/${tpl.id}/versions`, body, { auth });
    expect(made.status).toBe(201);
    const v2 = made.body.template;
    expect(v2).toMatchObject({ version: 2, title: "Plant audit (2027)", versionStatus: "DRAFT" });
    const after = byKey(v2);
    // Kept by key, whatever else changed (text, options).
    expect(after.brakes!.id).toBe(before.brakes!.id);
    expect(after.brakes!.text).toBe("Are the brakes OK?");
    expect(after.remarks!.id).toBe(before.remarks!.id);
    // Options with the same value keep their id; a new value gets a new one.
    const opt = (q: Q, v: string) => q.options.find((o) => o.value === v)!.id;
    expect(opt(after.brakes!, "yes")).toBe(opt(before.brakes!, "yes"));
    expect(opt(after.brakes!, "no")).toBe(opt(before.brakes!, "no"));
    expect(questionsOf(v1).flatMap((q) => q.options.map((o) => o.id))).not.toContain(opt(after.brakes!, "unsure"));
    // New keys and keyless questions get new ids; a removed key is gone.
    const oldIds = new Set(questionsOf(v1).map((q) => q.id));
    expect(oldIds.has(after.noise!.id)).toBe(false);
    expect(oldIds.has(questionsOf(v2).find((q) => q.key === null)!.id)).toBe(false);
    expect(after.powered).toBeUndefined();
    // Sections: same title, same id; a new title, a new id.
    expect(v2.sections.map((s: { id: string }) => s.id).slice(0, 2)).toEqual(v1.sections.map((s: { id: string }) => s.id));
    expect(v1.sections.map((s: { id: string }) => s.id)).not.toContain(v2.sections[2].id);
    // Rules are re-made from the body: they point at the kept questions.
    expect(after.brake_issue!.id).toBe(before.brake_issue!.id);
    expect((after.brake_issue as unknown as { triggerRule: { questionId: string } }).triggerRule.questionId).toBe(before.brakes!.id);

    // Version 1 is unchanged and still the current one.
    const current = await stack.http.get(`/api/templates/${tpl.id}`, { auth });
    expect(current.body).toMatchObject({ version: 1, title: "Plant audit", draftVersion: 2 });
    expect(byKey(current.body).brakes!.text).toBe("Brakes OK?");
  });

  it("an inspection keeps the version it was made with: rendered and validated against it, while new imports use the current one", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const { tpl } = await published(t);
    // Made with version 1 as an IN_PROGRESS draft.
    const { id } = await importOk(stack, t, importBody(t, tpl, { status: "IN_PROGRESS", answers: [{ questionId: tpl.q.remarks!.id, answerText: "started" }] }));

    // Version 2: remarks reworded, a new required question.
    const body = editable(auditTemplateBody(t));
    body.sections[1]!.questions = body.sections[1]!.questions.map((q) => (q.key === "remarks" ? { ...q, text: "Remarks (new wording)" } : q));
    body.sections[1]!.questions.push({ key: "signature", text: "Signed by", required: true });
    expect((await stack.http.post(`/api/templates/${tpl.id}/versions`, body, { auth })).status).toBe(201);
    expect((await stack.http.post(`/api/templates/${tpl.id}/publish`, {}, { auth })).body.version).toBe(2);

    const detail = await stack.http.get(`/api/inspections/${id}`, { auth });
    expect(detail.body).toMatchObject({ templateVersion: 1, template: { title: "Plant audit" } });
    expect(detail.body.answers[0].question).toEqual({ id: tpl.q.remarks!.id, text: "Remarks" });

    // Completing it checks version 1's required questions (brakes), not version 2's (signature).
    const etag = detail.headers.get("etag")!;
    const done = await stack.http.patch(
      `/api/inspections/${id}`,
      { status: "COMPLETED", answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") }] },
      { auth, headers: { "if-match": etag } },
    );
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "COMPLETED", templateVersion: 1, revision: 2 });

    // A new import uses version 2: its required signature must be answered.
    const v2 = byKey((await stack.http.get(`/api/templates/${tpl.id}`, { auth })).body);
    const missing = await stack.http.post("/api/inspections", importBody(t, tpl), { auth });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual(["Required question 'Signed by' is not answered"]);
    const made = await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: v2.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: v2.signature!.id, answerText: "A. Inspector" },
        ],
      }),
    );
    const d2 = await stack.http.get(`/api/inspections/${made.id}`, { auth });
    expect(d2.body).toMatchObject({ templateVersion: 2 });
    expect(d2.body.answers.map((a: { question: { text: string } }) => a.question.text)).toEqual(["Brakes OK?", "Signed by"]);
  });

  it("refuses what cannot be versioned: a template still in draft, an archived one, unknown versions, bad bodies and non-admin users", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const draft = await createTemplate(stack, t, auditTemplateBody(t), false);
    expect(await stack.http.post(`/api/templates/${draft.id}/versions`, undefined, { auth })).toMatchObject({
      status: 409,
      body: { error: "Template already has a draft (version 1); publish it before creating another version" },
    });
    const { tpl } = await published(t);
    expect(await stack.http.get(`/api/templates/${tpl.id}?version=7`, { auth })).toMatchObject({
      status: 404,
      body: { error: "Template version 7 not found" },
    });
    expect(await stack.http.get(`/api/templates/${tpl.id}?version=0`, { auth })).toMatchObject({
      status: 400,
      body: { details: ["version: version must be at least 1"] },
    });
    expect(await stack.http.get(`/api/templates/${tpl.id}?version=two`, { auth })).toMatchObject({
      status: 400,
      body: { details: ["version: version must be a whole number of 0 or more"] },
    });
    expect(await stack.http.post(`/api/templates/${tpl.id}/versions`, { sections: [] }, { auth })).toMatchObject({
      status: 400,
      body: { error: "Template name and type are required" },
    });
    const badLogic = await stack.http.post(
      `/api/templates/${tpl.id}/versions`,
      auditTemplateBody(t, { logicRules: [{ sourceKey: "brakes", targetKey: "brakes", condition: { type: "equals", value: "no" } }] }),
      { auth },
    );
    expect(badLogic.status).toBe(400);
    expect(badLogic.body.error).toBe("Invalid template logic");
    expect((await stack.http.get(`/api/templates/${tpl.id}/versions`, { auth })).body.versions).toHaveLength(1);

    const login = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
    const asInspector = await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth: { bearer: login.body.accessToken } });
    expect(asInspector).toMatchObject({ status: 403, body: { error: "Only admin users can create template versions" } });
    // An admin user's token: the new version is theirs.
    const admin = await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password });
    const byAdmin = await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth: { bearer: admin.body.accessToken } });
    expect(byAdmin.status).toBe(201);
    expect((await stack.http.get(`/api/templates/${tpl.id}/versions`, { auth })).body.versions[1].createdBy).toBe(t.users.admin.id);

    expect((await stack.http.post(`/api/templates/${tpl.id}/archive`, {}, { auth })).status).toBe(200);
    expect(await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth })).toMatchObject({
      status: 409,
      body: { error: "An archived template cannot get a new version" },
    });
  });

  it("another organization's template: 403 on versions and their list, 404 for unknown ids; the feed and audit log record drafts and publications", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const { tpl } = await published(t);
    for (const res of [
      await stack.http.get(`/api/templates/${tpl.id}/versions`, { auth: { bearer: other.apiKey } }),
      await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth: { bearer: other.apiKey } }),
      await stack.http.get(`/api/templates/${tpl.id}?version=1`, { auth: { bearer: other.apiKey } }),
    ]) {
      expect(res).toMatchObject({ status: 403, body: { error: "Template belongs to another organization" } });
    }
    expect((await stack.http.get("/api/templates/00000000-0000-4000-8000-000000000000/versions", { auth: { bearer: t.apiKey } })).status).toBe(404);
    expect((await stack.http.post("/api/templates/nope/versions", undefined, { auth: { bearer: t.apiKey } })).status).toBe(404);

    await stack.http.post(`/api/templates/${tpl.id}/versions`, undefined, { auth: { bearer: t.apiKey } });
    await stack.http.post(`/api/templates/${tpl.id}/publish`, {}, { auth: { bearer: t.apiKey } });
    // A feed shows a change once every older transaction of this database has ended: poll.
    const changes = await until(
      "the feed's changes",
      async () => (await stack.http.get("/api/feed/templates", { auth: { bearer: t.apiKey } })).body.items.map((i: { change: string }) => i.change),
      (c: string[]) => c.length >= 4,
    );
    expect(changes).toEqual(["created", "published", "draft_created", "published"]);
    const audit = await stack.http.get(`/api/audit?resourceId=${tpl.id}`, { auth: { bearer: t.apiKey } });
    expect(audit.body.items.map((i: { action: string; changedFields: string[] }) => [i.action, i.changedFields])).toEqual([
      ["template.published", ["version", "publishedAt"]],
      ["template.version.created", ["draftVersion"]],
      ["template.published", ["status", "isActive", "publishedAt"]],
      ["template.created", []],
    ]);
  });
});
