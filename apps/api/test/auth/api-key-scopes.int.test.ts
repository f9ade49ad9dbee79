import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_API_KEY_SCOPES, type ApiKeyScope } from "@insp/contracts";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { syncCaller, syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { smallBody, userToken } from "../fixtures/templates.fixtures.ts";

/**
 * Least-privilege API keys (docs/authentication.md, API key scopes): what a key says about itself,
 * the admin CLI's --scope, which webhook events a credential may register for, who reads employee
 * records, and the key named in the audit log. Every operation against a key lacking its scope is
 * in auth-matrix.security.int.test.ts.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
let stack: Stack;
let t: DemoSeed;
const key = async (scopes: readonly ApiKeyScope[]) =>
  (await createApiKey(stack.db.db, t.organization.id, `key ${scopes.join(" ")}`, undefined, undefined, scopes)).apiKey;
const hook = (events: string[]) => ({ url: "https://hooks.example.com/scopes", events });

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

describe("what a key may do", () => {
  it("whoami shows a key's name, prefix and scopes, and never a secret", async () => {
    const k = await key(["inspections:read", "media:read"]);
    const res = await stack.http.get("/api/auth/whoami", { auth: { bearer: k } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: "apiKey",
      organizationId: t.organization.id,
      apiKey: { name: "key inspections:read media:read", prefix: k.slice(0, 12), scopes: ["inspections:read", "media:read"] },
    });
    expect(res.text).not.toContain(k);
    expect((await stack.http.get("/api/auth/whoami", { auth: { bearer: t.apiKey } })).body.apiKey.scopes).toEqual(ALL_API_KEY_SCOPES);
    const token = await syncToken(stack, t);
    expect((await stack.http.get("/api/auth/whoami", { auth: { bearer: token } })).body).toMatchObject({
      kind: "client",
      client: { clientId: t.oauthClient.clientId, scopes: ["employees:sync"] },
    });
  });

  it("a read-only key reads and is refused writes, naming the scope", async () => {
    const k = await key(["templates:read"]);
    expect((await stack.http.get("/api/templates", { auth: { bearer: k } })).status).toBe(200);
    const res = await stack.http.post("/api/templates", smallBody(t, [{ text: "Q" }]), { auth: { bearer: k } });
    expect(res).toMatchObject({ status: 403, body: { error: "API key lacks the scope templates:write" } });
    expect((await stack.http.get("/api/inspections", { auth: { bearer: k } })).body).toEqual({ error: "API key lacks the scope inspections:read" });
  });

  it("npm run admin -- create-api-key --scope makes a key with those scopes; an unknown scope is refused", () => {
    const admin = (args: string[]) =>
      spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: stack.env.DATABASE_URL, REDIS_URL: stack.env.REDIS_URL },
      });
    const made = admin(["create-api-key", "--org", t.organization.id, "--name", "BI export", "--scope", "inspections:read", "--scope", "media:read", "--json"]);
    expect(made.status).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ name: "BI export", scopes: ["inspections:read", "media:read"], apiKey: expect.stringMatching(/^isk_/) });
    const bad = admin(["create-api-key", "--org", t.organization.id, "--scope", "everything"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe(`Error: --scope must be one of ${ALL_API_KEY_SCOPES.join(", ")} (got everything)`);
    const listed = admin(["list", "api-keys", "--org", t.organization.id, "--json"]);
    expect(JSON.parse(listed.stdout).find((k: { name: string }) => k.name === "BI export").scopes).toEqual(["inspections:read", "media:read"]);
  });

  it("keys made before scopes existed were given every scope, and the scopes added since (the migrations' lists are the contract's)", () => {
    const sql = readFileSync(`${root}drizzle/0006_api_key_scopes.sql`, "utf8");
    const first = sql
      .match(/ARRAY\[([^\]]*)\]/)![1]!
      .split(",")
      .map((s) => s.replace(/'/g, ""));
    // 0007: keys that read (write) inspections read (write) corrective actions too.
    const later = [...readFileSync(`${root}drizzle/0007_scores_logic_actions_location.sql`, "utf8").matchAll(/array_append\("scopes", '([^']+)'\)/g)].map(
      (m) => m[1]!,
    );
    expect(later).toEqual(["actions:read", "actions:write"]);
    // 0014: keys that held every scope there was before 0013 hold the directory's too.
    const directory = [...readFileSync(`${root}drizzle/0014_directory_over_http.sql`, "utf8").matchAll(/array_append\("scopes", '([^']+)'\)/g)].map(
      (m) => m[1]!,
    );
    expect(directory).toEqual(["directory:read", "directory:write"]);
    // 0019: and those that held every scope before it, the schedules' (docs/schedules.md).
    const schedules = [...readFileSync(`${root}drizzle/0019_scheduled_inspections.sql`, "utf8").matchAll(/array_append\("scopes", '([^']+)'\)/g)].map(
      (m) => m[1]!,
    );
    expect(schedules).toEqual(["schedules:read", "schedules:write"]);
    // credentials:manage (0013) is not given to keys that existed before it: a key made to read or
    // import could not make keys then, and does not learn to now (docs/authentication.md).
    // users:manage (docs/users.md) likewise: no migration gives it to existing keys; nor
    // employees:erase, which destroys personal data and is given only by choice (docs/erasure.md).
    const notBackfilled: string[] = ["credentials:manage", "users:manage", "employees:erase"];
    expect([...first, ...later, ...directory, ...schedules].sort()).toEqual(ALL_API_KEY_SCOPES.filter((s) => !notBackfilled.includes(s)).sort());
    expect(readFileSync(`${root}drizzle/0013_credentials_self_service.sql`, "utf8")).not.toContain("credentials:manage");
  });
});

describe("employee records reach only credentials allowed to read them", () => {
  it("registering for employee.* needs employees:read; template.* needs templates:read", async () => {
    const manager = await key(["webhooks:manage", "templates:read"]);
    const refused = await stack.http.post("/api/webhooks", hook(["template.created", "employee.created"]), { auth: { bearer: manager } });
    expect(refused).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope employees:read, which employee.created events need: they carry the employee itself" },
    });
    const noTemplates = await stack.http.post("/api/webhooks", hook(["template.created"]), { auth: { bearer: await key(["webhooks:manage"]) } });
    expect(noTemplates.body.error).toBe("API key lacks the scope templates:read, which template.created events need: they carry the template itself");
    const ok = await stack.http.post("/api/webhooks", hook(["template.created", "sync.request.completed"]), { auth: { bearer: manager } });
    expect(ok.status).toBe(201);
    // Adding employee events later is the same check.
    const patched = await stack.http.patch(`/api/webhooks/${ok.body.id}`, { events: ["employee.updated"] }, { auth: { bearer: manager } });
    expect(patched).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope employees:read, which employee.updated events need: they carry the employee itself" },
    });
    // Changing an endpoint also needs the right to receive the events it has: template.created here.
    const reader = await key(["webhooks:manage", "employees:read"]);
    expect(await stack.http.patch(`/api/webhooks/${ok.body.id}`, { events: ["employee.updated"] }, { auth: { bearer: reader } })).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope templates:read, which this endpoint's template.created events need: they carry the template itself" },
    });
    const both = await key(["webhooks:manage", "employees:read", "templates:read"]);
    expect((await stack.http.patch(`/api/webhooks/${ok.body.id}`, { events: ["employee.updated"] }, { auth: { bearer: both } })).status).toBe(200);
  });

  it("an admin user can register for template events but not for employee records", async () => {
    const login = await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password });
    const auth = { bearer: login.body.accessToken as string };
    expect((await stack.http.post("/api/webhooks", hook(["template.published"]), { auth })).status).toBe(201);
    expect(await stack.http.post("/api/webhooks", hook(["employee.deactivated"]), { auth })).toMatchObject({
      status: 403,
      body: { error: "employee.deactivated events carry employee records, which only an API key with the scope employees:read may receive" },
    });
  });

  it("the employees list and feed: a key with employees:read (and feeds:read) reads them, one without is refused", async () => {
    const synced = await (await syncCaller(stack, t)).sync([{ externalEmployeeId: "SCOPE-1", firstName: "Ada", lastName: "Lovelace" }]);
    const employeeId = synced.results[0].employeeId as string;
    const reader = await key(["employees:read", "feeds:read"]);
    expect((await stack.http.get(`/api/v1/employees/${employeeId}`, { auth: { bearer: reader } })).body).toMatchObject({
      externalEmployeeId: "SCOPE-1",
      firstName: "Ada",
    });
    const feed = await stack.http.get("/api/v1/feed/employees", { auth: { bearer: reader } });
    expect(feed.status).toBe(200);
    expect(JSON.stringify(feed.body)).toContain("SCOPE-1");
    const other = await key(ALL_API_KEY_SCOPES.filter((s) => s !== "employees:read"));
    expect((await stack.http.get("/api/v1/feed/employees", { auth: { bearer: other } })).body).toEqual({ error: "API key lacks the scope employees:read" });
    expect((await stack.http.get("/api/v1/employees", { auth: { bearer: other } })).status).toBe(403);
  });
});

describe("every operation on an endpoint needs the right to receive each of its events", () => {
  const keyOf = async (tenant: DemoSeed, scopes: readonly ApiKeyScope[]) => ({
    bearer: (await createApiKey(stack.db.db, tenant.organization.id, `key ${scopes.join(" ")}`, undefined, undefined, scopes)).apiKey,
  });
  const URL_WITH_TOKEN = "https://hooks.example.com/services/T0001/B0001/receiver-token";
  /** Every operation on an existing endpoint, each with a body that would change or send something. */
  const operations = (id: string) =>
    [
      ["GET", `/api/webhooks/${id}`, undefined],
      ["PATCH", `/api/webhooks/${id}`, { url: "https://attacker.example.net/hook" }],
      ["PATCH", `/api/webhooks/${id}`, { description: "mine now" }],
      ["POST", `/api/webhooks/${id}/rotate-secret`, undefined],
      ["GET", `/api/webhooks/${id}/deliveries`, undefined],
      ["POST", `/api/webhooks/${id}/replay`, { since: "2020-01-01T00:00:00Z" }],
      ["PATCH", `/api/webhooks/${id}`, { enabled: false }],
      ["DELETE", `/api/webhooks/${id}`, undefined],
    ] as const;

  /** An employee.created endpoint, made by a key that may receive its events. */
  async function employeeEndpoint(tenant: DemoSeed) {
    const owner = await keyOf(tenant, ["webhooks:manage", "employees:read"]);
    const made = await stack.http.post("/api/webhooks", { url: URL_WITH_TOKEN, events: ["employee.created"], description: "HR" }, { auth: owner });
    expect(made.status, made.text).toBe(201);
    return { owner, id: made.body.id as string };
  }

  /** What a refused caller could have changed: the row (secret included) and the audit entries. */
  const state = async (id: string) => ({
    row: (await stack.db.sql`select url, events, description, enabled, secret_enc, previous_secret_enc from webhook_endpoints where id = ${id}`)[0],
    audit: (await stack.db.sql`select action from audit_log where resource_id = ${id}::text order by seq`).map((r) => r.action),
    deliveries: (await stack.db.sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${id}`)[0]!.n,
  });

  it("an API key with webhooks:manage but not employees:read gets 403 naming the scope for each, and changes nothing", async () => {
    const tenant = await stack.tenant();
    const { id } = await employeeEndpoint(tenant);
    const before = await state(id);
    for (const scopes of [["webhooks:manage"], ALL_API_KEY_SCOPES.filter((s) => s !== "employees:read")] as ApiKeyScope[][]) {
      const auth = await keyOf(tenant, scopes);
      for (const [method, path, body] of operations(id)) {
        const res = await stack.http.request(method, path, { auth, body });
        expect({ op: `${method} ${path} ${JSON.stringify(body)}`, scopes, status: res.status, body: res.body }).toEqual({
          op: `${method} ${path} ${JSON.stringify(body)}`,
          scopes,
          status: 403,
          body: { error: "API key lacks the scope employees:read, which this endpoint's employee.created events need: they carry the employee itself" },
        });
      }
    }
    expect(await state(id)).toEqual(before);
  });

  it("an admin user gets 403 for each (employee records reach API keys only), and changes nothing", async () => {
    const tenant = await stack.tenant();
    const { id } = await employeeEndpoint(tenant);
    const before = await state(id);
    const auth = { bearer: await userToken(stack, tenant.users.admin) };
    for (const [method, path, body] of operations(id)) {
      const res = await stack.http.request(method, path, { auth, body });
      expect({ op: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
        op: `${method} ${path}`,
        status: 403,
        body: { error: "This endpoint's employee.created events carry employee records, which only an API key with the scope employees:read may receive" },
      });
    }
    expect(await state(id)).toEqual(before);
  });

  it("an endpoint with several event types needs each: the first missing one is named", async () => {
    const tenant = await stack.tenant();
    const all = await keyOf(tenant, ["webhooks:manage", "templates:read", "inspections:read"]);
    const made = await stack.http.post(
      "/api/webhooks",
      { url: URL_WITH_TOKEN, events: ["template.created", "inspection.created", "sync.request.completed"] },
      { auth: all },
    );
    expect(made.status).toBe(201);
    const templatesOnly = await keyOf(tenant, ["webhooks:manage", "templates:read"]);
    expect(await stack.http.post(`/api/webhooks/${made.body.id}/rotate-secret`, undefined, { auth: templatesOnly })).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope inspections:read, which this endpoint's inspection.created events need: they carry the inspection itself" },
    });
    expect((await stack.http.post(`/api/webhooks/${made.body.id}/rotate-secret`, undefined, { auth: all })).status).toBe(200);
    // sync.request.* carry counts only: an endpoint receiving nothing else is anyone's to manage.
    const counts = await stack.http.post("/api/webhooks", { url: URL_WITH_TOKEN, events: ["sync.request.completed"] }, { auth: all });
    expect(
      (
        await stack.http.request("PATCH", `/api/webhooks/${counts.body.id}`, {
          auth: await keyOf(tenant, ["webhooks:manage"]),
          body: { description: "counts" },
        })
      ).status,
    ).toBe(200);
  });

  it("the list shows every endpoint, but only the origin of the url of one the caller may not manage", async () => {
    const tenant = await stack.tenant();
    const { owner, id } = await employeeEndpoint(tenant);
    const listed = async (auth: { bearer: string }) => (await stack.http.get("/api/webhooks", { auth })).body.find((e: { id: string }) => e.id === id);
    expect(await listed(owner)).toMatchObject({ url: URL_WITH_TOKEN, events: ["employee.created"], description: "HR" });
    for (const auth of [await keyOf(tenant, ["webhooks:manage"]), { bearer: await userToken(stack, tenant.users.admin) }]) {
      const res = await stack.http.get("/api/webhooks", { auth });
      expect(res.text).not.toContain("receiver-token");
      expect(await listed(auth)).toMatchObject({ url: "https://hooks.example.com", events: ["employee.created"], description: "HR" });
    }
  });

  it("a key that may receive the events does every operation", async () => {
    const tenant = await stack.tenant();
    const { owner, id } = await employeeEndpoint(tenant);
    const expected = [200, 200, 200, 200, 200, 202, 200, 204];
    const got = [];
    for (const [method, path, body] of operations(id)) got.push((await stack.http.request(method, path, { auth: owner, body })).status);
    expect(got).toEqual(expected);
    const audit = (await state(id)).audit;
    expect(audit).toEqual(["webhook.created", "webhook.updated", "webhook.updated", "webhook.secret_rotated", "webhook.updated", "webhook.deleted"]);
  });
});

describe("the audit log names the key", () => {
  it("a change made with a scoped key is recorded with that key as its actor", async () => {
    const k = await createApiKey(stack.db.db, t.organization.id, "writer", undefined, undefined, ["templates:write"]);
    const made = await stack.http.post("/api/templates", smallBody(t, [{ text: "Q" }]), { auth: { bearer: k.apiKey } });
    expect(made.status).toBe(200);
    const audit = await stack.http.get(`/api/audit?resourceId=${made.body.template.id}`, { auth: { bearer: t.apiKey } });
    expect(audit.body.items.map((e: { action: string; actor: unknown }) => [e.action, e.actor])).toContainEqual([
      "template.created",
      { type: "api_key", id: k.id },
    ]);
  });
});
