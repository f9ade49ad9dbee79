import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword, type DemoSeed } from "@insp/core";
import { startApi, startStack, until, type Stack } from "@insp/testing";

// The queue dashboard at /admin/queues (docs/operations.md, Metrics, dashboards and tracing): operator Basic
// auth only, nothing without it, and bull-board's API retrying and cleaning real jobs.

const USER = "ops";
const PASSWORD = "correct horse battery staple";
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const OPERATOR = basic(USER, PASSWORD);

let stack: Stack;
let tenant: DemoSeed;
let hash: string;

const call = async (method: string, path: string, authorization?: string) => {
  const res = await fetch(`${stack.api.baseUrl}/admin/queues${path}`, { method, headers: authorization ? { authorization } : {} });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

beforeAll(async () => {
  // The hash comes from the admin CLI, the password through stdin.
  const out = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", "hash-password"], {
    cwd: root,
    input: `${PASSWORD}\n`,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(out.status, out.stderr).toBe(0);
  hash = out.stdout.trim();
  stack = await startStack({ env: { ADMIN_DASHBOARD_USER: USER, ADMIN_DASHBOARD_PASSWORD_HASH: hash, AUTH_FAILURES_PER_MINUTE: "40" } });
  tenant = await stack.tenant();
});
afterAll(() => stack?.stop());

describe("admin hash-password", () => {
  it("prints an argon2id hash of the password read from stdin", async () => {
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect(await verifyPassword(hash, `${PASSWORD}!`)).toBe(false);
  });
});

describe("/admin/queues", () => {
  it("opens for the operator's Basic credentials", async () => {
    const page = await call("GET", "/", OPERATOR);
    expect(page.status).toBe(200);
    expect(page.text).toContain("/admin/queues");
    expect(page.headers.get("x-powered-by")).toBeNull();
    expect((await call("GET", "", OPERATOR)).status).toBe(200);
    const api = await call("GET", "/api/queues", OPERATOR);
    expect(api.status).toBe(200);
    const names = JSON.parse(api.text).queues.map((q: { name: string }) => q.name);
    expect(names.sort()).toEqual(["employee-sync", "inspection-export", "inspection-import", "inspection-report", "mail", "webhook"]);
  });

  it("answers 401 with a Basic challenge and nothing of the dashboard to anyone else, tenants' credentials included", async () => {
    const refused = [
      undefined,
      basic(USER, "wrong password here"),
      basic("root", PASSWORD),
      basic(USER, ""),
      `Bearer ${tenant.apiKey}`,
      basic(tenant.apiKey, ""),
      basic(tenant.users.admin.email, tenant.users.admin.password),
      "Basic !!!",
    ];
    for (const authorization of refused) {
      for (const path of ["/", "/api/queues", "/static/js/main.js"]) {
        const res = await call("GET", path, authorization);
        expect(res.status, `${authorization} ${path}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="queues"/);
        expect(res.text).not.toMatch(/bull|<html|"queues"/i);
      }
    }
    expect((await call("PUT", "/api/queues/mail/clean/completed")).status).toBe(401);
  });

  it("lists a failed job, retries it, and cleans completed jobs, through bull-board's API", async () => {
    const connection = new Redis(stack.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue("mail", { connection, prefix: stack.env.QUEUE_PREFIX });
    // No worker process here: a worker of the test's own fails one job and completes another.
    const worker = new Worker(
      "mail",
      async (job) => {
        if (job.data.fail) throw new Error("refused by the test");
        return "ok";
      },
      { connection: connection.duplicate(), prefix: stack.env.QUEUE_PREFIX },
    );
    try {
      const failed = await queue.add("mail", { fail: true }, { attempts: 1 });
      const done = await queue.add("mail", { fail: false });
      await until(
        "both jobs finished",
        async () => [await failed.getState(), await done.getState()],
        (s) => s[0] === "failed" && s[1] === "completed",
      );
      await worker.close();

      const list = await call("GET", "/api/queues?activeQueue=mail&status=failed&page=1&jobsPerPage=10", OPERATOR);
      const mail = JSON.parse(list.text).queues.find((q: { name: string }) => q.name === "mail");
      expect(mail.counts.failed).toBe(1);
      expect(mail.jobs.map((j: { id: string }) => j.id)).toEqual([failed.id]);
      expect(mail.jobs[0].failedReason).toBe("refused by the test");

      expect((await call("PUT", `/api/queues/mail/${failed.id}/retry`, OPERATOR)).status).toBe(204);
      expect(await failed.getState()).toBe("waiting");

      // bull-board cleans jobs finished more than 5 s ago.
      await until(
        "completed jobs cleaned",
        async () => (await call("PUT", "/api/queues/mail/clean/completed", OPERATOR), await queue.getJobCounts("completed")),
        (c) => c.completed === 0,
        15_000,
      );
      expect(await done.getState()).toBe("unknown");
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it("keeps adding jobs, rewriting their data and obliterating queues closed", async () => {
    expect((await call("POST", "/api/queues/mail/add", OPERATOR)).status).toBe(403);
    expect((await call("PATCH", "/api/queues/mail/1/update-data", OPERATOR)).status).toBe(403);
    expect((await call("PUT", "/api/queues/mail/obliterate", OPERATOR)).status).toBe(403);
    // Every spelling the board itself would take (letter case, a trailing slash) is refused too.
    expect((await call("POST", "/API/Queues/mail/ADD/", OPERATOR)).status).toBe(403);
    expect((await call("PUT", "/api/queues/mail/obliterate/", OPERATOR)).status).toBe(403);
    expect((await call("PATCH", "/api/queues/mail/1/Update-Data", OPERATOR)).status).toBe(403);
  });

  it("is not there (404) when the operator settings are not set", async () => {
    const api = await startApi({ ...stack.env, ADMIN_DASHBOARD_USER: "", ADMIN_DASHBOARD_PASSWORD_HASH: "" });
    try {
      const res = await fetch(`${api.baseUrl}/admin/queues`, { headers: { authorization: OPERATOR } });
      expect(res.status).toBe(404);
    } finally {
      await api.stop();
    }
  });

  // Last: it uses up this address's failed-authentication allowance.
  it("counts failed attempts toward the per-address limit (AUTH_FAILURES_PER_MINUTE)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45 && statuses.at(-1) !== 429; i++) statuses.push((await call("GET", "/", basic(USER, `guess ${i}`))).status);
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([401]));
    expect((await call("GET", "/", OPERATOR)).status).toBe(429);
  });
});
