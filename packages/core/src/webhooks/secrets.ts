import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Webhook signing secrets (`whsec_` + base64 of 24 random bytes, the Standard Webhooks form).
 * The service must read them back to sign, so unlike API keys they cannot be stored as hashes:
 * they are stored encrypted with AES-256-GCM under a key derived from WEBHOOK_SECRET_KEY, and
 * shown to the client once, when created or rotated.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** The development key, when WEBHOOK_SECRET_KEY is unset outside production (docs/configuration.md). */
const DEVELOPMENT_KEY = "inspection-service development webhook key: set WEBHOOK_SECRET_KEY in production";

export class SecretBox {
  private readonly key: Buffer;

  constructor(keyText: string | undefined) {
    this.key = createHash("sha256")
      .update(keyText ?? DEVELOPMENT_KEY)
      .digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
  }

  /** Throws when the value was sealed under another key or altered. */
  open(sealed: string): string {
    const raw = Buffer.from(sealed.replace(/^v1\./, ""), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
