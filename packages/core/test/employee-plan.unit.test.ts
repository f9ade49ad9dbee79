import { describe, expect, it } from "vitest";
import { emptyAssignments, planEmployee, type EmployeeContext, type EmployeeState } from "../src/employees/plan.ts";
import { EmployeeRuleError, RULE_MESSAGES } from "../src/employees/rules.ts";
import type { SyncEmployee } from "../src/employees/types.ts";

/** The pure planner of one employee's sync (plan.ts): what the one read found in, the writes out. No database. */

const ORG = "org-1";
const ctx = { organizationId: ORG, requestId: "req-1" };
const refs: EmployeeContext["refs"] = {
  rolesByName: new Map([["inspector", "r-insp"]]),
  groupsByName: new Map(),
  groupsByExternalId: new Map(),
  sites: new Set(),
};
const emp = (e: Partial<SyncEmployee>): SyncEmployee => ({ externalEmployeeId: "E1", status: "ACTIVE", updateMode: "replace", ...e });
const nobody: EmployeeContext = { state: null, holders: null, refs };
const stored = (s: Partial<EmployeeState> = {}): EmployeeState => ({
  id: "emp-1",
  fields: {
    status: "ACTIVE",
    firstName: "Ada",
    lastName: "Lovelace",
    displayName: "Ada Lovelace",
    email: "ada@example.com",
    phone: null,
    jobTitle: null,
    department: null,
    supervisor: null,
    hireDate: null,
    terminationDate: null,
    metadata: null,
  },
  userId: "user-1",
  user: { id: "user-1", email: "ada@example.com", username: "ada@example.com", name: "Ada Lovelace", disabled: false },
  assignments: emptyAssignments(),
  unchanged: true,
  ...s,
});
const freeEmail = { otherEmployee: false, userByEmail: null, usernameTaken: false };

describe("planEmployee", () => {
  it("a new employee with an account: the employee inserted, the account created, a welcome mail, CREATED", () => {
    const e = emp({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      roles: ["inspector"],
      userAccount: { forcePasswordReset: true, sendWelcomeEmail: true },
    });
    const { writes, outcome } = planEmployee(ctx, e, { ...nobody, holders: freeEmail });
    expect(writes.employee).toMatchObject({ insert: true, externalEmployeeId: "E1", change: "created", userId: outcome.result.userId });
    expect(writes.user).toMatchObject({ kind: "create", email: "ada@example.com", username: "ada@example.com", forcePasswordReset: true });
    expect(writes.diff.addRoles).toEqual(["r-insp"]);
    expect(writes.mail).toMatchObject({ to: "ada@example.com", userId: outcome.result.userId });
    expect(outcome).toMatchObject({
      createdEmployee: true,
      createdUser: true,
      outboxIds: [writes.mail!.id],
      result: { status: "CREATED", employeeId: writes.employeeId, warnings: [] },
    });
  });

  it("an employee sent again unchanged: nothing to write, UPDATED", () => {
    const e = emp({ firstName: "Ada", lastName: "Lovelace", displayName: "Ada Lovelace", email: "ada@example.com" });
    const { writes, outcome } = planEmployee(ctx, e, { state: stored(), holders: freeEmail, refs });
    expect(writes.employee).toBeNull();
    expect(writes.user).toBeNull();
    expect(outcome.result).toMatchObject({ status: "UPDATED", employeeId: "emp-1", userId: "user-1" });
  });

  it("leaving ACTIVE disables the account and is logged as deactivated", () => {
    const { writes } = planEmployee(ctx, emp({ status: "TERMINATED" }), { state: stored(), holders: freeEmail, refs });
    expect(writes.employee).toMatchObject({ insert: false, change: "deactivated" });
    expect(writes.user).toEqual({ kind: "disable", id: "user-1" });
  });

  it("an e-mail of another organization's user is a rule failure, nothing planned", () => {
    const holders = { ...freeEmail, userByEmail: { id: "u-9", organizationId: "org-2", employeeId: null, isAdmin: false } };
    const e = emp({ email: "ada@example.com", userAccount: { forcePasswordReset: false, sendWelcomeEmail: false } });
    expect(() => planEmployee(ctx, e, { ...nobody, holders })).toThrow(new EmployeeRuleError(RULE_MESSAGES.emailInOtherOrganization));
  });

  it("a session's deactivation of an employee changed since its commit leaves it as it is, with a warning", () => {
    const e = emp({ status: "INACTIVE", onlyIfActiveAndUnchangedSince: "2026-11-28 05:00:00+00" });
    const { writes, outcome } = planEmployee(ctx, e, { state: stored({ unchanged: false }), holders: null, refs });
    expect(writes.employee).toBeNull();
    expect(writes.user).toBeNull();
    expect(outcome.result.warnings).toHaveLength(1);
  });
});
