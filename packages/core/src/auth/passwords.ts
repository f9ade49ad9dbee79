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

/**
 * An argon2id hash with ARGON's parameters of a random password nobody kept. Verifying against it
 * costs what a real check costs, so an account without a chosen password (none yet, unusable, a
 * generated temporary one) or an unknown e-mail cannot be told apart by how long a wrong
 * password takes. Fixed here, not made at start, so that the first such check is no slower.
 */
export const DUMMY_PASSWORD_HASH = "$argon2id$v=19$m=19456,t=2,p=1$GT9brqF5DhyJRd6m3225ng$iNksaMbdHmnCTo5p+EKfLmMJ373FDMw4oKRIO2r71Jo";

let argonRuns = 0;
/** argon2id verifications this process has run: lets a test see that every path pays for one. */
export const argonVerifications = () => argonRuns;

async function argonMatches(stored: string, password: string): Promise<boolean> {
  argonRuns++;
  try {
    return await argonVerify(stored, password);
  } catch {
    return false;
  }
}

/** Every call runs exactly one argon2id verification, whatever is stored (see DUMMY_PASSWORD_HASH). */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored?.startsWith("$argon2")) return argonMatches(stored, password);
  const matches = !!stored?.startsWith("sha256$") && safeEqualHex(stored.slice(7), hashSecret(password));
  await argonMatches(DUMMY_PASSWORD_HASH, password);
  return matches;
}
