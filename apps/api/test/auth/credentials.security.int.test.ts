import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/** Who may manage credentials, the scope ceiling, and tenancy. */
let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack({ workers: 0 });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

const key = async (scopes: Parameters<typeof createApiKey>[5]) =>
  (await createApiKey(stack.db.db, t.organization.id, "k", undefined, undefined, scopes)).apiKey;

describe("who may", () => {
  it("an inspector (not an admin) is refused every operation, whatever the body", async () => {
    const auth = { bearer: await userToken(stack, t.users.inspector) };
    const forbidden = { status: 403, body: { error: "Only admin users can manage API keys and OAuth clients" } };
    expect(await stack.http.get("/api/api-keys", { auth })).toMatchObject(forbidden);
    expect(await stack.http.post("/api/api-keys", { nonsense: true }, { auth })).toMatchObject(forbidden);
    expect(await stack.http.get("/api/oauth-clients", { auth })).toMatchObject(forbidden);
    expect(await stack.http.post("/api/oauth-clients", { name: "x", scopes: ["scim"] }, { auth })).toMatchObject(forbidden);
  });

  it("an API key needs credentials:manage; an OAuth client's token is not accepted", async () => {
    const k = await key(["templates:read", "webhooks:manage"]);
    expect(await stack.http.get("/api/api-keys", { auth: { bearer: k } })).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope credentials:manage" },
    });
    expect((await stack.http.get("/api/oauth-clients", { auth: { bearer: await syncToken(stack, t) } })).status).toBe(401);
    // Receiving credential events is managing credentials too.
    const hook = await stack.http.post("/api/webhooks", { url: "https://hooks.example.com/c", events: ["api_key.created"] }, { auth: { bearer: k } });
    expect(hook).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope credentials:manage, which api_key.created events need: they carry the api_key itself" },
    });
  });
});

describe("scope ceiling", () => {
  it("a key may give only scopes it holds (403 naming the first it lacks); an admin user may give any", async () => {
    const k = await key(["credentials:manage", "templates:read"]);
    const beyond = await stack.http.post("/api/api-keys", { name: "wider", scopes: ["templates:read", "inspections:write"] }, { auth: { bearer: k } });
    expect(beyond).toMatchObject({ status: 403, body: { error: "API key lacks the scope inspections:write: a key may only give scopes it holds itself" } });
    const within = await stack.http.post("/api/api-keys", { name: "narrower", scopes: ["templates:read"] }, { auth: { bearer: k } });
    expect(within.status).toBe(201);
    const admin = { bearer: await userToken(stack, t.users.admin) };
    const any = await stack.http.post("/api/api-keys", { name: "admin's", scopes: ["audit:read", "credentials:manage"] }, { auth: admin });
    expect(any).toMatchObject({ status: 201, body: { scopes: ["audit:read", "credentials:manage"] } });
  });

  it("a key may revoke itself: the answer arrives, the next request is 401", async () => {
    const k = await key(["credentials:manage"]);
    const id = (await stack.db.sql<{ id: string }[]>`select id from api_keys where prefix = ${k.slice(0, 12)}`)[0]!.id;
    expect((await stack.http.post(`/api/api-keys/${id}/revoke`, undefined, { auth: { bearer: k } })).body).toMatchObject({ id, status: "revoked" });
    expect((await stack.http.get("/api/api-keys", { auth: { bearer: k } })).status).toBe(401);
  });
});

describe("tenancy", () => {
  it("another organization's key and client are 404 to read, revoke and rotate, and keep working", async () => {
    const other = await stack.tenant();
    const otherKey = (await stack.db.sql<{ id: string }[]>`select id from api_keys where organization_id = ${other.organization.id}`)[0]!.id;
    const auth = { bearer: t.apiKey };
    expect((await stack.http.get(`/api/api-keys/${otherKey}`, { auth })).status).toBe(404);
    expect((await stack.http.post(`/api/api-keys/${otherKey}/revoke`, undefined, { auth })).status).toBe(404);
    expect((await stack.http.get(`/api/oauth-clients/${other.oauthClient.clientId}`, { auth })).status).toBe(404);
    expect((await stack.http.post(`/api/oauth-clients/${other.oauthClient.clientId}/rotate-secret`, undefined, { auth })).status).toBe(404);
    expect((await stack.http.post(`/api/oauth-clients/${other.oauthClient.clientId}/revoke`, undefined, { auth })).status).toBe(404);
    const listed = await stack.http.get("/api/api-keys?limit=100", { auth });
    expect(listed.body.apiKeys.map((k: { id: string }) => k.id)).not.toContain(otherKey);
    expect((await stack.http.get("/api/templates", { auth: { bearer: other.apiKey } })).status).toBe(200);
    expect(await syncToken(stack, other)).toEqual(expect.any(String));
  });
});
