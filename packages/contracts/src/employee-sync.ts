import { errorResponses, isoTimestamp, quoteValue } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, type Callers } from "./operation.ts";

/**
 * Employee sync contract (spec: Employee sync request and result, POST /api/v1/sync/employees).
 * The request shape is checked as a whole (400); each employee is then validated on its
 * own, and an invalid one becomes an entry of `errors` with the spec's wording.
 */

export const MAX_EMPLOYEES_PER_REQUEST = 500;
/** Per employee: roles, groups and sites each (review S1: unbounded arrays cost the worker, or the API in a dry run). */
export const MAX_ASSIGNMENTS_PER_EMPLOYEE = 100;
/** metadata: serialized size and nesting (a deeply nested value cannot even be serialized). */
export const MAX_METADATA_CHARS = 16 * 1024;
export const MAX_METADATA_DEPTH = 20;
export const EMPLOYEE_STATUSES = ["ACTIVE", "INACTIVE", "TERMINATED"] as const;
export const UPDATE_MODES = ["replace", "additive"] as const;

/** Per-employee validation messages; the first three are the spec's own wording. */
export const VALIDATION_MESSAGES = {
  externalEmployeeIdRequired: "externalEmployeeId is required",
  emailRequired: "Email is required for ACTIVE users with userAccount",
  invalidEmail: "Invalid email format",
  groupNeedsKey: "Group assignment needs groupName or externalGroupId",
  siteNeedsId: "Site assignment needs an id",
  tooManyRoles: `At most ${MAX_ASSIGNMENTS_PER_EMPLOYEE} roles per employee`,
  tooManyGroups: `At most ${MAX_ASSIGNMENTS_PER_EMPLOYEE} groups per employee`,
  tooManySites: `At most ${MAX_ASSIGNMENTS_PER_EMPLOYEE} sites per employee`,
  metadataTooLarge: `metadata must be at most ${MAX_METADATA_CHARS} characters of JSON`,
  metadataTooDeep: `metadata must be nested at most ${MAX_METADATA_DEPTH} levels deep`,
} as const;

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
/** Optional text: absent keeps the stored value, null or "" clears it. */
const text = (max = 1000) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : trimmed(v)), z.string().max(max).nullable().optional());
const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);
const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : v);
const nullToUndefined = (v: unknown) => (v === null ? undefined : v);

const isoDate = (field: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : trimmed(v)),
    z
      .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], { error: `Invalid ${field}: expected an ISO 8601 date or date-time` })
      .nullable()
      .optional(),
  );

/** Names and ids of roles, groups and sites: at most 255 characters (they are echoed in warnings). */
const NAME_MAX = 255;

/** Nesting depth of a JSON value, without recursion (a parsed body can be nested far deeper than the stack). Stops past `limit`. */
function depthExceeds(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (d > limit) return true;
    for (const child of Object.values(x)) stack.push([child, d + 1]);
  }
  return false;
}

const Metadata = z.record(z.string(), z.unknown(), { error: "metadata must be a JSON object" }).superRefine((value, ctx) => {
  if (depthExceeds(value, MAX_METADATA_DEPTH)) ctx.addIssue({ code: "custom", message: VALIDATION_MESSAGES.metadataTooDeep });
  else if (JSON.stringify(value).length > MAX_METADATA_CHARS) ctx.addIssue({ code: "custom", message: VALIDATION_MESSAGES.metadataTooLarge });
});

const GroupAssignment = z
  .object({
    groupName: z.preprocess(trimmed, z.string().min(1).max(NAME_MAX).optional()),
    externalGroupId: z.preprocess(trimmed, z.string().min(1).max(NAME_MAX).optional()),
    role: z.preprocess(nullToUndefined, z.string().trim().min(1).max(NAME_MAX).optional()),
  })
  .refine((g) => g.groupName !== undefined || g.externalGroupId !== undefined, { error: VALIDATION_MESSAGES.groupNeedsKey })
  .openapi("EmployeeGroupAssignment", { description: "groupName or externalGroupId (one is required); role: the member's role in the group." });

const SiteAssignment = z
  .object({
    id: z.preprocess(trimmed, z.string({ error: VALIDATION_MESSAGES.siteNeedsId }).min(1, VALIDATION_MESSAGES.siteNeedsId).max(NAME_MAX)),
    role: z.preprocess(nullToUndefined, z.string().trim().min(1).max(NAME_MAX).optional()),
  })
  .openapi("EmployeeSiteAssignment", { description: "id: site UUID in the organization; role: site-level role." });

const UserAccount = z
  .object({
    username: z.preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : trimmed(v)), z.string().max(320).optional()),
    forcePasswordReset: z.boolean().default(false),
    sendWelcomeEmail: z.boolean().default(false),
  })
  .openapi("EmployeeUserAccount");

/** One employee of a sync request, as validated. Unknown fields are ignored. */
export const EmployeeInput = z
  .object({
    externalEmployeeId: z.preprocess(
      (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : trimmed(v)),
      z
        .string({ error: VALIDATION_MESSAGES.externalEmployeeIdRequired })
        .min(1, VALIDATION_MESSAGES.externalEmployeeIdRequired)
        .max(255, "externalEmployeeId must be at most 255 characters"),
    ),
    status: z.preprocess(
      (v) => (v === null ? undefined : upper(v)),
      z.enum(EMPLOYEE_STATUSES, { error: (iss) => `Invalid status ${quoteValue(iss.input)}: expected ACTIVE, INACTIVE or TERMINATED` }).default("ACTIVE"),
    ),
    firstName: text(),
    lastName: text(),
    displayName: text(),
    email: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? null : trimmed(v)),
      z.email({ error: VALIDATION_MESSAGES.invalidEmail }).max(320, VALIDATION_MESSAGES.invalidEmail).nullable().optional(),
    ),
    phone: text(),
    jobTitle: text(),
    department: text(),
    supervisor: z
      .object({ name: z.string().max(1000).optional(), email: z.string().max(320).optional() })
      .nullable()
      .optional(),
    hireDate: isoDate("hireDate"),
    terminationDate: isoDate("terminationDate"),
    metadata: Metadata.nullable().optional(),
    roles: z.preprocess(
      nullToUndefined,
      z
        .array(z.string().trim().min(1).max(NAME_MAX), { error: "roles must be an array of role names" })
        .max(MAX_ASSIGNMENTS_PER_EMPLOYEE, VALIDATION_MESSAGES.tooManyRoles)
        .optional(),
    ),
    groups: z.preprocess(nullToUndefined, z.array(GroupAssignment).max(MAX_ASSIGNMENTS_PER_EMPLOYEE, VALIDATION_MESSAGES.tooManyGroups).optional()),
    sites: z.preprocess(nullToUndefined, z.array(SiteAssignment).max(MAX_ASSIGNMENTS_PER_EMPLOYEE, VALIDATION_MESSAGES.tooManySites).optional()),
    userAccount: z.preprocess(nullToUndefined, UserAccount.optional()),
    updateMode: z.preprocess(
      (v) => (v === null ? undefined : lower(v)),
      z.enum(UPDATE_MODES, { error: (iss) => `Invalid updateMode ${quoteValue(iss.input)}: expected replace or additive` }).default("replace"),
    ),
  })
  .openapi("EmployeeInput");
registry.register("EmployeeInput", EmployeeInput); // referenced by EmployeeSyncRequest's items
export type EmployeeInput = z.output<typeof EmployeeInput>;

export type EmployeeValidation = { ok: true; employee: EmployeeInput } | { ok: false; externalEmployeeId: string | null; message: string };

/** Messages for zod's own issues that have no message of ours: `<path>: <problem>`. */
function fallbackMessage(iss: { code: string; path?: PropertyKey[]; expected?: unknown; input?: unknown }): string {
  const path = (iss.path ?? []).map(String).join(".") || "employee";
  if (iss.code === "invalid_type")
    return iss.input === undefined ? `${path} is required` : `${path} must be ${typeof iss.expected === "string" ? iss.expected : "of another type"}`;
  if (iss.code === "too_big") return `${path} is too long`;
  if (iss.code === "too_small") return `${path} must not be empty`;
  return `${path} is invalid`;
}

const rawId = (raw: unknown): string | null => {
  const v = raw && typeof raw === "object" ? (raw as Record<string, unknown>).externalEmployeeId : undefined;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return typeof v === "string" ? v.trim() : null;
};

/** Rule 9, checked on the raw value too so it is reported alongside other problems. */
function needsEmail(raw: Record<string, unknown>): boolean {
  const status = raw.status === undefined || raw.status === null ? "ACTIVE" : upper(raw.status);
  const email = raw.email;
  const missing = email === undefined || email === null || (typeof email === "string" && email.trim() === "");
  return status === "ACTIVE" && raw.userAccount !== undefined && raw.userAccount !== null && missing;
}

const MAX_MESSAGES = 10;

/**
 * Validates one employee. All problems are reported (the first ten), joined with "; ", the
 * externalEmployeeId problem first, so the message of a single problem is exactly
 * the spec's wording.
 */
export function validateEmployee(raw: unknown): EmployeeValidation {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, externalEmployeeId: null, message: "Each employee must be a JSON object" };
  }
  const parsed = EmployeeInput.safeParse(raw, { error: (iss) => fallbackMessage(iss as Parameters<typeof fallbackMessage>[0]) });
  const messages = parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  if (needsEmail(raw as Record<string, unknown>)) messages.push(VALIDATION_MESSAGES.emailRequired);
  if (messages.length === 0 && parsed.success) return { ok: true, employee: parsed.data };
  const unique = [...new Set(messages)];
  unique.sort((a, b) => Number(b === VALIDATION_MESSAGES.externalEmployeeIdRequired) - Number(a === VALIDATION_MESSAGES.externalEmployeeIdRequired));
  // Thousands of bad array items would make a message of megabytes: the first few say enough.
  const shown = unique.length > MAX_MESSAGES ? [...unique.slice(0, MAX_MESSAGES), `and ${unique.length - MAX_MESSAGES} more problems`] : unique;
  return { ok: false, externalEmployeeId: rawId(raw), message: shown.join("; ") };
}

// ---- Responses (OpenAPI) ----

export const SyncResultEntry = registry.register(
  "EmployeeSyncResult",
  z.object({
    externalEmployeeId: z.string(),
    status: z.enum(["CREATED", "UPDATED"]),
    employeeId: z.string().nullable().openapi({ description: "null only in a dry run for an employee that would be created" }),
    userId: z.string().nullable().openapi({ description: "null when the employee has no user account" }),
    warnings: z.array(z.string()),
  }),
);
export const SyncErrorEntry = registry.register("EmployeeSyncError", z.object({ externalEmployeeId: z.string().nullable(), message: z.string() }));

export const SyncResponse = registry.register(
  "EmployeeSyncResponse",
  z.object({
    requestId: z.string(),
    syncBatchId: z.string().optional().openapi({ description: "The request's syncBatchId; absent when none was sent" }),
    results: z.array(SyncResultEntry),
    errors: z.array(SyncErrorEntry),
  }),
);
export const SyncAccepted = registry.register("EmployeeSyncAccepted", z.object({ requestId: z.string(), status: z.literal("processing") }));
export const SyncStatus = registry.register(
  "EmployeeSyncStatus",
  z.object({
    requestId: z.string(),
    syncBatchId: z.string().optional(),
    status: z.enum(["processing", "completed"]),
    dryRun: z.boolean(),
    total: z.number().int(),
    processed: z.number().int(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
    results: z.array(SyncResultEntry).optional(),
    errors: z.array(SyncErrorEntry).optional(),
  }),
);

const SYNC_BATCH_ID_MESSAGE = "must be a string of at most 255 characters";

/**
 * The request as a whole (a problem here is a 400 for the request, and nothing is recorded).
 * Its employees are only counted here: each is validated on its own (validateEmployee), so one
 * bad employee becomes an entry of `errors` instead of refusing the batch. The documentation
 * still shows each item as an EmployeeInput.
 */
export const SyncRequestBody = z
  .object(
    {
      syncBatchId: z
        .string({ error: SYNC_BATCH_ID_MESSAGE })
        .max(255, { error: SYNC_BATCH_ID_MESSAGE })
        .nullish()
        .openapi({ description: "Echoed in the response; null is the same as absent" }),
      employees: z
        .array(z.unknown(), { error: "must be an array" })
        .max(MAX_EMPLOYEES_PER_REQUEST, {
          error: (iss) => `At most ${MAX_EMPLOYEES_PER_REQUEST} employees per request (got ${(iss.input as unknown[]).length})`,
        })
        .openapi({ type: "array", items: { $ref: "#/components/schemas/EmployeeInput" }, maxItems: MAX_EMPLOYEES_PER_REQUEST }),
    },
    { error: "Request body must be a JSON object with an employees array" },
  )
  .openapi("EmployeeSyncRequest");
export const SyncQuery = z.object({
  dryRun: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
  sessionId: z.string().max(64).optional().openapi({ description: "Extension: the snapshot sync session (POST /api/v1/sync/sessions) this batch belongs to." }),
});
export const SyncRequestIdParam = z.object({ requestId: z.string().openapi({ format: "uuid" }) });

const oauth: Callers = { allow: ["client"], scope: "employees:sync" };

export const syncEmployeesOp = defineOperation({
  method: "post",
  path: "/api/v1/sync/employees",
  summary: "Upsert up to 500 employees",
  description:
    "Each employee is validated and processed on its own (one transaction each); invalid or failed employees are listed in `errors`, processed ones in `results`, both in request order. Extensions: `Prefer: respond-async` answers 202 at once; a synchronous call whose wait (SYNC_WAIT_SECONDS) runs out also answers 202; `Idempotency-Key` replays the stored answer; `?dryRun=true` reports without writing. A request whose employees would take the organization's employees queued for sync (not yet done) past SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG (default 50,000) is refused whole with 429 and Retry-After, before anything is recorded.",
  auth: oauth,
  request: {
    query: SyncQuery,
    headers: z.object({ "Idempotency-Key": z.string().optional(), Prefer: z.string().optional().openapi({ example: "respond-async" }) }),
    body: {
      content: {
        "application/json": {
          schema: SyncRequestBody,
          example: {
            syncBatchId: "hr-2026-03-01",
            employees: [
              {
                externalEmployeeId: "E-1001",
                firstName: "Ada",
                lastName: "Lovelace",
                email: "ada.lovelace@example.com",
                jobTitle: "Inspector",
                department: "Operations",
                roles: ["inspector"],
                groups: [{ groupName: "Safety Team" }],
                sites: [{ id: "5f0c6a8e-2b1d-4c3e-9a7f-0d1e2f3a4b5c" }],
                userAccount: { sendWelcomeEmail: true },
              },
              { externalEmployeeId: "E-1002", status: "TERMINATED", terminationDate: "2026-02-28" },
            ],
          },
        },
      },
    },
  },
  responses: {
    200: { description: "Every employee processed", content: { "application/json": { schema: SyncResponse } } },
    202: { description: "Accepted, still processing; poll the Location", content: { "application/json": { schema: SyncAccepted } } },
    ...errorResponses(400, 401, 403, 422, 429, 503),
  },
});

export const syncRequestStatusOp = defineOperation({
  method: "get",
  path: "/api/v1/sync/requests/{requestId}",
  summary: "Progress of a sync request and, when completed, its results; extension",
  auth: oauth,
  request: { params: SyncRequestIdParam },
  responses: { 200: { description: "Progress", content: { "application/json": { schema: SyncStatus } } }, ...errorResponses(401, 403, 404, 429) },
});
