import { describe, expect, it } from "vitest";
import { generateSecret, generateTemporaryPassword, hashPassword, hashSecret, hashTemporaryPassword, safeEqualHex, verifyPassword } from "../src/index.ts";

describe("secrets", () => {
  it("makes prefixed 256-bit secrets and stores them as hashes that depend on the pepper", () => {
    const key = generateSecret("isk");
    expect(key).toMatch(/^isk_[A-Za-z0-9_-]{43}$/);
    expect(hashSecret(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(key, "pepper-pepper-pepper")).not.toBe(hashSecret(key));
    expect(safeEqualHex(hashSecret(key), hashSecret(key))).toBe(true);
    expect(safeEqualHex(hashSecret(key), hashSecret(key + "x"))).toBe(false);
  });

  it("verifies argon2id passwords and sha256 temporary passwords, and nothing else", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(stored, "correct horse battery")).toBe(true);
    expect(await verifyPassword(stored, "wrong")).toBe(false);
    const temp = generateTemporaryPassword();
    expect(Buffer.from(temp, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(await verifyPassword(hashTemporaryPassword(temp), temp)).toBe(true);
    expect(await verifyPassword(hashTemporaryPassword(temp), temp + "x")).toBe(false);
    expect(await verifyPassword(null, "")).toBe(false);
    expect(await verifyPassword("!unusable", "!unusable")).toBe(false);
  });
});
