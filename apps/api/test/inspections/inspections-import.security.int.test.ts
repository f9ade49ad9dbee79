import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { createAsset, importBody, importOk, png, publishedAudit } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

describe("POST /api/inspections: credentials and tenants", () => {
  it("no credential, a wrong key or an OAuth client token: 401, nothing imported", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const body = importBody(t, tpl);
    expect((await stack.http.post("/api/inspections", body)).status).toBe(401);
    expect((await stack.http.post("/api/inspections", body, { auth: { bearer: "isk_wrong_key" } })).status).toBe(401);
    const token = await stack.http.request("POST", "/oauth/token", {
      rawBody: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: t.oauthClient.clientId,
        client_secret: t.oauthClient.clientSecret,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(token.status).toBe(200);
    const res = await stack.http.post("/api/inspections", body, { auth: { bearer: token.body.access_token } });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await stack.db.sql`select count(*)::int as n from inspection_imports where organization_id = ${t.organization.id}`)[0]!.n).toBe(0);
  });

  it("works with the API key as Basic credentials and with a user token", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    expect((await stack.http.post("/api/inspections", importBody(t, tpl), { auth: { basic: [t.apiKey, ""] } })).status).toBe(201);
    const login = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
    expect((await stack.http.post("/api/inspections", importBody(t, tpl), { auth: { bearer: login.body.accessToken } })).status).toBe(201);
  });

  it("another organization's template is a 404, never used", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const tplB = await publishedAudit(stack, b);
    const res = await stack.http.post("/api/inspections", importBody(a, tplB), { auth: { bearer: a.apiKey } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Template ${tplB.id} not found` });
  });

  it("another organization's user, site and asset are rejected as not the organization's", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const tpl = await publishedAudit(stack, a);
    const assetB = await createAsset(stack, b, "B's forklift");
    const res = await stack.http.post("/api/inspections", importBody(a, tpl, { conductedBy: b.users.admin.id, siteId: b.sites[0]!.id, assetId: assetB }), {
      auth: { bearer: a.apiKey },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      `conductedBy '${b.users.admin.id}' is not a user of this organization`,
      `siteId '${b.sites[0]!.id}' is not a site of this organization`,
      `assetId '${assetB}' is not an asset of this organization`,
    ]);
  });

  it("an answer to another organization's question is not part of the template", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const tplA = await publishedAudit(stack, a);
    const tplB = await publishedAudit(stack, b);
    const res = await stack.http.post(
      "/api/inspections",
      importBody(a, tplA, { answers: [...importBody(a, tplA).answers, { questionId: tplB.q.remarks!.id, answerText: "x" }] }),
      {
        auth: { bearer: a.apiKey },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([`Question '${tplB.q.remarks!.id}' is not part of this template`]);
  });

  it("Idempotency-Keys and stored images belong to one organization", async () => {
    const a = await stack.tenant();
    const b = await stack.tenant();
    const [tplA, tplB] = [await publishedAudit(stack, a), await publishedAudit(stack, b)];
    const image = png(3, 3, 9).toString("base64");
    const withImage = (t: typeof a, tpl: typeof tplA) => importBody(t, tpl, { answers: [{ questionId: tpl.q.brakes!.id, answerText: "yes", media: [image] }] });
    const headers = { "idempotency-key": "shared-key" };
    const ra = await stack.http.post("/api/inspections", withImage(a, tplA), { auth: { bearer: a.apiKey }, headers });
    const rb = await stack.http.post("/api/inspections", withImage(b, tplB), { auth: { bearer: b.apiKey }, headers });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.body.id).not.toBe(rb.body.id);
    const rows = await stack.db
      .sql`select organization_id, storage_key from media where organization_id in ${stack.db.sql([a.organization.id, b.organization.id])}`;
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.storage_key.startsWith(`${r.organization_id}/`)).toBe(true);
  });

  it("the import request handed to the worker (and its job) carries media ids, never the images", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const created = await importOk(
      stack,
      t,
      importBody(t, tpl, { answers: [{ questionId: tpl.q.brakes!.id, answerText: "yes", media: [png(5, 5).toString("base64")] }] }),
    );
    const [imp] = await stack.db.sql`select payload from inspection_imports where inspection_id = ${created.id}`;
    expect(JSON.stringify(imp!.payload)).not.toMatch(/iVBOR|base64/);
    expect(imp!.payload.answers[0].mediaIds).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });
});
