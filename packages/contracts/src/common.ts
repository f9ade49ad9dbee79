import { registry, z } from "./openapi.ts";

export const ErrorBody = registry.register(
  "Error",
  z.object({ error: z.string(), details: z.array(z.string()).optional() }).openapi({ description: "Every error is JSON: `{error}`, plus `details` (one message per violation) where the spec says." }),
);

/** Standard error responses for registerPath. */
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
            413: "Body too large",
            422: "Idempotency-Key reused with another body",
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

/** Ids are UUIDs, but a malformed one is a 404, not a 400 (DESIGN.md), so params stay plain strings. */
export const IdParam = z.object({ id: z.string().openapi({ format: "uuid" }) });

export const isoTimestamp = z.string().openapi({ format: "date-time", example: "2026-01-31T09:30:00.000Z" });
