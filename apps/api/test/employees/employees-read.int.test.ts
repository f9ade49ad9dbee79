import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 2 });
});
afterAll(() => stack?.stop());

describe("GET /api/v1/employees", () => {
  it("pages through the organization's employees, oldest change first, with assignments and account state", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const batch = Array.from({ length: 7 }, (_, i) => {
      const e = uniq(`L${i}`);
      return {
        externalEmployeeId: e.id,
        email: e.email,
        roles: ["inspector"],
        groups: [{ groupName: "Safety Team", role: "deputy" }],
        sites: [{ id: t.sites[1]!.id, role: "lead" }],
        ...(i % 2 ? { userAccount: {} } : {}),
      };
    });
    const synced = await api.sync(batch);
    const first = await api.get("/api/v1/employees?limit=3");
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ total: 7, limit: 3, offset: 0, hasMore: true });
    expect(first.body.employees).toHaveLength(3);
    const last = await api.get("/api/v1/employees?limit=3&offset=6");
    expect(last.body.pagination).toEqual({ total: 7, limit: 3, offset: 6, hasMore: false });
    const all = await api.get("/api/v1/employees");
    expect(all.body.pagination).toMatchObject({ total: 7, limit: 50 });
    const ids = all.body.employees.map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(7);
    expect(
      [...first.body.employees, ...(await api.get("/api/v1/employees?limit=3&offset=3")).body.employees, ...last.body.employees].map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual(ids);
    const updated = all.body.employees.map((e: { updatedAt: string }) => e.updatedAt);
    expect([...updated].sort()).toEqual(updated);
    const one = all.body.employees.find((e: { externalEmployeeId: string }) => e.externalEmployeeId === batch[1]!.externalEmployeeId);
    expect(one).toMatchObject({
      status: "ACTIVE",
      userId: synced.results[1].userId,
      accountEnabled: true,
      roles: ["inspector"],
      groups: [{ id: t.groups[1]!.id, name: "Safety Team", externalGroupId: "grp-safety", memberRole: "deputy" }],
      sites: [{ id: t.sites[1]!.id, name: "North Depot", code: "NORTH", siteRole: "lead" }],
    });
    const noAccount = all.body.employees.find((e: { externalEmployeeId: string }) => e.externalEmployeeId === batch[0]!.externalEmployeeId);
    expect(noAccount).toMatchObject({ userId: null, accountEnabled: null });
  });

  it("filters by externalEmployeeId, status and updatedSince", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [a, b, c] = [uniq().id, uniq().id, uniq().id];
    await api.sync([{ externalEmployeeId: a }, { externalEmployeeId: b, status: "TERMINATED" }, { externalEmployeeId: c, status: "INACTIVE" }]);
    const byId = await api.get(`/api/v1/employees?externalEmployeeId=${b}`);
    expect(byId.body.employees.map((e: { externalEmployeeId: string; status: string }) => [e.externalEmployeeId, e.status])).toEqual([[b, "TERMINATED"]]);
    const inactive = await api.get("/api/v1/employees?status=inactive");
    expect(inactive.body.employees.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual([c]);
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    expect((await api.get(`/api/v1/employees?updatedSince=${since}`)).body.employees).toEqual([]);
    await api.sync([
      { externalEmployeeId: a, jobTitle: "Changed" },
      { externalEmployeeId: b, status: "TERMINATED" },
    ]);
    const changed = await api.get(`/api/v1/employees?updatedSince=${encodeURIComponent(since)}`);
    // b was sent again unchanged: not a change.
    expect(changed.body.employees.map((e: { externalEmployeeId: string }) => e.externalEmployeeId)).toEqual([a]);
    expect(changed.body.pagination.total).toBe(1);
  });

  it("answers 400 for bad filters and page sizes, and caps the page size at 100", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    for (const q of ["status=GONE", "updatedSince=yesterday", "limit=0", "limit=2.5", "offset=-1", "limit=abc", "offset=1e3", "offset=100000000000000000000"]) {
      const res = await api.get(`/api/v1/employees?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe("Invalid query parameters");
    }
    // Like the inspections list, a page size above 100 is capped, not refused.
    expect((await api.get("/api/v1/employees?limit=500")).body.pagination).toMatchObject({ limit: 100 });
    expect((await api.get(`/api/v1/employees?limit=${"9".repeat(400)}`)).body.pagination).toMatchObject({ limit: 100 });
  });
});

describe("GET /api/v1/employees/:id", () => {
  it("returns the employee and 404 for an unknown or malformed id", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const { results } = await api.sync([{ externalEmployeeId: e.id, firstName: "Kim", lastName: "Lee", email: e.email, metadata: { badge: 7 } }]);
    const res = await api.get(`/api/v1/employees/${results[0].employeeId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: results[0].employeeId,
      externalEmployeeId: e.id,
      displayName: "Kim Lee",
      email: e.email,
      metadata: { badge: 7 },
      roles: [],
      groups: [],
      sites: [],
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect((await api.get("/api/v1/employees/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await api.get("/api/v1/employees/nope")).body).toEqual({ error: "Employee not found" });
  });
});
