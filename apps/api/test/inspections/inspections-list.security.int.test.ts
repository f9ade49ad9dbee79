import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk, png, publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

describe("inspections are scoped to the caller's organization", () => {
  it("another organization's inspection is a 404 and absent from lists, whatever the filter", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const tplB = await publishedAudit(stack, b);
    const theirs = await importOk(stack, b, importBody(b, tplB));
    const tplA = await publishedAudit(stack, a);
    const ours = await importOk(stack, a, importBody(a, tplA));

    const detail = await stack.http.get(`/api/inspections/${theirs.id}`, { auth: { bearer: a.apiKey } });
    expect(detail.status).toBe(404);
    expect(detail.body).toEqual({ error: `Inspection ${theirs.id} not found` });

    const list = await stack.http.get("/api/inspections?includeAnswers=true", { auth: { bearer: a.apiKey } });
    expect(list.body.inspections.map((i: any) => i.id)).toEqual([ours.id]);
    expect(list.body.pagination.total).toBe(1);
    for (const q of [`templateId=${tplB.id}`, `siteId=${b.sites[0]!.id}`]) {
      const filtered = await stack.http.get(`/api/inspections?${q}`, { auth: { bearer: a.apiKey } });
      expect(filtered.body).toEqual({ inspections: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } });
    }
    // Both organizations number their inspections on their own.
    expect([ours.inspectionNumber, theirs.inspectionNumber]).toEqual(["INS-000001", "INS-000001"]);
    // And B still sees its own.
    expect((await stack.http.get(`/api/inspections/${theirs.id}`, { auth: { bearer: b.apiKey } })).status).toBe(200);
  });

  it("a row linked across organizations (corrupt data) never brings another organization's question or image into a detail", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const withImage = (t: DemoSeed, tpl: Tpl, seed: number) =>
      importBody(t, tpl, {
        status: "IN_PROGRESS",
        answers: [{ questionId: tpl.q.brakes!.id, answerText: "no", note: "n", media: [png(3, 3, seed).toString("base64")] }],
      });
    const tplA = await publishedAudit(stack, a);
    const tplB = await createTemplate(stack, b, {
      ...auditTemplateBody(b),
      sections: [
        { title: "B", questions: [{ key: "brakes", text: "B's secret question", responseTypeId: b.responseTypes.find((r) => r.inputType === "SELECT")!.id }] },
      ],
      logicRules: [],
    });
    const ours = await importOk(stack, a, withImage(a, tplA, 1));
    const theirs = await importOk(stack, b, withImage(b, tplB, 2));
    const answerOf = async (inspectionId: string) =>
      (await stack.db.sql`select id from inspection_answers where inspection_id = ${inspectionId}`)[0]!.id as string;
    const [ourAnswer, theirAnswer] = [await answerOf(ours.id), await answerOf(theirs.id)];
    const auth = { auth: { bearer: a.apiKey } };
    const before = await stack.http.get(`/api/inspections/${ours.id}`, auth);
    expect(before.body.answers[0].images).toHaveLength(1);

    // A's answer now points at B's image.
    await stack.db.sql`update answer_media set media_id = (select media_id from answer_media where answer_id = ${theirAnswer}) where answer_id = ${ourAnswer}`;
    const image = await stack.http.get(`/api/inspections/${ours.id}`, auth);
    expect(image.status).toBe(200);
    expect(image.body.answers).toHaveLength(1);
    expect(image.body.answers[0].images).toEqual([]);

    // A's answer now points at B's question: the answer is left out rather than shown with B's text.
    await stack.db.sql`update inspection_answers set question_id = ${tplB.q.brakes!.id} where id = ${ourAnswer}`;
    const question = await stack.http.get(`/api/inspections/${ours.id}`, auth);
    expect(question.status).toBe(200);
    expect(question.body.answers).toEqual([]);
    expect(question.text).not.toContain("B's secret question");
  });

  it("no credential or a wrong one is a 401 on list and detail", async () => {
    const a = await stack.tenant();
    const tpl = await publishedAudit(stack, a);
    const ours = await importOk(stack, a, importBody(a, tpl));
    for (const path of ["/api/inspections", `/api/inspections/${ours.id}`]) {
      expect((await stack.http.get(path)).status).toBe(401);
      const wrong = await stack.http.get(path, { auth: { bearer: "isk_not_a_key" } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toEqual(expect.any(String));
    }
  });
});
