import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, startWorker, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 2 });
});
afterAll(() => stack?.stop());

const LINKED = "User with that e-mail already exists and is linked to another employee";

async function perId(orgId: string) {
  return stack.db.sql<{ external_employee_id: string; employees: number; users: number }[]>`
    select e.external_employee_id, count(*)::int as employees, count(e.user_id)::int as users
    from employees e where e.organization_id = ${orgId} group by e.external_employee_id`;
}

describe("duplicates inside one batch apply in request order", () => {
  it("gives one employee and one user per externalEmployeeId, the last occurrence winning", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = [];
    const ids = Array.from({ length: 20 }, () => uniq());
    for (let round = 0; round < 3; round++) {
      for (const e of ids)
        batch.push({
          externalEmployeeId: e.id,
          email: e.email,
          jobTitle: `round ${round}`,
          roles: [["inspector", "FIELD_TECH", "admin"][round]],
          userAccount: {},
        });
    }
    const { results, errors } = await api.sync(batch);
    expect(errors).toEqual([]);
    expect(results.map((r) => r.externalEmployeeId)).toEqual(batch.map((b) => b.externalEmployeeId));
    expect(results.map((r) => r.status)).toEqual([...Array(20).fill("CREATED"), ...Array(40).fill("UPDATED")]);
    for (const e of ids) expect(new Set(results.filter((r) => r.externalEmployeeId === e.id).map((r) => `${r.employeeId}/${r.userId}`)).size).toBe(1);
    const rows = await perId(t.organization.id);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.employees === 1 && r.users === 1)).toBe(true);
    const list = await api.get(`/api/v1/employees?limit=100`);
    expect(list.body.employees.every((e: { jobTitle: string; roles: string[] }) => e.jobTitle === "round 2" && e.roles.join() === "admin")).toBe(true);
  });

  it("two employees with one e-mail: the first in the request gets it, every time", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const pairs = Array.from({ length: 15 }, () => ({ a: uniq().id, b: uniq().id, email: uniq().email }));
    const batch = pairs.flatMap((p) => [
      { externalEmployeeId: p.a, email: p.email, userAccount: {} },
      { externalEmployeeId: p.b, email: p.email, userAccount: {} },
    ]);
    const { results, errors } = await api.sync(batch);
    expect(results.map((r) => r.externalEmployeeId)).toEqual(pairs.map((p) => p.a));
    expect(errors).toEqual(pairs.map((p) => ({ externalEmployeeId: p.b, message: LINKED })));
  });

  it("a failing occurrence between two good ones is reported in place; its neighbours still apply", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq().id;
    const { results, errors } = await api.sync([
      { externalEmployeeId: e, jobTitle: "one" },
      { externalEmployeeId: e, jobTitle: "two", roles: ["site_manager"] },
      { externalEmployeeId: e, jobTitle: "three" },
    ]);
    expect(results.map((r) => r.status)).toEqual(["CREATED", "UPDATED"]);
    expect(errors).toEqual([{ externalEmployeeId: e, message: "Cannot assign site_manager role: employee must have at least one site assigned" }]);
    const list = await api.get(`/api/v1/employees?externalEmployeeId=${e}`);
    expect(list.body.employees.map((x: { jobTitle: string }) => x.jobTitle)).toEqual(["three"]);
  });
});

describe("concurrent batches", () => {
  it("two identical batches sent at once leave exactly one employee and one user per id", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 100 }, () => {
      const e = uniq();
      return {
        externalEmployeeId: e.id,
        email: e.email,
        roles: ["inspector"],
        groups: [{ groupName: "Maintenance" }],
        sites: [{ id: t.sites[0]!.id }],
        userAccount: {},
      };
    });
    const [one, two] = await Promise.all([api.sync(batch), api.sync(batch)]);
    expect([...one.errors, ...two.errors]).toEqual([]);
    for (const b of [one, two]) expect(b.results.map((r) => r.externalEmployeeId)).toEqual(batch.map((e) => e.externalEmployeeId));
    // Each id was created by exactly one of the two requests, and both name the same rows.
    batch.forEach((_, i) => {
      expect([one.results[i].status, two.results[i].status].sort()).toEqual(["CREATED", "UPDATED"]);
      expect(one.results[i].employeeId).toBe(two.results[i].employeeId);
      expect(one.results[i].userId).toBe(two.results[i].userId);
    });
    const rows = await perId(t.organization.id);
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.employees === 1 && r.users === 1)).toBe(true);
    const [users] = await stack.db.sql`select count(*)::int as n from users where organization_id = ${t.organization.id}`;
    expect(users!.n).toBe(100 + 2); // plus the seeded admin and inspector
    const [roles] = await stack.db.sql`select count(*)::int as n from employee_roles where organization_id = ${t.organization.id}`;
    expect(roles!.n).toBe(100);
  });

  it("two batches racing for the same e-mails under different ids: each e-mail ends with one employee", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const emails = Array.from({ length: 40 }, () => uniq().email);
    const batchA = emails.map((email) => ({ externalEmployeeId: uniq("A").id, email, userAccount: {} }));
    const batchB = emails.map((email) => ({ externalEmployeeId: uniq("B").id, email, userAccount: {} }));
    const [a, b] = await Promise.all([api.sync(batchA), api.sync(batchB)]);
    expect(a.results.length + b.results.length).toBe(40);
    expect([...a.errors, ...b.errors].every((e) => e.message === LINKED)).toBe(true);
    const holders = await stack.db.sql`select lower(email) as email, count(*)::int as n from employees where organization_id = ${t.organization.id} group by 1`;
    expect(holders).toHaveLength(40);
    expect(holders.every((h) => h.n === 1)).toBe(true);
  });

  it("the same Idempotency-Key sent twice at once is one request; a later replay returns the stored answer", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const headers = { "idempotency-key": `idem-${uniq().id}` };
    const payload = { syncBatchId: "idem", employees: Array.from({ length: 30 }, () => ({ externalEmployeeId: uniq().id })) };
    const [x, y] = await Promise.all([api.post(payload, { headers }), api.post(payload, { headers })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(y.body).toEqual(x.body);
    const replay = await api.post(JSON.parse(JSON.stringify(payload)), { headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(x.body);
    const [row] = await stack.db.sql`select count(*)::int as n from sync_requests where organization_id = ${t.organization.id}`;
    expect(row!.n).toBe(1);
    expect(x.body.results.every((r: { status: string }) => r.status === "CREATED")).toBe(true);
  });
});

describe("worker replicas come and go", () => {
  it("a batch completes when one of the two workers shuts down in the middle of it", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 300 }, () => ({ externalEmployeeId: uniq().id, roles: ["inspector"] }));
    const sent = api.post({ employees: batch });
    // Stop a worker once the batch is under way: some items done, not all.
    let done = 0;
    for (let i = 0; i < 500 && done === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      [{ done = 0 } = {}] = await stack.db.sql<{ done: number }[]>`
        select count(*) filter (where status <> 'pending')::int as done from sync_request_items where organization_id = ${t.organization.id}`;
    }
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(300);
    const leaving = stack.workers.shift()!;
    expect(await leaving.stop()).toBe(0); // graceful: active jobs finish first
    const res = await sent;
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(300);
    expect(res.body.errors).toEqual([]);
    stack.workers.push(await startWorker(stack.env));
  });
});
