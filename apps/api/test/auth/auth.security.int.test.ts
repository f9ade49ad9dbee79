import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "@insp/db/schema";
import { generateTemporaryPassword, inviteUser, hashTemporaryPassword, revokeApiKey, revokeOAuthClient, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";

let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack();
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`;

async function token(fields: Record<string, string>, authorization?: string) {
  const res = await fetch(`${stack.api.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
    body: form(fields),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

describe("OAuth 2.0 client credentials (POST /oauth/token)", () => {
  it("issues a Bearer JWT to a client authenticated with HTTP Basic", async () => {
    const res = await token({ grant_type: "client_credentials" }, basic(t.oauthClient.clientId, t.oauthClient.clientSecret));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "employees:sync" });
    const [header, payload] = (res.body.access_token as string)
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    expect(header).toMatchObject({ alg: "ES256" });
    expect(header.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: t.oauthClient.clientId, org: t.organization.id, scope: "employees:sync" });
    const jwks = await stack.http.get("/.well-known/jwks.json");
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);
    expect(JSON.stringify(jwks.body)).not.toMatch(/"d":/); // public parts only
  });

  it("accepts client_id and client_secret in the form body", async () => {
    const res = await token({ grant_type: "client_credentials", client_id: t.oauthClient.clientId, client_secret: t.oauthClient.clientSecret });
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe("string");
  });

  it("answers RFC 6749 errors: invalid_client 401, unsupported_grant_type and invalid_request 400, invalid_scope", async () => {
    const wrong = await token({ grant_type: "client_credentials" }, basic(t.oauthClient.clientId, "ics_wrong"));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic/);
    const unknown = await token({ grant_type: "client_credentials", client_id: "icl_nobody", client_secret: "x" });
    expect(unknown).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const grant = await token({ grant_type: "password" }, basic(t.oauthClient.clientId, t.oauthClient.clientSecret));
    expect(grant).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
    const none = await token({}, basic(t.oauthClient.clientId, t.oauthClient.clientSecret));
    expect(none).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    const scope = await token({ grant_type: "client_credentials", scope: "admin:all" }, basic(t.oauthClient.clientId, t.oauthClient.clientSecret));
    expect(scope).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
  });

  it("refuses a revoked client", async () => {
    const other = await stack.tenant();
    expect((await revokeOAuthClient(stack.db.db, other.organization.id, "admin_cli", other.oauthClient.clientId)).status).toBe("revoked");
    const res = await token({ grant_type: "client_credentials" }, basic(other.oauthClient.clientId, other.oauthClient.clientSecret));
    expect(res).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });
});

describe("API keys", () => {
  it("authenticates as Bearer and as Basic (key as user name, or as password)", async () => {
    for (const authorization of [`Bearer ${t.apiKey}`, basic(t.apiKey, ""), basic("", t.apiKey)]) {
      const res = await stack.http.get("/api/templates", { auth: { header: authorization } });
      expect(res.status, authorization.slice(0, 6)).toBe(200);
    }
  });

  it("answers 401 {error} for a missing, unknown or revoked key, and for a client token", async () => {
    const missing = await stack.http.get("/api/templates");
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/credential/i);
    const unknown = await stack.http.get("/api/templates", { auth: { bearer: "isk_" + "A".repeat(43) } });
    expect(unknown.status).toBe(401);
    const garbage = await stack.http.get("/api/templates", { auth: { header: "Bearer not.a.token" } });
    expect(garbage.status).toBe(401);
    const other = await stack.tenant();
    const [key] = await stack.db.sql<{ id: string }[]>`select id from api_keys where organization_id = ${other.organization.id}`;
    await revokeApiKey(stack.db.db, other.organization.id, "admin_cli", key!.id);
    expect((await stack.http.get("/api/templates", { auth: { bearer: other.apiKey } })).status).toBe(401);
    const tok = await token({ grant_type: "client_credentials" }, basic(t.oauthClient.clientId, t.oauthClient.clientSecret));
    expect((await stack.http.get("/api/templates", { auth: { bearer: tok.body.access_token } })).status).toBe(401);
  });

  it("stores only a hash of the key", async () => {
    const rows = await stack.db.sql`select key_hash, prefix from api_keys where organization_id = ${t.organization.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).not.toContain(t.apiKey.slice(4));
    expect(t.apiKey.startsWith(rows[0]!.prefix)).toBe(true);
  });
});

describe("user login (POST /api/auth/login, /api/auth/password)", () => {
  it("gives a user token that works on the templates endpoints", async () => {
    const res = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expiresIn: 900, mustResetPassword: false });
    expect((await stack.http.get("/api/templates", { auth: { bearer: res.body.accessToken } })).status).toBe(200);
  });

  it("refuses a wrong password and a disabled user with the same 401", async () => {
    const wrong = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: "wrong-password" });
    expect(wrong).toMatchObject({ status: 401, body: { error: "Invalid email or password" } });
    const ok = await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password });
    const other = await stack.tenant();
    await stack.db.db.update(users).set({ disabled: true }).where(eq(users.id, other.users.admin.id));
    const disabled = await stack.http.post("/api/auth/login", { email: other.users.admin.email, password: other.users.admin.password });
    expect(disabled).toMatchObject({ status: 401, body: { error: "Invalid email or password" } });
    expect(ok.status).toBe(200);
  });

  it("stops accepting a user's token once the user is disabled", async () => {
    const other = await stack.tenant();
    const login = await stack.http.post("/api/auth/login", { email: other.users.inspector.email, password: other.users.inspector.password });
    expect((await stack.http.get("/api/templates", { auth: { bearer: login.body.accessToken } })).status).toBe(200);
    await stack.db.db.update(users).set({ disabled: true }).where(eq(users.id, other.users.inspector.id));
    expect((await stack.http.get("/api/templates", { auth: { bearer: login.body.accessToken } })).status).toBe(401);
  });

  it("makes a user with a temporary password change it before anything else; the old password then stops working", async () => {
    const temp = generateTemporaryPassword();
    const { user: u } = await inviteUser(stack.db.db, t.organization.id, "admin_cli", { email: `temp-${Date.now()}@example.test`, password: temp });
    await stack.db.db
      .update(users)
      .set({ passwordHash: hashTemporaryPassword(temp), mustResetPassword: true })
      .where(eq(users.id, u.id));
    const login = await stack.http.post("/api/auth/login", { email: u.email, password: temp });
    expect(login.body.mustResetPassword).toBe(true);
    const auth = { bearer: login.body.accessToken as string };
    const blocked = await stack.http.get("/api/templates", { auth });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toMatch(/POST \/api\/auth\/password/);
    const short = await stack.http.post("/api/auth/password", { currentPassword: temp, newPassword: "short" }, { auth });
    expect(short.status).toBe(400);
    const changed = await stack.http.post("/api/auth/password", { currentPassword: temp, newPassword: "a much better passphrase" }, { auth });
    expect(changed.status).toBe(204);
    // Tokens issued before the change stop working; the temporary password too.
    expect((await stack.http.get("/api/templates", { auth })).status).toBe(401);
    expect((await stack.http.post("/api/auth/login", { email: u.email, password: temp })).status).toBe(401);
    const again = await stack.http.post("/api/auth/login", { email: u.email, password: "a much better passphrase" });
    expect(again.body.mustResetPassword).toBe(false);
    expect((await stack.http.get("/api/templates", { auth: { bearer: again.body.accessToken } })).status).toBe(200);
  });
});
