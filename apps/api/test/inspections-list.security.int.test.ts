import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { importBody, importOk, publishedAudit } from "./inspections.fixtures.ts";

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
