import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@insp/core";
import { client, createTestDatabase, freePort, queuePrefix, redisUrl, startApi, startProcess, type RunningProcess, type TestDatabase } from "@insp/testing";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** The exit code, or "still running after N s" (the process is then stopped): for starts that must end by themselves. */
async function exitCode(proc: RunningProcess, ms: number): Promise<number | null | string> {
  const code = await Promise.race([proc.exited, new Promise<string>((r) => setTimeout(() => r(`still running after ${ms / 1000} s`), ms))]);
  if (typeof code === "string") await proc.stop(20_000);
  return code;
}

/** A port another program listens on (127.0.0.1): what a newcomer's other app on 3000 looks like to ours. */
async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}
const run = promisify(execFile);
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

describe("start-up and shutdown", () => {
  it("refuses to start with a clear message naming each bad setting", async () => {
    const proc = startProcess("apps/api/src/main.ts", { DATABASE_URL: "mysql://nope", PORT: "eighty", RATE_LIMIT_PER_MINUTE: "0" });
    const code = await proc.exited;
    expect(code).toBe(78);
    const out = proc.output();
    expect(out).toMatch(/DATABASE_URL: must be a URL starting with postgres:\/\//);
    expect(out).toMatch(/PORT: must be a whole number \(got "eighty"\)/);
    expect(out).toMatch(/RATE_LIMIT_PER_MINUTE: must be at least 1/);
  });

  it("a port another program listens on is one line naming the setting and exit 78, for the API and the worker", async () => {
    // Held on 127.0.0.1 while the apps ask for 0.0.0.0: the kernel refuses the wider address too.
    const held = await holdPort();
    try {
      const common = { DATABASE_URL: db.url, REDIS_URL: redisUrl(), QUEUE_PREFIX: queuePrefix() };
      for (const [script, env, setting] of [
        ["apps/api/src/main.ts", { PORT: String(held.port) }, "PORT"],
        ["apps/api/src/main.ts", { PORT: "0", METRICS_PORT: String(held.port) }, "METRICS_PORT"],
        ["apps/worker/src/main.ts", { HEALTH_PORT: String(held.port) }, "HEALTH_PORT"],
        ["apps/worker/src/main.ts", { METRICS_PORT: String(held.port) }, "METRICS_PORT"],
      ] as const) {
        const proc = startProcess(script, { ...common, ...env });
        // Before, the API logged "listening" and ran on with no listener at all: never exited.
        expect(await exitCode(proc, 30_000), `${script} with ${setting} taken:\n${proc.output()}`).toBe(78);
        expect(proc.output()).toContain(`${setting}=${held.port}: another program already listens on port ${held.port}`);
        expect(proc.output()).not.toMatch(/\n\s+at /); // no stack trace
      }
    } finally {
      await held.close();
    }
  });

  it("drains on SIGTERM and exits 0", async () => {
    const api = await startApi({ DATABASE_URL: db.url, REDIS_URL: redisUrl(), QUEUE_PREFIX: queuePrefix(), LOG_LEVEL: "info" });
    expect(await api.stop()).toBe(0);
    expect(api.output()).toMatch(/stopped/);
  });

  it("on SIGTERM, a sync request still waiting for its jobs is answered 202 with its status URL, not cut off", async () => {
    // No worker runs, so the jobs wait in Redis: the request is mid-wait when the API stops.
    const api = await startApi({ DATABASE_URL: db.url, REDIS_URL: redisUrl(), QUEUE_PREFIX: queuePrefix() });
    const t = await seedDemo(db.db);
    const http = client(api.baseUrl);
    const token = await http.request("POST", "/oauth/token", {
      rawBody: "grant_type=client_credentials",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${t.oauthClient.clientId}:${t.oauthClient.clientSecret}`).toString("base64")}`,
      },
    });
    const pending = http.post("/api/v1/sync/employees", { employees: [{ externalEmployeeId: "E-1" }] }, { auth: { bearer: token.body.access_token } });
    for (let i = 0; i < 50 && (await db.sql`select 1 from sync_requests where organization_id = ${t.organization.id}`).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const stopped = api.stop();
    const res = await pending;
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ requestId: expect.any(String), status: "processing" });
    expect(res.headers.get("location")).toBe(`/api/v1/sync/requests/${res.body.requestId}`);
    expect(await stopped).toBe(0);
  });
});

describe("npm start (the launcher)", () => {
  it("starts a worker again after it is killed, with the API left running; SIGTERM stops everything", async () => {
    const port = String(await freePort());
    const launcher = startProcess("apps/admin/src/start-all.ts", {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      QUEUE_PREFIX: queuePrefix(),
      PORT: port,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    });
    const readyPids = () => [...launcher.output().matchAll(/"pid":(\d+)[^\n]*"msg":"worker ready"/g)].map((m) => Number(m[1]));
    const waitFor = async (what: string, check: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 300; i++) {
        if (await Promise.resolve(check()).catch(() => false)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${what}:\n${launcher.output().slice(-3000)}`);
    };
    try {
      await waitFor("worker ready", () => readyPids().length === 1);
      await waitFor("API up", async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
      process.kill(readyPids()[0]!, "SIGKILL");
      await waitFor("worker started again", () => readyPids().length === 2);
      expect(launcher.output()).toMatch(/worker 1 exited \(SIGKILL\); restarting in 1 s/);
      expect(new Set(readyPids()).size).toBe(2);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).ok).toBe(true);
    } finally {
      expect(await launcher.stop(20_000)).toBe(0);
    }
  });

  it("with PORT taken by another program, says so in one line before starting anything, exit 78", async () => {
    const held = await holdPort();
    try {
      const launcher = startProcess("apps/admin/src/start-all.ts", {
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl(),
        QUEUE_PREFIX: queuePrefix(),
        PORT: String(held.port),
        LOG_LEVEL: "warn",
      });
      expect(await exitCode(launcher, 60_000), launcher.output()).toBe(78);
      expect(launcher.output().trim()).toBe(
        `Invalid configuration:\n  - PORT=${held.port}: another program already listens on port ${held.port}; stop it or choose another port`,
      );
    } finally {
      await held.close();
    }
  });

  it("when an app finds its port taken (here the API's METRICS_PORT), stops the others with the app's line, exit 78", async () => {
    const held = await holdPort();
    try {
      const launcher = startProcess("apps/admin/src/start-all.ts", {
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl(),
        QUEUE_PREFIX: queuePrefix(),
        PORT: String(await freePort()),
        METRICS_PORT: String(held.port),
        LOG_LEVEL: "warn",
      });
      expect(await exitCode(launcher, 60_000), launcher.output()).toBe(78);
      expect(launcher.output()).toContain(`METRICS_PORT=${held.port}: another program already listens on port ${held.port}`);
      expect(launcher.output()).toContain("api exited: configuration error; stopping the others");
    } finally {
      await held.close();
    }
  });
});

describe("admin CLI", () => {
  const admin = (...args: string[]) =>
    run(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: db.url },
    });

  it("seed-demo --json prints the documented shape, a new tenant on every call", async () => {
    const a = JSON.parse((await admin("seed-demo", "--json")).stdout);
    const b = JSON.parse((await admin("seed-demo", "--json")).stdout);
    expect(a.organization.id).not.toBe(b.organization.id);
    expect(a.apiKey).toMatch(/^isk_[A-Za-z0-9_-]{43}$/);
    expect(a.oauthClient).toEqual({ clientId: expect.stringMatching(/^icl_/), clientSecret: expect.stringMatching(/^ics_/) });
    expect(a.users.admin).toEqual({ id: expect.any(String), email: expect.any(String), password: expect.any(String) });
    expect(a.users.inspector).toEqual({ id: expect.any(String), email: expect.any(String), password: expect.any(String) });
    expect(a.sites.length).toBeGreaterThanOrEqual(2);
    expect(a.sites[0]).toEqual({ id: expect.any(String), name: expect.any(String), code: expect.any(String) });
    expect(a.groups.length).toBeGreaterThanOrEqual(2);
    expect(a.groups[0]).toEqual({ id: expect.any(String), name: expect.any(String), externalId: expect.any(String) });
    expect(a.roles).toEqual(["admin", "inspector", "site_manager", "FIELD_TECH"]);
    const inputTypes = a.responseTypes.map((r: { inputType: string }) => r.inputType);
    expect(inputTypes).toEqual(expect.arrayContaining(["SELECT", "TEXT", "NUMBER", "DATE", "BOOLEAN"]));
    const select = a.responseTypes.find((r: { inputType: string }) => r.inputType === "SELECT");
    expect(select.options.map((o: { label: string }) => o.label)).toEqual(["Yes", "No", "N/A"]);
    expect(a.assetTypes[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
  });

  it("creates and lists reference data, and never lists a secret", async () => {
    const org = JSON.parse((await admin("create-org", "--name", "Acme", "--json")).stdout);
    const key = JSON.parse((await admin("create-api-key", "--org", org.id, "--json")).stdout);
    await admin("create-role", "--org", org.id, "--name", "auditor");
    await admin("create-response-type", "--org", org.id, "--name", "Pass/Fail", "--input-type", "select", "--option", "Pass=pass", "--option", "Fail=fail");
    const types = JSON.parse((await admin("list", "response-types", "--org", org.id, "--json")).stdout);
    expect(types[0]).toMatchObject({
      name: "Pass/Fail",
      inputType: "SELECT",
      options: [
        { label: "Pass", value: "pass" },
        { label: "Fail", value: "fail" },
      ],
    });
    const keys = (await admin("list", "api-keys", "--org", org.id, "--json")).stdout;
    expect(keys).not.toContain(key.apiKey);
    expect(JSON.parse(keys)[0].prefix).toBe(key.apiKey.slice(0, 12));
    await admin("revoke-api-key", "--org", org.id, "--id", key.id);
    const client = JSON.parse((await admin("create-oauth-client", "--org", org.id, "--json")).stdout);
    await admin("revoke-oauth-client", "--org", org.id, "--client-id", client.clientId);
    const audited = await db.sql<
      { action: string; actor_type: string; resource_id: string }[]
    >`select action, actor_type, resource_id from audit_log where organization_id = ${org.id} order by seq`;
    // A new organization's known roles (docs/organization-administration.md, Roles), then the role made here, as the API would.
    const roles = audited.filter((r) => r.action === "role.created");
    expect(roles.map((r) => r.actor_type)).toEqual(Array(5).fill("admin_cli"));
    expect(audited.filter((r) => r.action !== "role.created").map((r) => [r.action, r.actor_type, r.resource_id])).toEqual([
      ["api_key.created", "admin_cli", key.id],
      ["response_type.created", "admin_cli", types[0].id],
      ["api_key.revoked", "admin_cli", key.id],
      ["oauth_client.created", "admin_cli", client.clientId],
      ["oauth_client.revoked", "admin_cli", client.clientId],
    ]);
    await expect(admin("create-site", "--org", "not-a-uuid", "--name", "x", "--code", "y")).rejects.toMatchObject({
      stderr: expect.stringMatching(/--org must be an organization id/),
    });
  });

  it("manages webhook endpoints: the secret once, never in a listing; bad events refused", async () => {
    const org = JSON.parse((await admin("create-org", "--name", "Hooks", "--json")).stdout);
    const ep = JSON.parse(
      (
        await admin(
          "create-webhook",
          "--org",
          org.id,
          "--url",
          "https://hooks.example.com/in",
          "--event",
          "employee.created",
          "--event",
          "sync.request.completed",
          "--json",
        )
      ).stdout,
    );
    expect(ep).toMatchObject({
      url: "https://hooks.example.com/in",
      events: ["employee.created", "sync.request.completed"],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = (await admin("list", "webhooks", "--org", org.id, "--json")).stdout;
    expect(JSON.parse(listed).map((x: { id: string }) => x.id)).toEqual([ep.id]);
    expect(listed).not.toContain(ep.secret);
    const rotated = JSON.parse((await admin("rotate-webhook-secret", "--org", org.id, "--id", ep.id, "--json")).stdout);
    expect(rotated.secret).toMatch(/^whsec_/);
    await expect(admin("create-webhook", "--org", org.id, "--url", "https://hooks.example.com/in", "--event", "nope")).rejects.toMatchObject({
      stderr: expect.stringMatching(/events\.0: must be one of/),
    });
    await expect(admin("create-webhook", "--org", org.id, "--url", "https://10.0.0.1/in", "--event", "employee.created")).rejects.toMatchObject({
      stderr: expect.stringMatching(/private address/),
    });
    expect(JSON.parse((await admin("delete-webhook", "--org", org.id, "--id", ep.id, "--json")).stdout)).toEqual({ deleted: true });
    expect(JSON.parse((await admin("list", "webhooks", "--org", org.id, "--json")).stdout)).toEqual([]);
  });
});
