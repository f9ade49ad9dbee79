import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * High-entropy secrets (API keys, client secrets, temporary passwords) are stored as
 * SHA-256, or HMAC-SHA256 with a server-side pepper when one is configured, compared in
 * constant time. A slow hash (argon2id, as for chosen passwords) adds nothing for 256-bit
 * random values: nobody can guess them, so there is nothing to slow down.
 */
export function hashSecret(secret: string, pepper?: string): string {
  return pepper ? createHmac("sha256", pepper).update(secret).digest("hex") : createHash("sha256").update(secret).digest("hex");
}

export function safeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, "hex");
  const bb = Buffer.from(b, "hex");
  return ba.length === bb.length && ba.length > 0 && timingSafeEqual(ba, bb);
}

/** `<prefix>_<43 base64url chars>`: 256 random bits with a recognisable prefix. */
export function generateSecret(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

export const API_KEY_PREFIX = "isk";
export const CLIENT_ID_PREFIX = "icl";
export const CLIENT_SECRET_PREFIX = "ics";

/** Display prefix kept in the database so operators can tell keys apart. */
export const displayPrefix = (secret: string) => secret.slice(0, 12);
