import { describe, expect, it } from "vitest";
import { isBlank, isUuid } from "../src/errors.ts";

describe("shared input checks", () => {
  it("isUuid accepts a UUID in either case and nothing else", () => {
    expect(isUuid("11111111-1111-4111-8111-111111111111")).toBe(true);
    expect(isUuid("AAAAAAAA-1111-4111-8111-111111111111")).toBe(true);
    for (const v of ["", "x", "11111111-1111-4111-8111-11111111111", 42, null, undefined]) expect(isUuid(v)).toBe(false);
  });

  it("isBlank: absent, null or whitespace only", () => {
    for (const v of [undefined, null, "", "  \t"]) expect(isBlank(v)).toBe(true);
    for (const v of ["a", " a ", 0, false, {}]) expect(isBlank(v)).toBe(false);
  });
});
