import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { Redis } from "ioredis";
import { createOAuthClient, revokeOAuthClient, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { SYNC_PATH, syncCaller, syncToken, uniq } from "../fixtures/employee-sync.fixtures.ts";

let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack({ workers: 2 });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

const body = () => ({ employees: [{ externalEmployeeId: uniq().id }] });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** Claims as the service issues them (tokens.ts): issuer inspection-service, audience <issuer>:api. */
function claimsFor(seed: DemoSeed) {
  return { sub: seed.oauthClient.clientId, org: seed.organization.id, scope: "employees:sync", use: "client" };
}

async function sign(key: CryptoKey, kid: string, opts: { expiresAt?: number; issuedAt?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const { sub, ...rest } = claimsFor(t);
  return new SignJWT(rest)
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setIssuer("inspection-service")
    .setAudience("inspection-service:api")
    .setSubject(sub)
    .setIssuedAt(opts.issuedAt ?? now)
    .setExpirationTime(opts.expiresAt ?? now + 600)
    .sign(key);
}

describe("who may call the sync and read-back endpoints", () => {
  const endpoints = (): [string, string, unknown?][] => [
    ["POST", SYNC_PATH, body()],
    ["GET", "/api/v1/sync/requests/00000000-0000-4000-8000-000000000000"],
    ["GET", "/api/v1/employees"],
    ["GET", "/api/v1/employees/00000000-0000-4000-8000-000000000000"],
  ];

  it("answers 401 without credentials, with an API key (but reading employees back with one that may: api-key-scopes), with a user token and with garbage", async () => {
    const login = await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password });
    expect(login.status).toBe(200);
    for (const [method, path, payload] of endpoints()) {
      const keys = path.startsWith("/api/v1/employees") ? [] : [{ bearer: t.apiKey }, { basic: [t.apiKey, ""] as [string, string] }];
      for (const auth of [undefined, ...keys, { bearer: login.body.accessToken as string }, { bearer: "a.b.c" }, { header: "Token abc" }]) {
        const res = await stack.http.request(method, path, { auth: auth ?? null, body: payload });
        expect(res.status, `${method} ${path} ${JSON.stringify(auth)?.slice(0, 30)}`).toBe(401);
        expect(typeof res.body.error).toBe("string");
      }
    }
  });

  it("answers 401 for a tampered token, alg none, a foreign key, and an expired token", async () => {
    const good = await syncToken(stack, t);
    const other = await stack.tenant();
    const [header, payload, signature] = good.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const tampered = `${header}.${b64({ ...claims, org: other.organization.id })}.${signature}`;
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    const { kid } = JSON.parse(Buffer.from(header!, "base64url").toString());
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await sign(privateKey as CryptoKey, kid);
    // The service's own key (read from the database) with an expiry in the past.
    const [row] = await stack.db.sql`select private_jwk from signing_keys where kid = ${kid}`;
    const realKey = (await importJWK(row!.private_jwk as JWK, "ES256")) as CryptoKey;
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(realKey, kid, { issuedAt: now - 7200, expiresAt: now - 3600 });
    const valid = await sign(realKey, kid);
    expect((await stack.http.post(SYNC_PATH, body(), { auth: { bearer: valid } })).status).toBe(200); // the control
    for (const [name, token] of Object.entries({ tampered, none, foreign, expired })) {
      for (const [method, path, payload] of endpoints()) {
        const res = await stack.http.request(method, path, { auth: { bearer: token }, body: payload });
        expect(res.status, `${name} ${method} ${path}`).toBe(401);
      }
    }
  });

  it("answers 401 once the client is revoked, even with a token issued before", async () => {
    const other = await stack.tenant();
    const token = await syncToken(stack, other);
    expect((await stack.http.post(SYNC_PATH, body(), { auth: { bearer: token } })).status).toBe(200);
    await revokeOAuthClient(stack.db.db, other.organization.id, "admin_cli", other.oauthClient.clientId);
    expect((await stack.http.post(SYNC_PATH, body(), { auth: { bearer: token } })).status).toBe(401);
  });

  it("answers 403 for a client token without the employees:sync scope", async () => {
    const client = await createOAuthClient(stack.db.db, t.organization.id, "reporting", undefined, ["scim"]);
    const token = await syncToken(stack, { oauthClient: client });
    for (const [method, path, payload] of endpoints()) {
      const res = await stack.http.request(method, path, { auth: { bearer: token }, body: payload });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toMatch(/employees:sync/);
    }
  });
});

describe("tenancy", () => {
  it("keeps requests and employees of another organization out of reach (404, not listed)", async () => {
    const mine = await syncCaller(stack, t);
    const other = await stack.tenant();
    const theirs = await syncCaller(stack, other);
    const sameId = uniq().id;
    const created = await theirs.sync([{ externalEmployeeId: sameId, jobTitle: "Theirs" }]);
    const res = await theirs.post(body(), { headers: { prefer: "respond-async" } });
    expect((await mine.get(`/api/v1/sync/requests/${res.body.requestId}`)).status).toBe(404);
    expect((await mine.get(`/api/v1/sync/requests/${created.requestId}`)).status).toBe(404);
    expect((await mine.get(`/api/v1/employees/${created.results[0].employeeId}`)).status).toBe(404);
    // The same externalEmployeeId in my organization is another employee.
    const own = await mine.sync([{ externalEmployeeId: sameId, jobTitle: "Mine" }]);
    expect(own.results[0].status).toBe("CREATED");
    expect(own.results[0].employeeId).not.toBe(created.results[0].employeeId);
    const list = await mine.get(`/api/v1/employees?externalEmployeeId=${sameId}`);
    expect(list.body.employees.map((e: { jobTitle: string }) => e.jobTitle)).toEqual(["Mine"]);
    // A site or group of another organization is "not found" here.
    const foreignSite = other.sites[0]!.id;
    const { results } = await mine.sync([{ externalEmployeeId: uniq().id, sites: [{ id: foreignSite }] }]);
    expect(results[0].warnings).toEqual([`Site with id '${foreignSite}' not found, skipped`]);
  });
});

describe("existing accounts a sync may not take over", () => {
  it("an administrator's e-mail is that employee's error: the admin is not linked, renamed, disabled or e-mailed", async () => {
    const t2 = await stack.tenant();
    const api = await syncCaller(stack, t2);
    const admin = t2.users.admin;
    const [before] = await stack.db.sql`select email, username, name, disabled, password_hash, must_reset_password from users where id = ${admin.id}`;
    const e = uniq().id;
    const takeover = {
      externalEmployeeId: e,
      email: admin.email.toUpperCase(),
      firstName: "Mallory",
      userAccount: { username: "mallory", forcePasswordReset: true, sendWelcomeEmail: true },
    };
    const first = await api.sync([takeover]);
    expect(first.errors).toEqual([{ externalEmployeeId: e, message: "User with that e-mail is an administrator account and cannot be linked to an employee" }]);
    expect(first.results).toEqual([]);
    // Without userAccount the employee may carry the e-mail, but gets no account; INACTIVE then touches no one's login.
    const plain = await api.sync([{ externalEmployeeId: e, email: admin.email }]);
    expect(plain.results[0]).toMatchObject({ status: "CREATED", userId: null });
    const off = await api.sync([{ externalEmployeeId: e, email: admin.email, status: "INACTIVE", userAccount: {} }]);
    expect(off.results[0]).toMatchObject({ status: "UPDATED", userId: null });
    expect((await api.sync([takeover])).errors).toHaveLength(1);
    const [after] = await stack.db.sql`select email, username, name, disabled, password_hash, must_reset_password from users where id = ${admin.id}`;
    expect(after).toEqual(before);
    const [links] = await stack.db.sql`select count(*)::int as n from employees where user_id = ${admin.id}`;
    expect(links!.n).toBe(0);
    const [mails] = await stack.db.sql`select count(*)::int as n from mail_outbox where organization_id = ${t2.organization.id}`;
    expect(mails!.n).toBe(0);
    expect((await stack.http.post("/api/auth/login", { email: admin.email, password: admin.password })).status).toBe(200);
  });

  it("a disabled account is linked but stays disabled, also when the same employee is sent again", async () => {
    const t2 = await stack.tenant();
    const api = await syncCaller(stack, t2);
    const user = t2.users.inspector;
    await stack.db.sql`update users set disabled = true where id = ${user.id}`;
    const employee = { externalEmployeeId: uniq().id, email: user.email, userAccount: {} };
    const { results } = await api.sync([employee]);
    expect(results[0]).toMatchObject({ status: "CREATED", userId: user.id });
    await api.sync([{ ...employee, jobTitle: "Again" }]);
    expect((await api.get(`/api/v1/employees/${results[0].employeeId}`)).body).toMatchObject({ jobTitle: "Again", accountEnabled: false });
    expect((await stack.http.post("/api/auth/login", { email: user.email, password: user.password })).status).toBe(401);
  });
});

describe("what reaches Redis", () => {
  it("job payloads carry ids only: no employee data, no e-mail", async () => {
    const api = await syncCaller(stack, t);
    const e = uniq();
    // A completed job is removed at once; one whose employee fails a rule stays (failed), so
    // what Redis was given can be read back.
    const { requestId } = await api.sync([
      { externalEmployeeId: e.id, email: e.email, firstName: "Secret", roles: ["site_manager"], userAccount: { forcePasswordReset: true } },
    ]);
    const redis = new Redis(stack.env.REDIS_URL!);
    try {
      const keys = await redis.keys(`${stack.env.QUEUE_PREFIX}:employee-sync:${requestId}_*`);
      const hashes = keys.filter((k) => /_\d+$/.test(k));
      expect(hashes.length).toBe(1);
      expect(await redis.hget(hashes[0]!, "failedReason")).toMatch(/site_manager/);
      const data = JSON.parse((await redis.hget(hashes[0]!, "data"))!);
      expect(Object.keys(data).sort()).toEqual(["itemId", "organizationId", "requestId"]);
      const dump = JSON.stringify(await redis.hgetall(hashes[0]!));
      expect(dump).not.toContain(e.email);
      expect(dump).not.toContain("Secret");
    } finally {
      redis.disconnect();
    }
  });
});
