import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { employees, users } from "@insp/db/schema";
import { hashPassword } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { countRows, syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 2 });
});
afterAll(() => stack?.stop());

const PASSWORD = "correct horse battery staple";

describe("POST /api/v1/sync/employees: creating and updating", () => {
  it("creates an employee with roles, groups, sites and a user account (200, CREATED, ids, no warnings)", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const body = await api.sync(
      [
        {
          externalEmployeeId: e.id,
          firstName: "Ada",
          lastName: "Lovelace",
          email: e.email,
          phone: "+44 20 7946 0000",
          jobTitle: "Engineer",
          department: "Maintenance",
          supervisor: { name: "Charles Babbage", email: "cb@example.test" },
          hireDate: "2024-03-01",
          metadata: { costCenter: "CC-1", level: 3 },
          roles: ["inspector", "FIELD_TECH"],
          groups: [{ groupName: "Maintenance", role: "lead" }, { externalGroupId: "grp-safety" }],
          sites: [{ id: t.sites[0]!.id, role: "supervisor" }],
          userAccount: {},
        },
      ],
      { syncBatchId: "batch-1" },
    );
    expect(body.syncBatchId).toBe("batch-1");
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.errors).toEqual([]);
    expect(body.results).toHaveLength(1);
    const r = body.results[0];
    expect(r).toMatchObject({ externalEmployeeId: e.id, status: "CREATED", warnings: [] });
    expect(r.employeeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.userId).toMatch(/^[0-9a-f-]{36}$/);

    const detail = await api.get(`/api/v1/employees/${r.employeeId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: r.employeeId,
      externalEmployeeId: e.id,
      status: "ACTIVE",
      displayName: "Ada Lovelace",
      email: e.email,
      jobTitle: "Engineer",
      supervisor: { name: "Charles Babbage", email: "cb@example.test" },
      hireDate: "2024-03-01",
      terminationDate: null,
      metadata: { costCenter: "CC-1", level: 3 },
      userId: r.userId,
      accountEnabled: true,
      roles: ["FIELD_TECH", "inspector"],
    });
    expect(detail.body.groups).toEqual([
      { id: t.groups[0]!.id, name: "Maintenance", externalGroupId: "grp-maintenance", memberRole: "lead" },
      { id: t.groups[1]!.id, name: "Safety Team", externalGroupId: "grp-safety", memberRole: null },
    ]);
    expect(detail.body.sites).toEqual([{ id: t.sites[0]!.id, name: "Main Plant", code: "MAIN", siteRole: "supervisor" }]);
    // The username defaults to the e-mail; the account has no password until one is set.
    const [user] = await stack.db.db.select().from(users).where(eq(users.id, r.userId));
    expect(user).toMatchObject({
      organizationId: t.organization.id,
      email: e.email,
      username: e.email,
      name: "Ada Lovelace",
      disabled: false,
      passwordHash: null,
    });
  });

  it("sending the same batch again answers UPDATED for all and changes nothing", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 5 }, (_, i) => {
      const e = uniq(`R${i}`);
      return {
        externalEmployeeId: e.id,
        firstName: `N${i}`,
        email: e.email,
        roles: ["inspector"],
        groups: [{ groupName: "Maintenance" }],
        sites: [{ id: t.sites[1]!.id }],
        userAccount: { username: `user${i}-${e.id}` },
      };
    });
    const first = await api.sync(batch);
    expect(first.results.map((r) => r.status)).toEqual(Array(5).fill("CREATED"));
    const before = await stack.db.sql`select id, updated_at, last_sync_request_id from employees where organization_id = ${t.organization.id} order by id`;
    const usersBefore = await stack.db.sql`select id, updated_at from users where organization_id = ${t.organization.id} order by id`;
    const second = await api.sync(batch);
    expect(second.results.map((r) => r.status)).toEqual(Array(5).fill("UPDATED"));
    expect(second.results.map((r) => [r.employeeId, r.userId])).toEqual(first.results.map((r) => [r.employeeId, r.userId]));
    expect(await stack.db.sql`select id, updated_at, last_sync_request_id from employees where organization_id = ${t.organization.id} order by id`).toEqual(
      before,
    );
    expect(await stack.db.sql`select id, updated_at from users where organization_id = ${t.organization.id} order by id`).toEqual(usersBefore);
    expect(await countRows(stack, "employee_roles", t.organization.id)).toBe(5);
    expect(await countRows(stack, "employee_groups", t.organization.id)).toBe(5);
    expect(await countRows(stack, "employee_sites", t.organization.id)).toBe(5);
  });

  it("skips missing roles, groups and sites with the spec's warnings and still processes the employee", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const unknownSite = "00000000-0000-4000-8000-000000000000";
    const { results, errors } = await api.sync([
      {
        externalEmployeeId: e.id,
        roles: ["inspector", "astronaut"],
        groups: [{ groupName: "Chess Club" }, { externalGroupId: "grp-nowhere", role: "member" }, { groupName: "Maintenance" }],
        sites: [{ id: unknownSite }, { id: "not-a-uuid" }, { id: t.sites[0]!.id }],
      },
    ]);
    expect(errors).toEqual([]);
    expect(results[0]).toMatchObject({ status: "CREATED", userId: null });
    expect(results[0].warnings).toEqual([
      "Role 'astronaut' not found, skipped",
      "Group 'Chess Club' not found, skipped",
      "Group 'grp-nowhere' not found, skipped",
      `Site with id '${unknownSite}' not found, skipped`,
      "Site with id 'not-a-uuid' not found, skipped",
    ]);
    const detail = await api.get(`/api/v1/employees/${results[0].employeeId}`);
    expect(detail.body.roles).toEqual(["inspector"]);
    expect(detail.body.groups.map((g: { name: string }) => g.name)).toEqual(["Maintenance"]);
    expect(detail.body.sites.map((s: { id: string }) => s.id)).toEqual([t.sites[0]!.id]);
  });

  it("updateMode replace swaps roles, groups and sites together; additive only adds", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const [main, north] = t.sites;
    const first = await api.sync([{ externalEmployeeId: e.id, roles: ["inspector"], groups: [{ groupName: "Maintenance" }], sites: [{ id: main!.id }] }]);
    const id = first.results[0].employeeId;
    await api.sync([
      {
        externalEmployeeId: e.id,
        roles: ["FIELD_TECH"],
        groups: [{ groupName: "Safety Team", role: "member" }],
        sites: [{ id: north!.id }],
        updateMode: "additive",
      },
    ]);
    let d = (await api.get(`/api/v1/employees/${id}`)).body;
    expect(d.roles).toEqual(["FIELD_TECH", "inspector"]);
    expect(d.groups.map((g: { name: string; memberRole: string | null }) => [g.name, g.memberRole])).toEqual([
      ["Maintenance", null],
      ["Safety Team", "member"],
    ]);
    expect(d.sites.map((s: { code: string }) => s.code)).toEqual(["MAIN", "NORTH"]);
    await api.sync([
      { externalEmployeeId: e.id, roles: ["admin"], groups: [{ externalGroupId: "grp-maintenance", role: "owner" }], sites: [{ id: north!.id, role: "lead" }] },
    ]);
    d = (await api.get(`/api/v1/employees/${id}`)).body;
    expect(d.roles).toEqual(["admin"]);
    expect(d.groups.map((g: { name: string; memberRole: string | null }) => [g.name, g.memberRole])).toEqual([["Maintenance", "owner"]]);
    expect(d.sites.map((s: { code: string; siteRole: string | null }) => [s.code, s.siteRole])).toEqual([["NORTH", "lead"]]);
    // replace with nothing given removes every assignment
    await api.sync([{ externalEmployeeId: e.id }]);
    d = (await api.get(`/api/v1/employees/${id}`)).body;
    expect([d.roles, d.groups, d.sites]).toEqual([[], [], []]);
  });

  it("keeps absent fields, clears null ones (terminationDate: null) and accepts date-times", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const first = await api.sync([
      {
        externalEmployeeId: e.id,
        firstName: "Grace",
        lastName: "Hopper",
        jobTitle: "Admiral",
        hireDate: "2020-01-02T08:30:00Z",
        terminationDate: "2025-12-31",
      },
    ]);
    const id = first.results[0].employeeId;
    let d = (await api.get(`/api/v1/employees/${id}`)).body;
    expect(d).toMatchObject({ displayName: "Grace Hopper", hireDate: "2020-01-02T08:30:00Z", terminationDate: "2025-12-31", jobTitle: "Admiral" });
    await api.sync([{ externalEmployeeId: e.id, terminationDate: null, displayName: "Amazing Grace" }]);
    d = (await api.get(`/api/v1/employees/${id}`)).body;
    expect(d).toMatchObject({ displayName: "Amazing Grace", firstName: "Grace", hireDate: "2020-01-02T08:30:00Z", terminationDate: null, jobTitle: "Admiral" });
  });

  it("links an existing account of the organization that has the same e-mail", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const { results } = await api.sync([
      { externalEmployeeId: uniq().id, email: t.users.inspector.email.toUpperCase(), userAccount: {}, roles: ["admin"], sites: [] },
    ]);
    expect(results[0].userId).toBe(t.users.inspector.id);
    // The employee's roles apply to the account: role admin makes its user an admin.
    const login = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
    expect(login.status).toBe(200);
    const created = await stack.http.post("/api/templates", { name: "By synced admin", type: "ASSET" }, { auth: { bearer: login.body.accessToken } });
    expect(created.status).toBe(200);
  });
});

describe("employee status", () => {
  it("INACTIVE strips every assignment and blocks login and issued tokens; ACTIVE enables the account again", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const employee = {
      externalEmployeeId: e.id,
      email: e.email,
      roles: ["inspector"],
      groups: [{ groupName: "Maintenance" }],
      sites: [{ id: t.sites[0]!.id }],
      userAccount: {},
    };
    const { results } = await api.sync([employee]);
    const { employeeId, userId } = results[0];
    await stack.db.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, userId));
    const login = await stack.http.post("/api/auth/login", { email: e.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const userAuth = { bearer: login.body.accessToken as string };
    expect((await stack.http.get("/api/templates", { auth: userAuth })).status).toBe(200);

    const off = await api.sync([{ ...employee, status: "INACTIVE" }]);
    expect(off.results[0]).toMatchObject({ status: "UPDATED", employeeId, userId, warnings: [] });
    const d = (await api.get(`/api/v1/employees/${employeeId}`)).body;
    expect(d).toMatchObject({ status: "INACTIVE", accountEnabled: false, roles: [], groups: [], sites: [] });
    expect((await stack.http.post("/api/auth/login", { email: e.email, password: PASSWORD })).status).toBe(401);
    expect((await stack.http.get("/api/templates", { auth: userAuth })).status).toBe(401);

    const on = await api.sync([employee]);
    expect(on.results[0]).toMatchObject({ status: "UPDATED", userId });
    expect((await api.get(`/api/v1/employees/${employeeId}`)).body).toMatchObject({ status: "ACTIVE", accountEnabled: true, roles: ["inspector"] });
    expect((await stack.http.post("/api/auth/login", { email: e.email, password: PASSWORD })).status).toBe(200);
  });

  it("TERMINATED does the same, needs no e-mail with userAccount, and creates no account", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const { results, errors } = await api.sync([
      { externalEmployeeId: e.id, status: "TERMINATED", userAccount: { forcePasswordReset: true }, roles: ["inspector"] },
    ]);
    expect(errors).toEqual([]);
    expect(results[0]).toMatchObject({ status: "CREATED", userId: null });
    const [row] = await stack.db.db.select().from(employees).where(eq(employees.id, results[0].employeeId));
    expect(row!.status).toBe("TERMINATED");
    expect(await countRows(stack, "employee_roles", t.organization.id)).toBe(0);
  });
});

describe("syncBatchId", () => {
  it("is echoed when sent and absent (not null) when not: in the answer, the status and a replay", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const sent = await api.sync([{ externalEmployeeId: uniq().id }], { syncBatchId: "hr-1" });
    expect(Object.keys(sent)).toEqual(["requestId", "syncBatchId", "results", "errors"]);
    expect(sent.syncBatchId).toBe("hr-1");
    const headers = { "idempotency-key": `nb-${uniq().id}` };
    const payload = { employees: [{ externalEmployeeId: uniq().id }] };
    const first = await api.post(payload, { headers });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(["requestId", "results", "errors"]);
    const replay = await api.post(payload, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(Object.keys(replay.body)).toEqual(["requestId", "results", "errors"]);
    const status = await api.get(`/api/v1/sync/requests/${first.body.requestId}`);
    expect(status.body).toMatchObject({ status: "completed" });
    expect(status.body).not.toHaveProperty("syncBatchId");
    expect((await api.get(`/api/v1/sync/requests/${sent.requestId}`)).body).toMatchObject({ syncBatchId: "hr-1" });
    const dry = await api.post({ syncBatchId: null, employees: [] }, { query: "dryRun=true" });
    expect(dry.body).not.toHaveProperty("syncBatchId");
  });
});

describe("large batches, async mode, status, dry run", () => {
  it("processes 500 employees and answers 500 results in request order", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 500 }, (_, i) => {
      const e = uniq(`B${i}`);
      return { externalEmployeeId: e.id, firstName: `First${i}`, email: e.email, roles: ["inspector"], sites: [{ id: t.sites[i % 2]!.id }], userAccount: {} };
    });
    const body = await api.sync(batch);
    expect(body.errors).toEqual([]);
    expect(body.results.map((r) => r.externalEmployeeId)).toEqual(batch.map((b) => b.externalEmployeeId));
    expect(body.results.every((r) => r.status === "CREATED" && r.userId)).toBe(true);
    expect(await countRows(stack, "employees", t.organization.id)).toBe(500);
    const second = await api.sync(batch);
    expect(second.results.every((r) => r.status === "UPDATED")).toBe(true);
  });

  it("Prefer: respond-async answers 202 with a Location whose status endpoint reports progress and then the full body", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 30 }, () => ({ externalEmployeeId: uniq().id }));
    batch.push({ externalEmployeeId: "" });
    const res = await api.post({ syncBatchId: "async-1", employees: batch }, { headers: { prefer: "respond-async" } });
    expect(res.status).toBe(202);
    expect(res.headers.get("preference-applied")).toBe("respond-async");
    expect(res.body).toEqual({ requestId: expect.any(String), status: "processing" });
    const location = res.headers.get("location")!;
    expect(location).toBe(`/api/v1/sync/requests/${res.body.requestId}`);
    let status = (await api.get(location)).body;
    expect(status).toMatchObject({ requestId: res.body.requestId, syncBatchId: "async-1", total: 31, dryRun: false });
    expect(["processing", "completed"]).toContain(status.status);
    for (let i = 0; i < 100 && status.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await api.get(location)).body;
    }
    expect(status).toMatchObject({ status: "completed", total: 31, processed: 31, completedAt: expect.any(String) });
    expect(status.results).toHaveLength(30);
    expect(status.errors).toEqual([{ externalEmployeeId: "", message: "externalEmployeeId is required" }]);
  });

  it("a synchronous call whose wait runs out answers 202 and the work still completes", async () => {
    const slow = await startStack({ workers: 0, env: { SYNC_WAIT_SECONDS: "1" } });
    try {
      const t = await slow.tenant();
      const api = await syncCaller(slow, t);
      const res = await api.post({ employees: [{ externalEmployeeId: "late-1" }] });
      expect(res.status).toBe(202);
      expect(res.body.status).toBe("processing");
      const status = await api.get(res.headers.get("location")!);
      expect(status.body).toMatchObject({ status: "processing", total: 1, processed: 0 });
      expect(status.body.results).toBeUndefined();
    } finally {
      await slow.stop();
    }
  });

  it("?dryRun=true reports CREATED/UPDATED, warnings and errors without writing anything", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const existing = uniq();
    const real = await api.sync([{ externalEmployeeId: existing.id, email: existing.email, jobTitle: "Before", roles: ["inspector"] }]);
    const snapshot = async () => [
      await stack.db.sql`select * from employees where organization_id = ${t.organization.id} order by id`,
      await stack.db.sql`select * from users where organization_id = ${t.organization.id} order by id`,
      await stack.db.sql`select * from employee_roles where organization_id = ${t.organization.id} order by employee_id, role_id`,
      await countRows(stack, "mail_outbox", t.organization.id),
    ];
    const before = await snapshot();
    const fresh = uniq();
    const res = await api.post(
      {
        employees: [
          { externalEmployeeId: existing.id, jobTitle: "After", roles: ["nope"] },
          { externalEmployeeId: fresh.id, email: fresh.email, userAccount: { sendWelcomeEmail: true, forcePasswordReset: true } },
          { externalEmployeeId: fresh.id, jobTitle: "Second occurrence" },
          { externalEmployeeId: uniq().id, roles: ["site_manager"] },
          { email: "x@example.test" },
        ],
      },
      { query: "dryRun=true" },
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        externalEmployeeId: existing.id,
        status: "UPDATED",
        employeeId: real.results[0].employeeId,
        userId: null,
        warnings: ["Role 'nope' not found, skipped"],
      },
      { externalEmployeeId: fresh.id, status: "CREATED", employeeId: null, userId: null, warnings: [] },
      { externalEmployeeId: fresh.id, status: "UPDATED", employeeId: null, userId: null, warnings: [] },
    ]);
    expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "Cannot assign site_manager role: employee must have at least one site assigned",
      "externalEmployeeId is required",
    ]);
    expect(await snapshot()).toEqual(before);
    const status = await api.get(`/api/v1/sync/requests/${res.body.requestId}`);
    expect(status.body).toMatchObject({ status: "completed", dryRun: true, total: 5, processed: 5 });
  });
});
