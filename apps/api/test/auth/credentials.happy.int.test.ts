import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startReceiver, startStack, until, type Receiver, type Stack } from "@insp/testing";
import { SYNC_PATH } from "../fixtures/employee-sync.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

/**
 * API keys and OAuth clients managed over HTTP (docs/authentication.md, Managing API keys and
 * OAuth clients): the secret once, lists without it, revocation, expiry, a client's rotation with
 * its grace period, the events, and the admin CLI on the same services.
 */
const GRACE_SECONDS = 3;
const root = fileURLToPath(new URL("../../../../", import.meta.url));
let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({ workers: 1, env: { WEBHOOK_ALLOW_PRIVATE: "true", OAUTH_CLIENT_SECRET_GRACE_SECONDS: String(GRACE_SECONDS), OUTBOX_SWEEP_SECONDS: "2" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const asAdmin = async (t: DemoSeed) => ({ bearer: await userToken(stack, t.users.admin) });

/** POST /oauth/token with the client's id and secret (Basic). */
async function token(clientId: string, secret: string) {
  const res = await fetch(`${stack.http.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
    body: "grant_type=client_credentials",
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string; error?: string } };
}

describe("API keys", () => {
  it("an admin creates a key (shown once), the key works, lists and reads never show it, revoking it makes it 401", async () => {
    const t = await stack.tenant();
    const auth = await asAdmin(t);
    const made = await stack.http.post("/api/api-keys", { name: "BI export", scopes: ["templates:read", "inspections:read"] }, { auth });
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    expect(made.body).toMatchObject({
      name: "BI export",
      scopes: ["templates:read", "inspections:read"],
      status: "active",
      createdBy: { type: "user", id: t.users.admin.id },
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      apiKey: expect.stringMatching(/^isk_/),
    });
    const key = made.body.apiKey as string;
    expect(made.body.prefix).toBe(key.slice(0, 12));

    expect((await stack.http.get("/api/templates", { auth: { bearer: key } })).status).toBe(200);
    expect((await stack.http.get("/api/inspections", { auth: { bearer: key } })).status).toBe(200);

    const key_hash = (await stack.db.sql<{ key_hash: string }[]>`select key_hash from api_keys where id = ${made.body.id}`)[0]!.key_hash;
    const list = await stack.http.get("/api/api-keys", { auth });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ total: 2, hasMore: false });
    expect(list.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(["BI export", "demo key"]);
    // The last use is recorded without holding up the request it comes with.
    const one = await until(
      "the key's last use recorded",
      () => stack.http.get(`/api/api-keys/${made.body.id}`, { auth }),
      (r) => r.body.lastUsedAt !== null,
    );
    expect(one.body).toMatchObject({ id: made.body.id, status: "active", lastUsedAt: expect.any(String) });
    for (const text of [list.text, one.text]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key_hash);
    }

    const revoked = await stack.http.post(`/api/api-keys/${made.body.id}/revoke`, undefined, { auth });
    expect(revoked.body).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });
    expect(await stack.http.get("/api/templates", { auth: { bearer: key } })).toMatchObject({ status: 401 });

    const audit = await stack.db.sql<{ action: string; actor_type: string; actor_id: string }[]>`
      select action, actor_type, actor_id from audit_log where organization_id = ${t.organization.id} and resource_id = ${made.body.id} order by seq`;
    expect(audit.map((a) => [a.action, a.actor_type, a.actor_id])).toEqual([
      ["api_key.created", "user", t.users.admin.id],
      ["api_key.revoked", "user", t.users.admin.id],
    ]);
    const audited = await stack.db.sql<
      { everything: string }[]
    >`select json_agg(a)::text as everything from audit_log a where organization_id = ${t.organization.id}`;
    expect(audited[0]!.everything).not.toContain(key);
  });

  it("a key with credentials:manage creates a key with its own scopes, named as its creator", async () => {
    const t = await stack.tenant();
    const res = await stack.http.post("/api/api-keys", { name: "made by a key", scopes: ["actions:read"] }, { auth: { bearer: t.apiKey } });
    expect(res.status).toBe(201);
    const [demo] = await stack.db.sql<{ id: string }[]>`select id from api_keys where organization_id = ${t.organization.id} and name = 'demo key'`;
    expect(res.body.createdBy).toEqual({ type: "api_key", id: demo!.id });
    const whoami = await stack.http.get("/api/auth/whoami", { auth: { bearer: res.body.apiKey } });
    expect(whoami.body.apiKey).toMatchObject({ name: "made by a key", scopes: ["actions:read"] });
  });

  it("a key past its expiresAt is refused with 401 saying it expired, and is listed as expired", async () => {
    const t = await stack.tenant();
    const auth = await asAdmin(t);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const made = await stack.http.post("/api/api-keys", { name: "contractor", scopes: ["templates:read"], expiresAt }, { auth });
    expect(made.body).toMatchObject({ expiresAt, status: "active" });
    expect((await stack.http.get("/api/auth/whoami", { auth: { bearer: made.body.apiKey } })).body.apiKey.expiresAt).toBe(expiresAt);
    expect((await stack.http.get("/api/templates", { auth: { bearer: made.body.apiKey } })).status).toBe(200);
    // The database's clock decides; move the expiry into the past instead of waiting an hour.
    await stack.db.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${made.body.id}`;
    const refused = await stack.http.get("/api/templates", { auth: { bearer: made.body.apiKey } });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/^API key expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: create a new one$/);
    expect((await stack.http.get(`/api/api-keys/${made.body.id}`, { auth })).body.status).toBe("expired");
  });
});

describe("OAuth clients", () => {
  it("create, get a token and sync; rotate: the old secret works during the grace period, not after; revoke: tokens stop", async () => {
    const t = await stack.tenant();
    const auth = await asAdmin(t);
    const made = await stack.http.post("/api/oauth-clients", { name: "Workday", scopes: ["employees:sync"] }, { auth });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ name: "Workday", scopes: ["employees:sync"], status: "active", clientSecret: expect.stringMatching(/^ics_/) });
    const { clientId, clientSecret: first } = made.body as { clientId: string; clientSecret: string };
    const tok = await token(clientId, first);
    expect(tok.status).toBe(200);
    const synced = await stack.http.post(
      SYNC_PATH,
      { employees: [{ externalEmployeeId: "CRED-1", firstName: "Ada" }] },
      { auth: { bearer: tok.body.access_token! } },
    );
    expect(synced.status).toBe(200);

    const list = await stack.http.get("/api/oauth-clients", { auth });
    expect(list.body.oauthClients.map((c: { name: string }) => c.name)).toEqual(["Workday", "demo HR sync"]);
    expect(list.body.oauthClients[0].lastUsedAt).toEqual(expect.any(String));
    expect(list.text).not.toContain(first);

    const rotated = await stack.http.post(`/api/oauth-clients/${clientId}/rotate-secret`, undefined, { auth });
    expect(rotated.status).toBe(200);
    const second = rotated.body.clientSecret as string;
    expect(second).not.toBe(first);
    const graceEnds = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(graceEnds - Date.now()).toBeGreaterThan(0);
    expect(graceEnds - Date.now()).toBeLessThanOrEqual(GRACE_SECONDS * 1000 + 1000);
    expect((await token(clientId, second)).status).toBe(200);
    expect((await token(clientId, first)).status).toBe(200);
    await until(
      "the previous secret refused after the grace period",
      () => token(clientId, first),
      (r) => r.status === 401,
      (GRACE_SECONDS + 5) * 1000,
    );
    expect((await token(clientId, second)).status).toBe(200);
    expect((await stack.http.get(`/api/oauth-clients/${clientId}`, { auth })).body.previousSecretExpiresAt).toBeNull();

    const live = (await token(clientId, second)).body.access_token!;
    const revoked = await stack.http.post(`/api/oauth-clients/${clientId}/revoke`, undefined, { auth });
    expect(revoked.body).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });
    expect((await token(clientId, second)).body.error).toBe("invalid_client");
    expect((await stack.http.post(SYNC_PATH, { employees: [{ externalEmployeeId: "CRED-2" }] }, { auth: { bearer: live } })).status).toBe(401);
  });

  it("the admin CLI creates, lists, rotates and revokes with the same services (and their events)", async () => {
    const t = await stack.tenant();
    const admin = (...args: string[]) => {
      const r = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args, "--json"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: stack.env.DATABASE_URL, REDIS_URL: stack.env.REDIS_URL },
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const client = admin("create-oauth-client", "--org", t.organization.id, "--name", "from the CLI", "--scope", "scim");
    expect(client).toMatchObject({ name: "from the CLI", scopes: ["scim"], status: "active", clientSecret: expect.stringMatching(/^ics_/) });
    const rotated = admin("rotate-oauth-client-secret", "--org", t.organization.id, "--client-id", client.clientId, "--grace-seconds", "0");
    expect(rotated.previousSecretExpiresAt).toBeNull();
    expect((await token(client.clientId, client.clientSecret)).status).toBe(401);
    expect((await token(client.clientId, rotated.clientSecret)).status).toBe(200);
    const key = admin("create-api-key", "--org", t.organization.id, "--name", "cli key", "--scope", "audit:read", "--expires-at", "2099-01-01T00:00:00Z");
    expect(key).toMatchObject({ scopes: ["audit:read"], expiresAt: "2099-01-01T00:00:00.000Z", createdBy: { type: "admin_cli", id: null } });
    const listed = admin("list", "api-keys", "--org", t.organization.id);
    expect(listed.map((k: { name: string }) => k.name)).toEqual(["cli key", "demo key"]);
    expect(JSON.stringify(listed)).not.toContain(key.apiKey);
    expect(admin("revoke-api-key", "--org", t.organization.id, "--id", key.id)).toMatchObject({ id: key.id, status: "revoked" });
    const changes = await stack.db.sql<{ resource_type: string; change: string }[]>`
      select resource_type, change from change_events where organization_id = ${t.organization.id} and resource_type in ('api_key', 'oauth_client') order by seq`;
    expect(changes.map((c) => `${c.resource_type}.${c.change}`)).toEqual([
      "api_key.created",
      "oauth_client.created",
      "oauth_client.created",
      "oauth_client.rotated",
      "api_key.created",
      "api_key.revoked",
    ]);
  });
});

describe("events", () => {
  it("api_key.* and oauth_client.* reach a webhook receiver, signed, carrying the credential without its secret", async () => {
    const t = await stack.tenant();
    const path = `/credentials-${t.organization.id}`;
    const events = ["api_key.created", "api_key.revoked", "oauth_client.created", "oauth_client.rotated", "oauth_client.revoked"];
    const ep = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events }, { auth: { bearer: t.apiKey } });
    expect(ep.status, ep.text).toBe(201);
    await receiver.configure(path, { secrets: [ep.body.secret] });
    const auth = { bearer: t.apiKey };
    const key = (await stack.http.post("/api/api-keys", { name: "hooked", scopes: ["media:read"] }, { auth })).body;
    await stack.http.post(`/api/api-keys/${key.id}/revoke`, undefined, { auth });
    const client = (await stack.http.post("/api/oauth-clients", { name: "hooked client", scopes: ["employees:sync"] }, { auth })).body;
    const rotated = (await stack.http.post(`/api/oauth-clients/${client.clientId}/rotate-secret`, undefined, { auth })).body;
    await stack.http.post(`/api/oauth-clients/${client.clientId}/revoke`, undefined, { auth });

    const got = await until(
      "five credential events",
      () => receiver.received(path),
      (rs) => events.every((e) => rs.some((r) => r.body.type === e)),
    );
    for (const r of got) {
      expect(r.verified, r.body.type).toEqual([true]);
      const text = JSON.stringify(r.body);
      for (const secret of [key.apiKey, client.clientSecret, rotated.clientSecret]) expect(text).not.toContain(secret);
    }
    const created = got.find((r) => r.body.type === "api_key.created")!;
    expect(created.body.data).toMatchObject({ id: key.id, name: "hooked", scopes: ["media:read"], prefix: key.prefix });
    expect(got.find((r) => r.body.type === "oauth_client.rotated")!.body.data).toMatchObject({ id: client.id, clientId: client.clientId });
  });
});
