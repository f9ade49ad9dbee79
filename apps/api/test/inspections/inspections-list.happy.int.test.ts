import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { auditTemplateBody, createAsset, createTemplate, importBody, importOk, png, publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const get = (t: DemoSeed, path: string) => stack.http.get(path, { auth: { bearer: t.apiKey } });

describe("GET /api/inspections", () => {
  it("lists summaries with every field, newest first, with pagination", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const first = await importOk(stack, t, importBody(t, tpl, { startedAt: "2026-02-01T10:00:00Z", completedAt: "2026-02-01T11:00:00Z" }));
    const second = await importOk(stack, t, importBody(t, tpl, { siteId: t.sites[1]!.id }));
    const res = await get(t, "/api/inspections");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
    expect(res.body.inspections.map((i: any) => i.id)).toEqual([second.id, first.id]);
    const item = res.body.inspections[1];
    expect(item).toEqual({
      id: first.id,
      inspectionNumber: "INS-000001",
      templateId: tpl.id,
      templateVersion: tpl.version,
      siteId: t.sites[0]!.id,
      conductedBy: t.users.inspector.id,
      organizationId: t.organization.id,
      startedAt: "2026-02-01T10:00:00.000Z",
      completedAt: "2026-02-01T11:00:00.000Z",
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      status: "COMPLETED",
      template: { id: tpl.id, title: "Plant audit", type: "AUDIT" },
      inspector: { id: t.users.inspector.id, name: "Demo Inspector", email: t.users.inspector.email },
      site: { id: t.sites[0]!.id, name: "Main Plant", code: "MAIN" },
      // Extensions: a template without scores or flags, no location given.
      score: 0,
      maxScore: 0,
      scorePercentage: null,
      flaggedCount: 0,
      location: null,
      reviewState: "RECEIVED",
    });
    expect(res.body.inspections[0].site).toEqual({ id: t.sites[1]!.id, name: "North Depot", code: "NORTH" });
  });

  it("pages never overlap or skip, and hasMore says when to stop", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const created = await Promise.all(Array.from({ length: 7 }, () => importOk(stack, t, importBody(t, tpl))));
    // Five of them share one createdAt: only the id tie-break keeps the pages apart.
    const tied = created.slice(0, 5).map((c) => c.id);
    await stack.db.sql`update inspections set created_at = '2026-01-01T00:00:00Z' where id in ${stack.db.sql(tied)}`;
    const seen: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const page = await get(t, `/api/inspections?limit=3&offset=${offset}`);
      expect(page.body.pagination).toEqual({ total: 7, limit: 3, offset, hasMore: offset + 3 < 7 });
      seen.push(...page.body.inspections.map((i: any) => i.id));
      if (!page.body.pagination.hasMore) break;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(created.map((c) => c.id)));
    const all = (await get(t, "/api/inspections")).body.inspections;
    expect(seen).toEqual(all.map((i: any) => i.id));
    // Newest first; the tied ones last (oldest), by id descending.
    expect(seen.slice(2)).toEqual([...tied].sort().reverse());
    expect(all[0].createdAt >= all[1].createdAt && all[1].createdAt > "2026-01-01T00:00:00.000Z").toBe(true);
  });

  it("filters by templateId, status, siteId and assetId", async () => {
    const t = await stack.tenant();
    const audit = await publishedAudit(stack, t);
    const assetTpl: Tpl = await createTemplate(stack, t, auditTemplateBody(t, { type: "ASSET", name: "Asset check" }));
    const assetId = await createAsset(stack, t, "Pump 1", "P1");
    const a = await importOk(stack, t, importBody(t, audit));
    const b = await importOk(stack, t, importBody(t, audit, { status: "IN_PROGRESS", siteId: t.sites[1]!.id }));
    const c = await importOk(stack, t, { ...importBody(t, assetTpl), siteId: undefined, assetId });
    const ids = async (q: string) => (await get(t, `/api/inspections?${q}`)).body.inspections.map((i: any) => i.id);
    expect(await ids(`templateId=${audit.id}`)).toEqual([b.id, a.id]);
    expect(await ids("status=IN_PROGRESS")).toEqual([b.id]);
    expect(await ids("status=COMPLETED")).toEqual([c.id, a.id]);
    expect(await ids(`siteId=${t.sites[1]!.id}`)).toEqual([b.id]);
    expect(await ids(`assetId=${assetId}`)).toEqual([c.id]);
    expect(await ids(`templateId=${audit.id}&status=COMPLETED&siteId=${t.sites[0]!.id}`)).toEqual([a.id]);
    const withAsset = (await get(t, `/api/inspections?assetId=${assetId}`)).body;
    expect(withAsset.inspections[0]).toMatchObject({ assetId, assetName: "Pump 1", asset: { id: assetId, name: "Pump 1", code: "P1" } });
    expect(withAsset.pagination.total).toBe(1);
  });

  it("includeAnswers=true adds each item's answers (values, option, note), never images", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no"), note: "worn", media: [png(2, 2).toString("base64")] },
          { questionId: tpl.q.brake_issue!.id, answerJson: ["rust"] },
          { questionId: tpl.q.temperature!.id, answerNumber: 18 },
        ],
      }),
    );
    const plain = await get(t, "/api/inspections");
    expect(plain.body.inspections[0].answers).toBeUndefined();
    const res = await get(t, "/api/inspections?includeAnswers=true");
    expect(res.body.inspections[0].answers).toEqual([
      expect.objectContaining({ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no"), note: "worn", answerText: null }),
      expect.objectContaining({ questionId: tpl.q.brake_issue!.id, answerJson: ["rust"] }),
      expect.objectContaining({ questionId: tpl.q.temperature!.id, answerNumber: 18 }),
    ]);
    for (const a of res.body.inspections[0].answers) expect(a.images).toBeUndefined();
    expect(res.text).not.toContain("data:image");
  });

  it("a limit above 100 is capped at 100; a filter id that is not a UUID matches nothing", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    await importOk(stack, t, importBody(t, tpl));
    expect((await get(t, "/api/inspections?limit=1000")).body.pagination).toEqual({ total: 1, limit: 100, offset: 0, hasMore: false });
    expect((await get(t, "/api/inspections?templateId=nope")).body).toEqual({
      inspections: [],
      pagination: { total: 0, limit: 50, offset: 0, hasMore: false },
    });
    expect((await get(t, "/api/inspections?offset=5")).body).toEqual({ inspections: [], pagination: { total: 1, limit: 50, offset: 5, hasMore: false } });
  });

  it("/openapi.json documents the inspections paths with the same schemas", async () => {
    const doc = (await stack.http.get("/openapi.json")).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/inspections", "/api/inspections/{id}"]));
    expect(Object.keys(doc.paths["/api/inspections"])).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/api/inspections"].post.responses)).toEqual(expect.arrayContaining(["201", "400", "404", "413", "422", "503"]));
    expect(doc.components.schemas.InspectionSummary.required).toEqual(expect.arrayContaining(["inspectionNumber", "template", "inspector"]));
  });
});
