import { describe, expect, it } from "vitest";
import { scrubberFor } from "../src/employees/scrub.ts";

describe("scrubberFor (erasure)", () => {
  const s = scrubberFor(["Jane", "Li", "Jane Li", "jane.li@example.test", "+44 7700 900123", "E-17", null, undefined, ""], "erased-0123456789ab");

  it("replaces every value as a whole word, case-insensitively, longest first", () => {
    expect(s.text("Inspected by Jane Li <JANE.LI@example.test>, call +44 7700 900123")).toBe(
      "Inspected by erased-0123456789ab <erased-0123456789ab>, call erased-0123456789ab",
    );
    expect(s.text("externalEmployeeId E-17: e-mail already used")).toBe("externalEmployeeId erased-0123456789ab: e-mail already used");
  });

  it("leaves longer words and numbers alone, and values too short to tell apart from other words", () => {
    expect(s.text("Janet met E-170 and Li")).toBe("Janet met E-170 and Li");
    expect(s.values).not.toContain("Li");
  });

  it("scrubs every string and key of a JSON value, and changes nothing without values", () => {
    expect(s.json({ data: { name: "Jane Li", tags: ["jane", 3, null], "jane.li@example.test": true } })).toEqual({
      data: { name: "erased-0123456789ab", tags: ["erased-0123456789ab", 3, null], "erased-0123456789ab": true },
    });
    expect(scrubberFor([], "x").text("Jane")).toBe("Jane");
  });
});
