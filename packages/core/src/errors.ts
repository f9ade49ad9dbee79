import type { ErrorKind } from "@insp/contracts/errors";

export type { ErrorKind };

/**
 * The one error type domain code throws: what went wrong as a kind (invalid, not_found,
 * conflict, stale, ...), never an HTTP status. The API's error middleware answers
 * `{error, details?}` with the status the contract gives the kind; anything else becomes a
 * logged 500 whose message never reaches the client (it may name tables or values).
 */
export class AppError extends Error {
  constructor(
    public readonly kind: ErrorKind,
    message: string,
    public readonly details?: string[],
    /** Extra top-level fields of the error body, e.g. OAuth's `error_description`. */
    public readonly body?: Record<string, unknown>,
    /** Seconds after which the same request may succeed (a quota of work in progress): the Retry-After header. */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** A per-organization limit of work in progress was reached: 429 with Retry-After, since waiting helps. */
export const tooMany = (message: string, retryAfterSeconds: number) => new AppError("too_many", message, undefined, undefined, retryAfterSeconds);

export const badRequest = (message: string, details?: string[]) => new AppError("invalid", message, details);
export const unauthorized = (message = "Missing or invalid credentials") => new AppError("unauthenticated", message);
export const forbidden = (message: string) => new AppError("forbidden", message);
export const notFound = (message: string) => new AppError("not_found", message);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A malformed id can name nothing: callers answer 404 instead of asking Postgres (a uuid column would raise an error for it). */
export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID_RE.test(v);
/** Absent, null, or only whitespace: the same as not given. */
export const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
