import { pino, type Logger } from "pino";

/** Paths pino replaces with "[redacted]": secrets never reach the logs (DESIGN.md). */
export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "*.password",
  "*.currentPassword",
  "*.newPassword",
  "*.temporaryPassword",
  "*.client_secret",
  "*.clientSecret",
  "*.apiKey",
  "*.access_token",
  "*.accessToken",
  "*.token",
  "*.secret",
];

export function createLogger(name: string, level: string): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } });
}
export type { Logger };
