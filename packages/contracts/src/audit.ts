import { errorResponses, isoTimestamp, wholeNumber } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** GET /api/audit (extension). */

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 200;

const filter = (what: string) => z.string().min(1).max(200, `${what} must be at most 200 characters`).optional();
const instant = (what: string) => z.iso.datetime({ offset: true, message: `${what} must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z` }).optional();

export const AuditQuery = z.object({
  action: filter("action").openapi({ description: "e.g. employee.updated, template.published, user.login_failed" }),
  actorId: filter("actorId").openapi({ description: "An API key id, OAuth client id or user id." }),
  resourceType: filter("resourceType"),
  resourceId: filter("resourceId"),
  since: instant("since"),
  until: instant("until"),
  cursor: z
    .string()
    .max(200, "cursor is not a cursor this list returned")
    .optional()
    .openapi({ description: "nextCursor of the previous page (older entries)." }),
  limit: wholeNumber("limit")
    .transform((s) => Math.min(Number(s), AUDIT_LIMIT_MAX))
    .pipe(z.number().int().min(1, "limit must be at least 1"))
    .default(AUDIT_LIMIT_DEFAULT)
    .openapi({ type: "integer", description: `Entries per page, default ${AUDIT_LIMIT_DEFAULT}; above ${AUDIT_LIMIT_MAX} is capped.` }),
});

export const AuditPage = registry.register(
  "AuditPage",
  z.object({
    items: z.array(
      z.object({
        id: z.uuid(),
        at: isoTimestamp,
        actor: z.object({ type: z.enum(["api_key", "oauth_client", "user", "admin_cli", "anonymous"]), id: z.string().nullable() }),
        action: z.string(),
        resourceType: z.string(),
        resourceId: z.string().nullable(),
        changedFields: z.array(z.string()).openapi({ description: "Names of the changed fields; never their values." }),
        requestId: z.string().nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  }),
);

export const listAuditOp = defineOperation({
  method: "get",
  path: "/api/audit",
  summary: "Audit log of the caller's organization, newest first; extension",
  description:
    "Who changed what and when: every change made through the API or the workers, logins and failed logins. API key or admin user. Entries are kept AUDIT_RETENTION_DAYS (default 365).",
  auth: keyOrUser("audit:read"),
  request: { query: AuditQuery },
  responses: { 200: { description: "A page of entries", content: { "application/json": { schema: AuditPage } } }, ...errorResponses(400, 401, 403, 429) },
});
