import { describe, expect, it } from "vitest";
import { checkSyncRequestShape, validateEmployee } from "../src/employee-sync.ts";

describe("validateEmployee", () => {
  it("normalizes a valid employee: defaults, trimming, case of enums, numbers as ids", () => {
    const v = validateEmployee({ externalEmployeeId: 42, status: "inactive", updateMode: "Additive", email: " A@B.example ", phone: "", unknownField: 1, userAccount: { username: null } });
    expect(v).toEqual({
      ok: true,
      employee: { externalEmployeeId: "42", status: "INACTIVE", updateMode: "additive", email: "A@B.example", phone: null, userAccount: { forcePasswordReset: false, sendWelcomeEmail: false } },
    });
    expect(validateEmployee({ externalEmployeeId: "x" })).toEqual({ ok: true, employee: { externalEmployeeId: "x", status: "ACTIVE", updateMode: "replace" } });
  });

  it("uses the spec's wording and reports every problem, the id first", () => {
    expect(validateEmployee({})).toEqual({ ok: false, externalEmployeeId: null, message: "externalEmployeeId is required" });
    expect(validateEmployee({ externalEmployeeId: "x", email: "nope" })).toMatchObject({ message: "Invalid email format" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: {} })).toMatchObject({ message: "Email is required for ACTIVE users with userAccount" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: {}, status: "TERMINATED" }).ok).toBe(true);
    expect(validateEmployee({ email: "bad", userAccount: {} })).toMatchObject({ message: "externalEmployeeId is required; Invalid email format" });
    expect(validateEmployee({ externalEmployeeId: "x", hireDate: "2024-01-01T10:00:00+02:00", terminationDate: null }).ok).toBe(true);
    expect(validateEmployee({ externalEmployeeId: "x", hireDate: "01/02/2024" })).toMatchObject({ message: "Invalid hireDate: expected an ISO 8601 date or date-time" });
    expect(validateEmployee({ externalEmployeeId: "x", sites: [{ role: "lead" }] })).toMatchObject({ message: "Site assignment needs an id" });
    expect(validateEmployee({ externalEmployeeId: "x", firstName: 3 })).toMatchObject({ message: "firstName must be string" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: { forcePasswordReset: "yes" }, email: "a@b.example" })).toMatchObject({ message: "userAccount.forcePasswordReset must be boolean" });
  });
});

describe("checkSyncRequestShape", () => {
  it("accepts up to 500 employees and names what is wrong otherwise", () => {
    expect(checkSyncRequestShape({ employees: Array(500).fill({}) })).toBeNull();
    expect(checkSyncRequestShape({ employees: Array(501).fill({}) })).toMatch(/At most 500/);
    expect(checkSyncRequestShape([])).toMatch(/JSON object/);
    expect(checkSyncRequestShape({ employees: "x" })).toBe("employees must be an array");
    expect(checkSyncRequestShape({ employees: [], syncBatchId: 1 })).toMatch(/syncBatchId/);
  });
});
