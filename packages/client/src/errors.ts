/**
 * What can go wrong, as classes the command turns into exit codes (packages/client/README.md, Exit codes).
 */

/** Bad client credentials (401 from /oauth/token or after a fresh token) or a token without the needed scope (403). */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The service kept answering 429/502/503/504 or could not be reached, for every allowed attempt. */
export class RetriesExhaustedError extends Error {
  override name = "RetriesExhaustedError";
  constructor(
    message: string,
    readonly attempts: number,
    readonly lastStatus: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Any other answer the client cannot use: a 4xx that retrying will not fix, or a 500. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** `{error, details}` of the service's error bodies, as one line. */
export function describeErrorBody(body: unknown): string {
  if (!body || typeof body !== "object") return "";
  const b = body as { error?: unknown; error_description?: unknown; details?: unknown };
  const parts = [b.error, b.error_description].filter((x): x is string => typeof x === "string");
  if (Array.isArray(b.details)) parts.push(b.details.map(String).join("; "));
  return parts.join(": ");
}
