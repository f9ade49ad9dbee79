import { describe, expect, it } from "vitest";
import { AppError, decodeCursor, employeeChange, encodeCursor } from "../src/index.ts";

describe("feed cursors", () => {
  it("round-trip a position and start from the beginning without one", () => {
    const p = { xid: "18446744073709551615", seq: "9223372036854775807" };
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
    expect(decodeCursor(undefined)).toBeNull();
    expect(decodeCursor("")).toBeNull();
  });

  it("refuse anything this service did not give out, as a 400", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    for (const c of ["x", b64("1"), b64("1.2.3"), b64("-1.2"), b64("1.2e3"), b64("18446744073709551616.1"), b64("1.9223372036854775808"), b64(" 1.2")]) {
      let err: unknown;
      try {
        decodeCursor(c);
      } catch (e) {
        err = e;
      }
      expect(err, c).toBeInstanceOf(AppError);
      expect((err as AppError).kind).toBe("invalid");
    }
  });
});

describe("employeeChange", () => {
  it("is created for a new employee, deactivated when one leaves ACTIVE, else updated", () => {
    expect(employeeChange(null, "ACTIVE")).toBe("created");
    expect(employeeChange(null, "TERMINATED")).toBe("created");
    expect(employeeChange("ACTIVE", "INACTIVE")).toBe("deactivated");
    expect(employeeChange("ACTIVE", "TERMINATED")).toBe("deactivated");
    expect(employeeChange("INACTIVE", "TERMINATED")).toBe("updated");
    expect(employeeChange("TERMINATED", "ACTIVE")).toBe("updated");
    expect(employeeChange("ACTIVE", "ACTIVE")).toBe("updated");
  });
});
