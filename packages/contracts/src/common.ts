import { registry, z } from "./openapi.ts";

export const ErrorBody = registry.register(
  "Error",
  z
    .object({ error: z.string(), details: z.array(z.string()).optional() })
    .openapi({ description: "Every error is JSON: `{error}`, plus `details` (one message per violation) where the spec says." }),
);

/**
 * A value from a request, for a message: a string, finite number or boolean as it is; anything
 * else by its JSON type ("an object", "an array", "null"). Never coerced: `String(x)`, `${x}` and
 * `"" + x` throw on an object whose toString is not callable (`{"toString": 1}`), and an array's
 * join coerces its items.
 */
export function describeValue(v: unknown): string {
  if (typeof v === "string") return v;
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") return JSON.stringify(v);
  return jsonTypeOf(v);
}

/** "an object", "an array", "a string", "a number", "a boolean", "null" (or "no value" / "a <typeof>" for what JSON cannot hold). */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "object":
      return "an object";
    case "string":
      return "a string";
    case "number":
      return Number.isFinite(v) ? "a number" : "a non-finite number";
    case "boolean":
      return "a boolean";
    case "undefined":
      return "no value";
    default:
      return `a ${typeof v}`;
  }
}

/** `'<value>'` for a string, finite number or boolean; `(<its JSON type>)` for anything else: `Invalid status 'FIRED'`, `Invalid status (an object)`. */
export const quoteValue = (v: unknown): string =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean" ? `'${describeValue(v)}'` : `(${jsonTypeOf(v)})`;

/** Standard error responses for an operation's `responses` (defineOperation). */
export const errorResponses = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => [
      c,
      {
        description:
          {
            400: "Invalid request",
            401: "Missing or invalid credential",
            403: "Forbidden",
            404: "Not found",
            409: "Conflict",
            412: "Precondition failed: the resource changed since the ETag given in If-Match",
            413: "Body too large",
            415: "Unsupported media type",
            416: "Range not satisfiable",
            422: "Idempotency-Key reused with another body",
            428: "Precondition required: send If-Match",
            429: "Rate limit exceeded (see Retry-After)",
            500: "Server error",
          }[c] ?? "Error",
        content: { "application/json": { schema: ErrorBody } },
      },
    ]),
  );

/** `true`/`false` query flags; anything else is a 400, never a silent default. */
export const booleanQuery = (def: boolean) =>
  z
    .enum(["true", "false"], { message: "must be true or false" })
    .default(def ? "true" : "false")
    .transform((v) => v === "true");

/** Ids are UUIDs, but a malformed one names nothing and is a 404, not a 400 (docs/authentication.md, Errors), so params stay plain strings. */
export const IdParam = z.object({ id: z.string().openapi({ format: "uuid" }) });

export const isoTimestamp = z.string().openapi({ format: "date-time", example: "2026-01-31T09:30:00.000Z" });

/** Page size: default 50, maximum 100 (spec, Limits). A larger limit is capped at 100, not refused. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 100;
/** Largest list offset: far past any organization's data, and Postgres's bigint OFFSET never overflows (1e20 was a 500). */
export const OFFSET_MAX = 1_000_000_000;

/** Digits only; the number is read by each field, so a value past Number's range is capped or refused with a message, not a 500. */
export const wholeNumber = (what: string) => z.string().regex(/^\d+$/, { message: `${what} must be a whole number of 0 or more`, abort: true });

/** `limit` and `offset` of every paginated list (inspections, employees). */
export const pageQuery = {
  limit: wholeNumber("limit")
    .transform((s) => Math.min(Number(s), PAGE_MAX))
    .pipe(z.number().int().min(1, "limit must be at least 1"))
    .default(PAGE_DEFAULT)
    .openapi({ type: "integer", description: `Page size, default ${PAGE_DEFAULT}; values above ${PAGE_MAX} are capped at ${PAGE_MAX}.` }),
  offset: wholeNumber("offset")
    .refine((s) => Number(s) <= OFFSET_MAX, `offset must be at most ${OFFSET_MAX}`)
    .transform(Number)
    .default(0)
    .openapi({ type: "integer", maximum: OFFSET_MAX, description: `At most ${OFFSET_MAX}; a larger offset is a 400.` }),
};
