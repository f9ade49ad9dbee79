import { booleanQuery, errorResponses, isoTimestamp } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser, type Callers } from "./operation.ts";

/** Snapshot sync sessions (extension): /api/v1/sync/sessions. */

const name = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(255, `${what} must be at most 255 characters`);

export const SessionScope = z
  .strictObject({
    department: name("scope.department").optional().openapi({ description: "Employees of this department (compared without case)." }),
    siteId: z.string().max(64).optional().openapi({ description: "Employees assigned to this site." }),
    metadata: z
      .strictObject({ key: name("scope.metadata.key"), value: z.string().max(1000).optional() })
      .optional()
      .openapi({ description: "Employees whose metadata has this key (with this value, when given)." }),
  })
  .openapi("SyncSessionScope", {
    description: "The employees the session speaks for; several fields narrow it together. Absent or {}: every employee of the organization.",
  });

export const OpenSessionBody = z.strictObject({ scope: SessionScope.optional() }).openapi("SyncSessionRequest");
export const SessionIdParam = z.object({ id: z.string().openapi({ format: "uuid" }) });
export const CommitQuery = z.object({
  dryRun: booleanQuery(false).openapi({ type: "string", enum: ["true", "false"], description: "List who would be deactivated, change nothing." }),
});

const Deactivation = z.object({ employeeId: z.string(), externalEmployeeId: z.string(), displayName: z.string().nullable() });
const Threshold = z
  .object({ percent: z.number(), min: z.number().int() })
  .openapi({ description: "The deletion guard: more than `percent` % of the ACTIVE employees in scope and more than `min` of them quarantine a commit." });

export const SyncSession = registry.register(
  "SyncSession",
  z.object({
    sessionId: z.string(),
    status: z.enum(["open", "quarantined", "committing", "committed", "cancelled", "expired"]),
    scope: SessionScope,
    batches: z.number().int().openapi({ description: "Batches sent with this session." }),
    employeesSeen: z.number().int().openapi({ description: "Distinct externalEmployeeIds its batches named." }),
    createdAt: isoTimestamp,
    expiresAt: isoTimestamp,
    committedAt: isoTimestamp.nullable(),
    requestId: z.string().nullable().openapi({ description: "The sync request applying its deactivations (GET /api/v1/sync/requests/{requestId})." }),
    deactivated: z.array(Deactivation).optional().openapi({ description: "Committing or committed: who it deactivates." }),
    wouldDeactivate: z.array(Deactivation).optional().openapi({ description: "Quarantined: who it would deactivate once approved." }),
    activeInScope: z.number().int().optional(),
    threshold: Threshold.optional(),
  }),
);

export const SessionCommitPreview = registry.register(
  "SyncSessionCommitPreview",
  SyncSession.extend({
    dryRun: z.literal(true),
    wouldDeactivate: z.array(Deactivation),
    activeInScope: z.number().int(),
    wouldQuarantine: z.boolean(),
    threshold: Threshold,
  }),
);

const oauth: Callers = { allow: ["client"], scope: "employees:sync" };
const admin = keyOrUser("sync-sessions:manage");
/** The HR system, or an administrator (the deletion guard needs someone other than the HR system). */
const oauthOrAdmin: Callers = { allow: ["client", "apiKey", "user"], scope: "employees:sync", keyScopes: ["sync-sessions:manage"] };

export const openSessionOp = defineOperation({
  method: "post",
  path: "/api/v1/sync/sessions",
  summary: "Start a snapshot sync session; extension",
  description:
    "Send every batch of a full HR snapshot with `?sessionId=`, then commit: every ACTIVE employee in the scope that none of the batches named becomes INACTIVE (account disabled, assignments removed). Sessions expire after SYNC_SESSION_TTL_HOURS.",
  auth: oauth,
  // No body is a session over everything: validated as optional.
  validate: { body: OpenSessionBody.optional() },
  request: { body: { required: false, content: { "application/json": { schema: OpenSessionBody, example: { scope: { department: "Operations" } } } } } },
  responses: { 201: { description: "Open", content: { "application/json": { schema: SyncSession } } }, ...errorResponses(400, 401, 403, 429) },
});

export const getSessionOp = defineOperation({
  method: "get",
  path: "/api/v1/sync/sessions/{id}",
  summary: "A sync session with its status; extension",
  auth: oauthOrAdmin,
  request: { params: SessionIdParam },
  responses: { 200: { description: "The session", content: { "application/json": { schema: SyncSession } } }, ...errorResponses(401, 403, 404, 429) },
});

export const commitSessionOp = defineOperation({
  method: "post",
  path: "/api/v1/sync/sessions/{id}/commit",
  summary: "Commit a sync session: deactivate who did not appear; extension",
  description:
    "200 with the session (`committed`, `deactivated`) once the deactivations are applied; 202 with `Location` when they are still being applied after SYNC_WAIT_SECONDS; 202 `quarantined` (nothing changed, `wouldDeactivate` lists who would go) when more than DEACTIVATION_THRESHOLD_PERCENT % and more than DEACTIVATION_THRESHOLD_MIN employees would be deactivated: an administrator approves or cancels it. `?dryRun=true` lists the same without changing anything. 409 when the session is not open, or while another session of the organization is applying its deactivations.",
  auth: oauth,
  request: { params: SessionIdParam, query: CommitQuery },
  responses: {
    200: { description: "Committed, or the dry run's list", content: { "application/json": { schema: z.union([SyncSession, SessionCommitPreview]) } } },
    202: { description: "Quarantined for approval, or still applying", content: { "application/json": { schema: SyncSession } } },
    ...errorResponses(401, 403, 404, 409, 429, 503),
  },
});

export const approveSessionOp = defineOperation({
  method: "post",
  path: "/api/v1/sync/sessions/{id}/approve",
  summary: "Approve a quarantined commit; extension",
  description:
    "An administrator (API key or admin user; also `npm run admin -- approve-sync-session`): the employees the quarantine listed who are still ACTIVE and still unnamed are deactivated. Answers like a commit.",
  auth: admin,
  request: { params: SessionIdParam },
  responses: {
    200: { description: "Committed", content: { "application/json": { schema: SyncSession } } },
    202: { description: "Still applying", content: { "application/json": { schema: SyncSession } } },
    ...errorResponses(401, 403, 404, 409, 429),
  },
});

export const cancelSessionOp = defineOperation({
  method: "post",
  path: "/api/v1/sync/sessions/{id}/cancel",
  summary: "Cancel an open or quarantined session; extension",
  description: "Nobody is deactivated. The session's client, an API key or an admin user.",
  auth: oauthOrAdmin,
  request: { params: SessionIdParam },
  responses: { 200: { description: "Cancelled", content: { "application/json": { schema: SyncSession } } }, ...errorResponses(401, 403, 404, 409, 429) },
});
