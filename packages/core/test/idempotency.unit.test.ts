import { describe, expect, it } from "vitest";
import { idempotencyKeyOf, requestHash } from "../src/idempotency.ts";

describe("requestHash", () => {
  it("ignores key order and undefined fields, and tells different values apart", () => {
    expect(requestHash({ a: 1, b: ["x", { c: null }] })).toBe(requestHash({ b: ["x", { c: null }], a: 1, d: undefined }));
    expect(requestHash({ a: "1" })).not.toBe(requestHash({ a: 1 }));
    expect(requestHash(["ab", "c"])).not.toBe(requestHash(["a", "bc"]));
    expect(requestHash({ a: true })).not.toBe(requestHash({ a: "true" }));
    expect(requestHash({ a: [1, 2] })).not.toBe(requestHash({ a: [[1], 2] }));
    expect(requestHash({ a: { b: 1 }, c: 2 })).not.toBe(requestHash({ a: { b: 1, c: 2 } }));
  });

  it("hashes a body nested deeper than the stack allows (no recursion)", () => {
    const deep = JSON.parse(`{"employees":[{"x":${"[".repeat(200_000)}${"]".repeat(200_000)}}]}`);
    expect(requestHash(deep)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("idempotencyKeyOf", () => {
  it("accepts 1 to 255 visible ASCII characters and refuses anything else as invalid (a 400)", () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf("order-42")).toBe("order-42");
    for (const bad of ["", "has space", "x".repeat(256), "é"]) expect(() => idempotencyKeyOf(bad)).toThrow(expect.objectContaining({ kind: "invalid" }));
  });
});
