import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { createTemplate, forkliftBody, smallBody, userToken } from "../fixtures/templates.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const endpoints = (id: string) =>
  [
    ["GET", "/api/templates"],
    ["POST", "/api/templates"],
    ["GET", `/api/templates/${id}`],
    ["POST", `/api/templates/${id}/publish`],
    ["POST", `/api/templates/${id}/archive`],
  ] as const;

describe("credentials", () => {
  it("answers 401 {error} on every templates endpoint without a credential, with a bad one, or with an OAuth client token", async () => {
    const t = await stack.tenant();
    const created = await createTemplate(stack, t, smallBody(t, [{ text: "Q" }]));
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: t.oauthClient.clientId, client_secret: t.oauthClient.clientSecret });
    const tok = await fetch(`${stack.api.baseUrl}/oauth/token`, { method: "POST", body: form }).then((r) => r.json() as Promise<{ access_token: string }>);
    for (const [method, path] of endpoints(created.id)) {
      for (const auth of [null, { bearer: "isk_" + "B".repeat(43) }, { bearer: tok.access_token }]) {
        const res = await stack.http.request(method, path, { auth, body: method === "POST" ? smallBody(t, [{ text: "Q" }]) : undefined });
        expect(res.status, `${method} ${path} ${JSON.stringify(auth)?.slice(0, 20)}`).toBe(401);
        expect(typeof res.body.error).toBe("string");
      }
    }
    const [row] = await stack.db.sql`select count(*)::int as n, max(status) as status from templates where organization_id = ${t.organization.id}`;
    expect(row).toEqual({ n: 1, status: "DRAFT" });
  });
});

describe("another organization's template", () => {
  it("is 403 on detail, publish and archive, and absent from the other tenant's list", async () => {
    const owner = await stack.tenant();
    const other = await stack.tenant();
    const created = await createTemplate(stack, owner, forkliftBody(owner));
    expect((await stack.http.post(`/api/templates/${created.id}/publish`, undefined, { auth: { bearer: owner.apiKey } })).status).toBe(200);

    const detail = await stack.http.get(`/api/templates/${created.id}`, { auth: { bearer: other.apiKey } });
    expect(detail).toMatchObject({ status: 403, body: { error: "Template belongs to another organization" } });
    expect(detail.body.sections).toBeUndefined();
    for (const action of ["publish", "archive"]) {
      const res = await stack.http.post(`/api/templates/${created.id}/${action}`, undefined, { auth: { bearer: other.apiKey } });
      expect(res.status, action).toBe(403);
    }
    const [row] = await stack.db.sql`select status from templates where id = ${created.id}`;
    expect(row!.status).toBe("PUBLISHED");

    for (const q of ["", "?publishedOnly=false"]) {
      const list = await stack.http.get(`/api/templates${q}`, { auth: { bearer: other.apiKey } });
      expect(list).toMatchObject({ status: 200, body: [] });
    }
    const own = await stack.http.get("/api/templates", { auth: { bearer: owner.apiKey } });
    expect(own.body.map((x: any) => x.id)).toEqual([created.id]);
  });

  it("cannot be reached through another tenant's admin user either", async () => {
    const owner = await stack.tenant();
    const other = await stack.tenant();
    const created = await createTemplate(stack, owner, smallBody(owner, [{ text: "Q" }]));
    const token = await userToken(stack, other.users.admin);
    expect((await stack.http.get(`/api/templates/${created.id}`, { auth: { bearer: token } })).status).toBe(403);
    expect((await stack.http.get("/api/templates?publishedOnly=false", { auth: { bearer: token } })).body).toEqual([]);
  });
});

describe("user tokens", () => {
  it("a non-admin user may read but not create, publish or archive (403)", async () => {
    const t = await stack.tenant();
    const created = await createTemplate(stack, t, smallBody(t, [{ text: "Q" }]));
    const token = await userToken(stack, t.users.inspector);
    const auth = { bearer: token };
    expect((await stack.http.get("/api/templates?publishedOnly=false", { auth })).status).toBe(200);
    expect((await stack.http.get(`/api/templates/${created.id}`, { auth })).status).toBe(200);

    const { createdBy: _c, ...body } = smallBody(t, [{ text: "Q" }]);
    const res = await stack.http.post("/api/templates", body, { auth });
    expect(res).toMatchObject({ status: 403, body: { error: "Only admin users can create templates" } });
    // Forbidden before the body is looked at.
    expect((await stack.http.post("/api/templates", {}, { auth })).status).toBe(403);
    for (const action of ["publish", "archive"]) {
      const r = await stack.http.post(`/api/templates/${created.id}/${action}`, undefined, { auth });
      expect(r).toMatchObject({ status: 403, body: { error: `Only admin users can ${action} templates` } });
    }
    const [row] = await stack.db.sql`select count(*)::int as n, max(status) as status from templates where organization_id = ${t.organization.id}`;
    expect(row).toEqual({ n: 1, status: "DRAFT" });
  });

  it("an admin user creates without createdBy and is recorded as the creator; naming someone else is refused", async () => {
    const t = await stack.tenant();
    const auth = { bearer: await userToken(stack, t.users.admin) };
    const { createdBy: _c, ...body } = forkliftBody(t);
    const res = await stack.http.post("/api/templates", body, { auth });
    expect(res.status).toBe(200);
    expect(res.body.template.status).toBe("DRAFT");
    const [row] = await stack.db.sql`select created_by from templates where id = ${res.body.template.id}`;
    expect(row!.created_by).toBe(t.users.admin.id);

    const self = await stack.http.post("/api/templates", { ...body, createdBy: t.users.admin.id }, { auth });
    expect(self.status).toBe(200);
    for (const createdBy of [t.users.inspector.id, randomUUID()]) {
      const r = await stack.http.post("/api/templates", { ...body, createdBy }, { auth });
      expect(r).toMatchObject({ status: 400, body: { error: "createdBy must be omitted or be your own user id when using a user token" } });
    }
    expect((await stack.http.post(`/api/templates/${res.body.template.id}/publish`, undefined, { auth })).body.status).toBe("PUBLISHED");
  });

  it("records the API key's createdBy as the creator", async () => {
    const t = await stack.tenant();
    const created = await createTemplate(stack, t, smallBody(t, [{ text: "Q" }], [], { createdBy: t.users.inspector.id }));
    const [row] = await stack.db.sql`select created_by from templates where id = ${created.id}`;
    expect(row!.created_by).toBe(t.users.inspector.id);
  });
});
