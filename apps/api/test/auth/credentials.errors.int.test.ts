import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_API_KEY_SCOPES } from "@insp/contracts";
import { startStack, type Stack } from "@insp/testing";

/** Bad input to the credentials endpoints: 400 naming the field, 404, 409 (a revoked client); never a 500. The quota is in isolation/quotas.int.test.ts. */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 0 });
});
afterAll(() => stack?.stop());

describe("bad input", () => {
  it("an API key's body: 400 naming the field", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const cases: [unknown, string][] = [
      [{ scopes: ["templates:read"] }, "name: Invalid input: expected string, received undefined"],
      [{ name: " ", scopes: ["templates:read"] }, "name: name is required"],
      [{ name: "x".repeat(101), scopes: ["templates:read"] }, "name: name must be at most 100 characters"],
      [{ name: "k", scopes: [] }, "scopes: scopes must name at least one scope"],
      [{ name: "k", scopes: ["everything"] }, `scopes.0: must be one of ${ALL_API_KEY_SCOPES.join(", ")}`],
      [{ name: "k", scopes: ["templates:read"], expiresAt: "tomorrow" }, "expiresAt: expiresAt must be an ISO 8601 date-time, e.g. 2030-01-31T00:00:00Z"],
      [{ name: "k", scopes: ["templates:read"], expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt: expiresAt must be in the future"],
      [{ name: "k", scopes: ["templates:read"], secret: "mine" }, 'Unrecognized key: "secret"'],
    ];
    for (const [body, detail] of cases) {
      const res = await stack.http.post("/api/api-keys", body, { auth });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details, JSON.stringify(body)).toContain(detail);
    }
    const client = await stack.http.post("/api/oauth-clients", { name: "c", scopes: ["admin"] }, { auth });
    expect(client).toMatchObject({ status: 400, body: { details: ["scopes.0: must be one of employees:sync, scim"] } });
    const page = await stack.http.get("/api/api-keys?limit=0", { auth });
    expect(page.status).toBe(400);
  });

  it("an unknown or malformed id is a 404; a revoked client cannot be rotated (409); revoking twice changes nothing", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    for (const path of ["/api/api-keys/not-a-uuid", "/api/api-keys/00000000-0000-4000-8000-000000000000", "/api/oauth-clients/icl_nothing"])
      expect((await stack.http.get(path, { auth })).status, path).toBe(404);
    expect((await stack.http.post("/api/api-keys/00000000-0000-4000-8000-000000000000/revoke", undefined, { auth })).body).toEqual({
      error: "API key not found",
    });
    expect((await stack.http.post("/api/oauth-clients/icl_nothing/rotate-secret", undefined, { auth })).body).toEqual({ error: "OAuth client not found" });

    const client = (await stack.http.post("/api/oauth-clients", { name: "short-lived", scopes: ["scim"] }, { auth })).body;
    const first = await stack.http.post(`/api/oauth-clients/${client.clientId}/revoke`, undefined, { auth });
    const again = await stack.http.post(`/api/oauth-clients/${client.clientId}/revoke`, undefined, { auth });
    expect(again.body).toEqual(first.body);
    expect(await stack.http.post(`/api/oauth-clients/${client.clientId}/rotate-secret`, undefined, { auth })).toMatchObject({
      status: 409,
      body: { error: "OAuth client is revoked: create a new one" },
    });
    const events = await stack.db.sql`select 1 from change_events where resource_id = ${client.id} and change = 'revoked'`;
    expect(events.length).toBe(1);
  });
});
