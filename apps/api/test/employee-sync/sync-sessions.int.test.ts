import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, startWorker, until, type Stack } from "@insp/testing";
import { syncCaller, type SyncCaller } from "../fixtures/employee-sync.fixtures.ts";
import { PATCH_OP, scimCaller } from "../fixtures/scim.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  // The guard's defaults (5 %, 10); a short synchronous wait, so a commit whose worker is away answers 202 soon.
  stack = await startStack({ workers: 1, env: { SYNC_WAIT_SECONDS: "3" } });
});
afterAll(() => stack?.stop());

const SESSIONS = "/api/v1/sync/sessions";
const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, "0")}`);

/** A tenant with `n` ACTIVE employees (the first five with accounts and a group), their ids, and its sync caller. */
async function population(n: number, extra: (id: string, i: number, t: DemoSeed) => Record<string, unknown> = () => ({})) {
  const t = await stack.tenant();
  const api = await syncCaller(stack, t);
  const all = ids(n, `P${t.organization.id.slice(0, 4)}`);
  for (let i = 0; i < all.length; i += 500) {
    await api.sync(
      all.slice(i, i + 500).map((id, j) => ({
        externalEmployeeId: id,
        firstName: "Emp",
        lastName: id,
        email: `${id.toLowerCase()}@example.test`,
        ...(i + j < 5 ? { userAccount: {}, groups: [{ groupName: t.groups[0]!.name }] } : {}),
        ...extra(id, i + j, t),
      })),
    );
  }
  return { t, api, all };
}

const status = async (t: DemoSeed, externalIds: string[]) =>
  Object.fromEntries(
    (
      await stack.db.sql<
        { external_employee_id: string; status: string }[]
      >`select external_employee_id, status from employees where organization_id = ${t.organization.id} and external_employee_id = any(${externalIds})`
    ).map((r) => [r.external_employee_id, r.status]),
  );

async function open(api: SyncCaller, scope?: unknown) {
  const res = await stack.http.post(SESSIONS, scope === undefined ? {} : { scope }, { auth: { bearer: api.token } });
  expect(res.status, res.text).toBe(201);
  return res.body.sessionId as string;
}
const send = (api: SyncCaller, sessionId: string, externalIds: string[], extra: Record<string, unknown> = {}) =>
  api.post({ employees: externalIds.map((id) => ({ externalEmployeeId: id, ...extra })) }, { query: `sessionId=${sessionId}` });
const commit = (api: SyncCaller, sessionId: string, query = "") =>
  stack.http.post(`${SESSIONS}/${sessionId}/commit${query}`, undefined, { auth: { bearer: api.token } });

describe("snapshot sync sessions", () => {
  it("a commit deactivates every ACTIVE employee no batch named (account disabled, assignments removed) and nobody else", async () => {
    const { t, api, all } = await population(30);
    const sessionId = await open(api);
    const got = await stack.http.get(`${SESSIONS}/${sessionId}`, { auth: { bearer: api.token } });
    expect(got.body).toMatchObject({
      sessionId,
      status: "open",
      scope: {},
      batches: 0,
      employeesSeen: 0,
      committedAt: null,
      requestId: null,
      threshold: { percent: 5, min: 10 },
    });
    expect(Date.parse(got.body.expiresAt) - Date.parse(got.body.createdAt)).toBe(24 * 3600_000);

    // Two batches name 29 of 30 (all[0], the one with an account, is absent); an invalid record still counts as present.
    expect((await send(api, sessionId, all.slice(1, 20))).status).toBe(200);
    const second = await api.post(
      { employees: [...all.slice(20, 29).map((id) => ({ externalEmployeeId: id })), { externalEmployeeId: all[29], email: "not an e-mail" }] },
      { query: `sessionId=${sessionId}` },
    );
    expect(second.body.errors).toEqual([{ externalEmployeeId: all[29], message: "Invalid email format" }]);

    const done = await commit(api, sessionId);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({
      sessionId,
      status: "committed",
      batches: 2,
      employeesSeen: 29,
      requestId: expect.any(String),
      committedAt: expect.any(String),
    });
    expect(done.body.deactivated).toEqual([{ employeeId: expect.any(String), externalEmployeeId: all[0], displayName: `Emp ${all[0]}` }]);
    const states = await status(t, all);
    expect(states[all[0]!]).toBe("INACTIVE");
    expect(Object.values(states).filter((s) => s === "ACTIVE")).toHaveLength(29);
    const [gone] = await stack.db.sql<{ disabled: boolean; groups: number }[]>`
      select u.disabled, (select count(*)::int from employee_groups g where g.employee_id = e.id) as groups
      from employees e join users u on u.id = e.user_id where e.id = ${done.body.deactivated[0].employeeId}`;
    expect(gone).toEqual({ disabled: true, groups: 0 });
    // Through the sync pipeline: its request and the change log show the deactivation.
    const request = await api.get(`/api/v1/sync/requests/${done.body.requestId}`);
    expect(request.body).toMatchObject({
      status: "completed",
      total: 1,
      syncBatchId: `session:${sessionId}`,
      results: [{ externalEmployeeId: all[0], status: "UPDATED" }],
    });
    // A feed shows a change once every older transaction of this database has ended: poll.
    const deactivations = await until(
      "the feed's deactivation",
      async () =>
        (await api.get("/api/v1/feed/employees?limit=500")).body.items
          .filter((i: { change: string }) => i.change === "deactivated")
          .map((i: { resource: { externalEmployeeId: string } }) => i.resource.externalEmployeeId),
      (d: string[]) => d.length > 0,
    );
    expect(deactivations).toEqual([all[0]]);

    // A committed session takes no more batches; a commit sent again (a lost answer, a retry) gets the same answer.
    expect(await send(api, sessionId, [all[1]!])).toMatchObject({
      status: 409,
      body: { error: `Sync session ${sessionId} is committed; batches and commits need an open session` },
    });
    const again = await commit(api, sessionId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(done.body);
  });

  it("the deletion guard quarantines a large deactivation: nothing changes until an admin approves (CLI) what is still absent", async () => {
    const { t, api, all } = await population(40);
    const sessionId = await open(api);
    await send(api, sessionId, all.slice(20));
    // The dry run lists the same, changes nothing and leaves the session open.
    const preview = await commit(api, sessionId, "?dryRun=true");
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ status: "open", dryRun: true, activeInScope: 40, wouldQuarantine: true, threshold: { percent: 5, min: 10 } });
    expect(preview.body.wouldDeactivate.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual(all.slice(0, 20));

    const held = await commit(api, sessionId);
    expect(held.status).toBe(202);
    expect(held.body).toMatchObject({ status: "quarantined", activeInScope: 40 });
    expect(held.body.wouldDeactivate).toHaveLength(20);
    expect((await commit(api, sessionId)).body).toEqual(held.body); // the same quarantine when sent again
    expect(Object.values(await status(t, all)).every((s) => s === "ACTIVE")).toBe(true);
    // Only an administrator approves: the HR system's own token cannot, nor can a non-admin user.
    expect((await stack.http.post(`${SESSIONS}/${sessionId}/approve`, undefined, { auth: { bearer: api.token } })).status).toBe(401);
    const login = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
    expect(await stack.http.post(`${SESSIONS}/${sessionId}/approve`, undefined, { auth: { bearer: login.body.accessToken } })).toMatchObject({
      status: 403,
      body: { error: "Only admin users can approve sync sessions" },
    });
    expect(await send(api, sessionId, [all[0]!])).toMatchObject({
      status: 409,
      body: { error: `Sync session ${sessionId} is quarantined; batches and commits need an open session` },
    });

    // Meanwhile one of them is terminated by a plain sync: the approval leaves it as it is.
    await api.sync([{ externalEmployeeId: all[0], status: "TERMINATED" }]);
    const cli = await runAdmin(["approve-sync-session", "--org", t.organization.id, "--id", sessionId, "--json"]);
    expect(cli.code, cli.output).toBe(0);
    const approved = JSON.parse(cli.stdout);
    expect(approved).toMatchObject({ sessionId, status: "committed" });
    expect(approved.deactivated.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual(all.slice(1, 20));
    const states = await status(t, all);
    expect(all.slice(1, 20).every((id) => states[id] === "INACTIVE")).toBe(true);
    expect(states[all[0]!]).toBe("TERMINATED");
    expect(all.slice(20).every((id) => states[id] === "ACTIVE")).toBe(true);
    const audit = await stack.http.get(`/api/audit?resourceId=${sessionId}`, { auth: { bearer: t.apiKey } });
    expect(audit.body.items.map((i: { action: string; actor: { type: string } }) => [i.action, i.actor.type])).toEqual([
      ["sync_session.approved", "admin_cli"],
      ["sync_session.quarantined", "oauth_client"],
    ]);
  });

  it("a quarantined session can be cancelled (nobody is deactivated), and an API key can approve another", async () => {
    const { t, api, all } = await population(40);
    const first = await open(api);
    await send(api, first, all.slice(25));
    expect((await commit(api, first)).body.status).toBe("quarantined");
    const cancelled = await stack.http.post(`${SESSIONS}/${first}/cancel`, undefined, { auth: { bearer: t.apiKey } });
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    expect((await stack.http.post(`${SESSIONS}/${first}/approve`, undefined, { auth: { bearer: t.apiKey } })).body).toEqual({
      error: `Sync session ${first} is cancelled; only a quarantined session can be approved`,
    });
    expect(await commit(api, first)).toMatchObject({
      status: 409,
      body: { error: `Sync session ${first} is cancelled; batches and commits need an open session` },
    });
    expect(Object.values(await status(t, all)).every((s) => s === "ACTIVE")).toBe(true);

    const second = await open(api);
    await send(api, second, all.slice(25));
    await commit(api, second);
    const approved = await stack.http.post(`${SESSIONS}/${second}/approve`, undefined, { auth: { bearer: t.apiKey } });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.deactivated).toHaveLength(25);
  });

  it("a scope limits who a commit may deactivate: a department, a site, a metadata key", async () => {
    const { t, api, all } = await population(30, (_id, i, tenant) => ({
      department: i < 10 ? "Warehouse" : "Office",
      metadata: { source: i % 2 === 0 ? "workday" : "manual" },
      ...(i >= 20 ? { sites: [{ id: tenant.sites[0]!.id }] } : {}),
    }));
    // Warehouse (0-9): the session names 0-7, so 8 and 9 go; Office stays whatever it sent.
    const byDept = await open(api, { department: "warehouse" });
    await send(api, byDept, all.slice(0, 8));
    expect((await commit(api, byDept)).body.deactivated.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual(all.slice(8, 10));
    // The site (20-29): names 20-28, so 29 goes.
    const bySite = await open(api, { siteId: t.sites[0]!.id });
    await send(api, bySite, all.slice(20, 29));
    expect((await commit(api, bySite)).body.deactivated.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual([all[29]]);
    // metadata.source = workday: the even indexes. Name them all but 10 and 12 (and 8, which is INACTIVE now: a record would make it ACTIVE again).
    const byMeta = await open(api, { metadata: { key: "source", value: "workday" } });
    await send(
      api,
      byMeta,
      all.filter((_, i) => i % 2 === 0 && ![8, 10, 12].includes(i)),
    );
    expect((await commit(api, byMeta)).body.deactivated.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual([all[10], all[12]]);
    const states = await status(t, all);
    expect(all.filter((id) => states[id] === "INACTIVE").sort()).toEqual([all[8], all[9], all[10], all[12], all[29]].sort());

    expect((await stack.http.post(SESSIONS, { scope: { siteId: "00000000-0000-4000-8000-000000000000" } }, { auth: { bearer: api.token } })).body).toEqual({
      error: "scope.siteId '00000000-0000-4000-8000-000000000000' is not a site of your organization",
    });
    expect((await stack.http.post(SESSIONS, { scope: { team: "x" } }, { auth: { bearer: api.token } })).status).toBe(400);
  });

  it("batches of one session sent at the same time are all recorded", async () => {
    const { api, all } = await population(40);
    const sessionId = await open(api);
    const answers = await Promise.all([0, 10, 20, 30].map((from) => send(api, sessionId, all.slice(from, from + 10))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const got = await stack.http.get(`${SESSIONS}/${sessionId}`, { auth: { bearer: api.token } });
    expect(got.body).toMatchObject({ status: "open", batches: 4, employeesSeen: 40 });
  });

  it("two sessions of one organization cannot commit at the same time, a late deactivation leaves alone whoever changed, and an expired session takes nothing", async () => {
    const { t, api, all } = await population(300);
    const [a, b] = [await open(api), await open(api)];
    await send(api, a, all.slice(11));
    await send(api, b, all.slice(0, 289));
    // Without a worker, a's deactivations stay pending: a answers 202 after the wait, b must wait its turn.
    await stack.workers[0]!.stop();
    const first = await commit(api, a);
    expect(first.status).toBe(202);
    expect(first.body.status).toBe("committing");
    expect(first.headers.get("location")).toBe(`${SESSIONS}/${a}`);
    expect(await commit(api, b)).toMatchObject({
      status: 409,
      body: { error: `Another sync session of this organization (${a}) is still deactivating its employees; commit again when it is done` },
    });
    // While a's deactivations wait for a worker, the identity provider changes all[1]: it stays ACTIVE.
    const idp = await scimCaller(stack, t);
    const [user] = (await idp.call("GET", `/Users?filter=${encodeURIComponent(`externalId eq "${all[1]}"`)}`)).body.Resources;
    expect(
      (await idp.call("PATCH", `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Returned" }] })).status,
    ).toBe(200);
    stack.workers[0] = await startWorker(stack.env);
    await until(
      "session a committed",
      async () => (await stack.http.get(`${SESSIONS}/${a}`, { auth: { bearer: api.token } })).body.status,
      (st) => st === "committed",
    );
    const states = await status(t, all.slice(0, 11));
    expect(states[all[1]!]).toBe("ACTIVE");
    expect(Object.values(states).filter((st) => st === "INACTIVE")).toHaveLength(10);
    const applied = await api.get(`/api/v1/sync/requests/${first.body.requestId}`);
    expect(applied.body.results.find((r: { externalEmployeeId: string }) => r.externalEmployeeId === all[1])).toMatchObject({
      status: "UPDATED",
      warnings: ["Left as it is: the employee was no longer ACTIVE, or was changed after the session's commit"],
    });
    const second = await commit(api, b);
    expect(second.status, second.text).toBe(200);
    expect(second.body.deactivated.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual(all.slice(289));

    const late = await open(api);
    await stack.db.sql`update sync_sessions set expires_at = now() - interval '1 minute' where id = ${late}`;
    expect(await send(api, late, [all[0]!])).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(new RegExp(`^Sync session ${late} has expired`)) },
    });
    expect((await commit(api, late)).status).toBe(409);
    expect((await stack.http.get(`${SESSIONS}/${late}`, { auth: { bearer: t.apiKey } })).body.status).toBe("expired");
  });

  it("belongs to its organization: another tenant's session is a 404 everywhere; a dry-run batch cannot join one", async () => {
    const { api } = await population(3);
    const other = await stack.tenant();
    const theirs = await syncCaller(stack, other);
    const sessionId = await open(api);
    expect((await send(theirs, sessionId, ["X-1"])).body).toEqual({ error: `Sync session ${sessionId} not found` });
    expect((await commit(theirs, sessionId)).status).toBe(404);
    expect((await stack.http.get(`${SESSIONS}/${sessionId}`, { auth: { bearer: other.apiKey } })).status).toBe(404);
    expect((await stack.http.post(`${SESSIONS}/${sessionId}/cancel`, undefined, { auth: { bearer: other.apiKey } })).status).toBe(404);
    expect((await send(api, "not-a-session", ["X-1"])).status).toBe(404);
    expect(await api.post({ employees: [{ externalEmployeeId: "X-1" }] }, { query: `sessionId=${sessionId}&dryRun=true` })).toMatchObject({ status: 400 });
    expect((await stack.http.post(SESSIONS, {}, { auth: { bearer: other.apiKey } })).status).toBe(401);
  });
});

/** Runs the admin CLI against this file's database and queues. */
function runAdmin(args: string[]): Promise<{ code: number | null; stdout: string; output: string }> {
  const root = fileURLToPath(new URL("../../../../", import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...stack.env, LOG_LEVEL: "warn" },
    });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (d) => ((stdout += d), (output += d)));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, stdout, output }));
  });
}
