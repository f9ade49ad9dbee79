import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import {
  createAsset,
  createTemplate,
  auditTemplateBody,
  dataUrl,
  gif,
  importBody,
  importOk,
  jpeg,
  noisyPng,
  png,
  publishedAudit,
  webp1x1,
} from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const auth = (t: { apiKey: string }) => ({ auth: { bearer: t.apiKey } });

describe("POST /api/inspections creates the inspection through the worker", () => {
  it("answers 201 {id, inspectionNumber, message} and the detail shows every answer with its question", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const body = importBody(t, tpl, {
      startedAt: "2026-03-01T08:00:00Z",
      completedAt: "2026-03-01T09:30:00.000Z",
      answers: [
        { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes"), note: "checked twice" },
        { questionId: tpl.q.temperature!.id, answerNumber: 21.5, unitId: "celsius", unitCategory: "temperature" },
        { questionId: tpl.q.inspected_on!.id, answerDate: "2026-03-01" },
        { questionId: tpl.q.powered!.id, answerBoolean: false },
        { questionId: tpl.q.remarks!.id, answerText: "All fine", answerJson: { tags: ["a", "b"] } },
      ],
    });
    const res = await stack.http.post("/api/inspections", body, auth(t));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), inspectionNumber: "INS-000001", message: "Inspection INS-000001 imported" });

    const detail = await stack.http.get(`/api/inspections/${res.body.id}`, auth(t));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: res.body.id,
      inspectionNumber: "INS-000001",
      templateId: tpl.id,
      templateVersion: tpl.version,
      siteId: t.sites[0]!.id,
      conductedBy: t.users.inspector.id,
      organizationId: t.organization.id,
      status: "COMPLETED",
      startedAt: "2026-03-01T08:00:00.000Z",
      completedAt: "2026-03-01T09:30:00.000Z",
      template: { id: tpl.id, title: "Plant audit", type: "AUDIT" },
      inspector: { id: t.users.inspector.id, name: "Demo Inspector", email: t.users.inspector.email },
      site: { id: t.sites[0]!.id, name: "Main Plant", code: "MAIN" },
    });
    expect(detail.body.assetId).toBeUndefined();
    expect(detail.body.answers).toEqual([
      expect.objectContaining({
        questionId: tpl.q.brakes!.id,
        responseOptionId: tpl.opt("brakes", "yes"),
        note: "checked twice",
        question: { id: tpl.q.brakes!.id, text: "Brakes OK?" },
        images: [],
      }),
      expect.objectContaining({
        answerNumber: 21.5,
        unitId: "celsius",
        unitCategory: "temperature",
        question: { id: tpl.q.temperature!.id, text: "Temperature" },
      }),
      expect.objectContaining({ answerDate: "2026-03-01", answerText: null }),
      expect.objectContaining({ answerBoolean: false }),
      expect.objectContaining({ answerText: "All fine", answerJson: { tags: ["a", "b"] } }),
    ]);
    const { n } = (await stack.db.sql`select count(*)::int as n from inspection_imports where organization_id = ${t.organization.id} and status = 'DONE'`)[0]!;
    expect(n).toBe(1);
  });

  it("accepts the full three-level chain when each level's condition holds (note and photo given for 'No')", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const body = importBody(t, tpl, {
      answers: [
        { questionId: tpl.q.brakes!.id, answerText: "no", note: "pads worn", media: [png(2, 2).toString("base64")] },
        { questionId: tpl.q.brake_issue!.id, answerJson: ["leak", "rust"] },
        { questionId: tpl.q.leak_size!.id, answerNumber: 7 },
      ],
    });
    const created = await importOk(stack, t, body);
    const detail = await stack.http.get(`/api/inspections/${created.id}`, auth(t));
    expect(detail.body.answers.map((a: any) => a.question.text)).toEqual(["Brakes OK?", "What is wrong with the brakes?", "Leak size in cm"]);
    expect(detail.body.answers[0].images).toHaveLength(1);
  });

  it("IN_PROGRESS accepts missing required answers; completedAt stays null", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    // brakes "no" shows the required brake_issue, which is left out: fine for a draft.
    const body = importBody(t, tpl, {
      status: "IN_PROGRESS",
      answers: [{ questionId: tpl.q.brakes!.id, answerText: "no", note: "n", media: [png(1, 1).toString("base64")] }],
    });
    const created = await importOk(stack, t, body);
    const detail = await stack.http.get(`/api/inspections/${created.id}`, auth(t));
    expect(detail.body).toMatchObject({ status: "IN_PROGRESS", completedAt: null });
    expect(Date.parse(detail.body.startedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("round-trips PNG, JPEG, GIF and WebP images byte for byte with their dimensions, deduplicating equal content", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const images = [
      { bytes: png(7, 3, 1), mime: "image/png", dim: "7x3" },
      { bytes: jpeg(640, 480), mime: "image/jpeg", dim: "640x480" },
      { bytes: gif(5, 4), mime: "image/gif", dim: "5x4" },
      { bytes: webp1x1, mime: "image/webp", dim: "1x1" },
    ];
    const body = importBody(t, tpl, {
      answers: [
        // bare base64 and data URLs (the declared type of the second is wrong on purpose: the bytes decide)
        {
          questionId: tpl.q.brakes!.id,
          responseOptionId: tpl.opt("brakes", "yes"),
          media: [images[0]!.bytes.toString("base64"), dataUrl("image/png", images[1]!.bytes)],
        },
        {
          questionId: tpl.q.remarks!.id,
          answerText: "photos",
          media: [dataUrl("image/gif", images[2]!.bytes), images[3]!.bytes.toString("base64"), images[0]!.bytes.toString("base64")],
        },
      ],
    });
    const created = await importOk(stack, t, body);
    const detail = await stack.http.get(`/api/inspections/${created.id}`, auth(t));
    const got = detail.body.answers.flatMap((a: any) => a.images);
    const expected = [images[0]!, images[1]!, images[2]!, images[3]!, images[0]!];
    expect(got).toHaveLength(5);
    got.forEach((img: any, i: number) => {
      const e = expected[i]!;
      expect(img.imgDimension).toBe(e.dim);
      expect(img.imgBlobSrc.startsWith(`data:${e.mime};base64,`)).toBe(true);
      expect(Buffer.from(img.imgBlobSrc.slice(img.imgBlobSrc.indexOf(",") + 1), "base64").equals(e.bytes)).toBe(true);
    });
    const { n } = (await stack.db.sql`select count(*)::int as n from media where organization_id = ${t.organization.id}`)[0]!;
    expect(n).toBe(4);
    // The list never embeds images.
    const list = await stack.http.get("/api/inspections?includeAnswers=true", auth(t));
    expect(JSON.stringify(list.body)).not.toContain("base64");
  });

  it("gives 50 parallel imports 50 distinct, gapless inspection numbers", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const results = await Promise.all(Array.from({ length: 50 }, () => stack.http.post("/api/inspections", importBody(t, tpl), auth(t))));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => r.body.inspectionNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INS-${String(i + 1).padStart(6, "0")}`));
    const { n } = (await stack.db.sql`select count(distinct inspection_number)::int as n from inspections where organization_id = ${t.organization.id}`)[0]!;
    expect(n).toBe(50);
  });

  it("replays the first result for the same Idempotency-Key and body, creating one inspection", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const body = importBody(t, tpl);
    const headers = { "idempotency-key": "order-42" };
    const first = await stack.http.post("/api/inspections", body, { ...auth(t), headers });
    const again = await stack.http.post("/api/inspections", body, { ...auth(t), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { n } = (await stack.db.sql`select count(*)::int as n from inspections where organization_id = ${t.organization.id}`)[0]!;
    expect(n).toBe(1);
    // Concurrent duplicates converge on one inspection too.
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => stack.http.post("/api/inspections", body, { ...auth(t), headers: { "idempotency-key": "burst-1" } })),
    );
    const ok = burst.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect(burst.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const { m } = (await stack.db.sql`select count(*)::int as m from inspections where organization_id = ${t.organization.id}`)[0]!;
    expect(m).toBe(2);
  });

  it("an ASSET inspection links the organization's asset and takes its name when none is given", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t, { type: "ASSET", name: "Forklift check" }));
    const assetId = await createAsset(stack, t, "Forklift 7", "FL-7");
    const created = await importOk(stack, t, { ...importBody(t, tpl), siteId: undefined, assetId });
    const detail = await stack.http.get(`/api/inspections/${created.id}`, auth(t));
    expect(detail.body).toMatchObject({
      assetId,
      assetName: "Forklift 7",
      asset: { id: assetId, name: "Forklift 7", code: "FL-7" },
      template: { type: "ASSET" },
    });
    expect(detail.body.siteId).toBeUndefined();
    expect(detail.body.site).toBeUndefined();
  });

  // Memory is measured by the import benchmark (npm run bench), not asserted here (docs/testing.md, Benchmarks).
  it("four parallel imports of a 5 MB image each all succeed and keep their bytes", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const images = Array.from({ length: 4 }, () => noisyPng(1300, 1300));
    expect(images[0]!.length).toBeGreaterThan(5_000_000);
    const results = await Promise.all(
      images.map((img) =>
        stack.http.post(
          "/api/inspections",
          importBody(t, tpl, { answers: [{ questionId: tpl.q.brakes!.id, answerText: "yes", media: [dataUrl("image/png", img)] }] }),
          auth(t),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    // And the bytes come back intact.
    const detail = await stack.http.get(`/api/inspections/${results[2]!.body.id}`, auth(t));
    const src: string = detail.body.answers[0].images[0].imgBlobSrc;
    expect(Buffer.from(src.slice(src.indexOf(",") + 1), "base64").equals(images[2]!)).toBe(true);
  });

  it("imports 4,500 answers in one inspection, in order (past the 65,535 parameters of one statement)", async () => {
    const t = await stack.tenant();
    const text = t.responseTypes.find((r) => r.inputType === "TEXT")!.id;
    const questions = Array.from({ length: 4500 }, (_, i) => ({ key: `q${i}`, text: `Question ${i}`, responseTypeId: text }));
    const tpl = await createTemplate(stack, t, { createdBy: t.users.admin.id, name: "Long form", type: "ASSET", sections: [{ title: "All", questions }] });
    const answers = questions.map((q, i) => ({ questionId: tpl.q[q.key]!.id, answerText: `answer ${i}` }));
    const created = await importOk(stack, t, { templateId: tpl.id, conductedBy: t.users.admin.id, answers });
    const detail = await stack.http.get(`/api/inspections/${created.id}`, auth(t));
    expect(detail.body.answers).toHaveLength(4500);
    expect(detail.body.answers[4499]).toMatchObject({ answerText: "answer 4499", question: { text: "Question 4499" } });
  });
});
