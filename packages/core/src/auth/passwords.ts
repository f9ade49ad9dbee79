import { randomBytes } from "node:crypto";
import { hash as argonHash, verify as argonVerify, type Algorithm } from "@node-rs/argon2";
import { hashSecret, safeEqualHex } from "./secrets.ts";

/**
 * Chosen passwords: argon2id at the OWASP minimum (m=19 MiB, t=2, p=1).
 * Generated temporary passwords carry 128+ random bits, so SHA-256 is enough and
 * hashing 500 of them does not dominate a sync batch (issue 6). The stored value
 * names its scheme: `argon2id$...` or `sha256$<hex>`.
 */
// 2 is Algorithm.Argon2id (a const enum, which verbatimModuleSyntax cannot import).
const ARGON = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;

export async function hashPassword(password: string): Promise<string> {
  return argonHash(password, ARGON);
}

/** 24 base64url characters = 144 random bits. */
export function generateTemporaryPassword(): string {
  return randomBytes(18).toString("base64url");
}

export function hashTemporaryPassword(password: string): string {
  return `sha256$${hashSecret(password)}`;
}

/** A value no password verifies against: the account has no usable password yet. */
export const UNUSABLE_PASSWORD = "!unusable";

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored || stored.startsWith("!")) return false;
  if (stored.startsWith("sha256$")) return safeEqualHex(stored.slice(7), hashSecret(password));
  try {
    return await argonVerify(stored, password);
  } catch {
    return false;
  }
}
