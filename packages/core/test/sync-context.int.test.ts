import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { seedDemo, type DemoSeed, type SyncEmployee } from "../src/index.ts";
import { readEmployeeContext, toEmployeeContext } from "../src/employees/context.ts";
import { syncEmployee } from "../src/employees/sync-employee.ts";
import type { Tx } from "../src/employees/store.ts";

/**
 * The read of an employee's transaction takes its keys from the record itself, in SQL: the
 * e-mail (given, cleared, or the stored one), the account's username, and for ACTIVE records
 * the roles, groups and sites named. What it finds, against a real database.
 */

let db: TestDatabase;
let t: DemoSeed;
beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
});
afterAll(() => db?.close());

let n = 0;
const record = (extra: Partial<SyncEmployee> = {}): SyncEmployee => ({ externalEmployeeId: `ctx-${++n}-${Date.now()}`, status: "ACTIVE", updateMode: "replace", ...extra });
const inTx = <T>(fn: (tx: Tx) => Promise<T>) => db.sql.begin((tx) => fn(tx as unknown as Tx)) as Promise<T>;
const read = async (e: SyncEmployee) => toEmployeeContext((await inTx((tx) => readEmployeeContext(tx, t.organization.id, e)))[0]!);
const ctx = { organizationId: "", requestId: "00000000-0000-4000-8000-000000000000" };

describe("the employee context read", () => {
  it("finds roles and groups by the names and external ids given, and sites by id in any case; a malformed site id is just not found", async () => {
    const site = t.sites[0]!.id;
    const c = await read(
      record({
        roles: ["inspector", "inspector", "no-such-role"],
        groups: [{ groupName: t.groups[1]!.name }, { externalGroupId: t.groups[0]!.externalId! }, { groupName: "No such group" }],
        sites: [{ id: site.toUpperCase() }, { id: site }, { id: "not-a-uuid" }],
      }),
    );
    expect(c.state).toBeNull();
    expect([...c.refs.rolesByName.keys()]).toEqual(["inspector"]);
    expect([...c.refs.groupsByName]).toEqual([[t.groups[1]!.name, t.groups[1]!.id]]);
    expect([...c.refs.groupsByExternalId]).toEqual([[t.groups[0]!.externalId!, t.groups[0]!.id]]);
    expect([...c.refs.sites]).toEqual([site]);
  });

  it("looks nothing up for an INACTIVE or TERMINATED record", async () => {
    for (const status of ["INACTIVE", "TERMINATED"] as const) {
      const c = await read(record({ status, roles: ["inspector"], groups: [{ groupName: t.groups[0]!.name }], sites: [{ id: t.sites[0]!.id }] }));
      expect([c.refs.rolesByName.size, c.refs.groupsByName.size, c.refs.groupsByExternalId.size, c.refs.sites.size]).toEqual([0, 0, 0, 0]);
    }
  });

  it("reads the stored employee with its account and assignments, and checks the stored e-mail when the record has none", async () => {
    ctx.organizationId = t.organization.id;
    const k = `${n}-${Date.now()}`;
    const e = record({
      email: `ctx-${k}@example.test`,
      userAccount: { username: `ctx-user-${k}`, forcePasswordReset: false, sendWelcomeEmail: false },
      roles: ["inspector"],
      groups: [{ groupName: t.groups[0]!.name, role: "lead" }],
      sites: [{ id: t.sites[0]!.id }],
    });
    const created = await inTx((tx) => syncEmployee(tx, ctx, e));
    const c = await read({ externalEmployeeId: e.externalEmployeeId, status: "ACTIVE", updateMode: "replace" });
    expect(c.state).toMatchObject({ id: created.result.employeeId, userId: created.result.userId, fields: { email: e.email, status: "ACTIVE" } });
    expect(c.state!.user).toMatchObject({ id: created.result.userId, email: e.email, username: `ctx-user-${k}`, disabled: false });
    expect([...c.state!.assignments.roles.values()]).toEqual(["inspector"]);
    expect([...c.state!.assignments.groups]).toEqual([[t.groups[0]!.id, "lead"]]);
    expect([...c.state!.assignments.sites]).toEqual([[t.sites[0]!.id, null]]);
    // The stored e-mail is checked: its holder is the employee's own user.
    expect(c.holders).toEqual({ otherEmployee: false, userByEmail: { id: created.result.userId, organizationId: t.organization.id, employeeId: created.result.employeeId, isAdmin: false }, usernameTaken: false });
    // A record that clears the e-mail checks none.
    expect((await read({ externalEmployeeId: e.externalEmployeeId, status: "ACTIVE", updateMode: "replace", email: null })).holders).toBeNull();
  });

  it("sees another employee with the e-mail, and a username taken by another user of the organization", async () => {
    ctx.organizationId = t.organization.id;
    const k = `${n}-${Date.now()}`;
    const a = record({ email: `ctx-a-${k}@example.test`, userAccount: { username: `ctx-taken-${k}`, forcePasswordReset: false, sendWelcomeEmail: false } });
    await inTx((tx) => syncEmployee(tx, ctx, a));
    const sameEmail = await read(record({ email: a.email!.toUpperCase() }));
    expect(sameEmail.holders).toMatchObject({ otherEmployee: true, userByEmail: { organizationId: t.organization.id } });
    const sameUsername = await read(record({ email: `ctx-b-${k}@example.test`, userAccount: { username: `CTX-TAKEN-${k}`, forcePasswordReset: false, sendWelcomeEmail: false } }));
    expect(sameUsername.holders).toEqual({ otherEmployee: false, userByEmail: null, usernameTaken: true });
    // Without an account to manage the username is not checked.
    const noAccount = await read(record({ email: `ctx-c-${k}@example.test` }));
    expect(noAccount.holders).toEqual({ otherEmployee: false, userByEmail: null, usernameTaken: false });
  });
});
