import { IdParam, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { EMPLOYEE_STATUSES } from "./employee-sync.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser, type Callers } from "./operation.ts";

/** Reading employees back (extension, for HR systems to reconcile): GET /api/v1/employees[/{id}]. */

export const EmployeeListQuery = z.object({
  externalEmployeeId: z.string().min(1).optional(),
  status: z.preprocess(
    (v) => (typeof v === "string" ? v.toUpperCase() : v),
    z.enum(EMPLOYEE_STATUSES, { message: "must be ACTIVE, INACTIVE or TERMINATED" }).optional(),
  ),
  updatedSince: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z" }).optional(),
  /** Like GET /api/inspections: default 50, a larger value is capped at 100. */
  ...pageQuery,
});

export const EmployeeView = registry.register(
  "Employee",
  z.object({
    id: z.string(),
    externalEmployeeId: z.string(),
    status: z.enum(EMPLOYEE_STATUSES),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    jobTitle: z.string().nullable(),
    department: z.string().nullable(),
    supervisor: z.object({ name: z.string().optional(), email: z.string().optional() }).nullable(),
    hireDate: z.string().nullable(),
    terminationDate: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    userId: z.string().nullable(),
    accountEnabled: z.boolean().nullable().openapi({ description: "null when the employee has no user account" }),
    roles: z.array(z.string()),
    groups: z.array(z.object({ id: z.string(), name: z.string(), externalGroupId: z.string().nullable(), memberRole: z.string().nullable() })),
    sites: z.array(z.object({ id: z.string(), name: z.string(), code: z.string(), siteRole: z.string().nullable() })),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  }),
);

export const EmployeeList = registry.register(
  "EmployeeList",
  z.object({
    employees: z.array(EmployeeView),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

// The sync's OAuth clients, or an API key allowed to read employees.
const oauth: Callers = { allow: ["client", "apiKey"], scope: "employees:sync", keyScopes: ["employees:read"] };

export const listEmployeesOp = defineOperation({
  method: "get",
  path: "/api/v1/employees",
  summary: "List employees, oldest change first; extension",
  description:
    "Ordered by updatedAt then id. `updatedSince` returns employees changed at or after the instant (a sync that changes nothing does not count as a change).",
  auth: oauth,
  request: { query: EmployeeListQuery },
  responses: { 200: { description: "A page of employees", content: { "application/json": { schema: EmployeeList } } }, ...errorResponses(400, 401, 403, 429) },
});

export const getEmployeeOp = defineOperation({
  method: "get",
  path: "/api/v1/employees/{id}",
  summary: "One employee with its roles, groups, sites and account state; extension",
  auth: oauth,
  request: { params: IdParam },
  responses: { 200: { description: "The employee", content: { "application/json": { schema: EmployeeView } } }, ...errorResponses(401, 403, 404, 429) },
});

export const EmployeeErasure = registry.register(
  "EmployeeErasure",
  z.object({
    pseudonym: z.string().openapi({ description: "What the employee and their user account are called since: `erased-` and the start of the employee's id." }),
    erasedAt: isoTimestamp,
    employee: EmployeeView.openapi({
      description: "The employee as it is now: externalEmployeeId and displayName are the pseudonym; names, e-mail, phone, supervisor and metadata are null.",
    }),
  }),
);

export const eraseEmployeeOp = defineOperation({
  method: "post",
  path: "/api/v1/employees/{id}/erase",
  summary: "Erase a former employee's personal data; extension",
  description:
    "Admin users, and API keys with employees:erase (another user: 403). Only an INACTIVE or TERMINATED employee: an ACTIVE one is a 409 (deactivate it first, through the HR sync). " +
    "Replaces the employee's names, e-mail, phone, supervisor, metadata and externalEmployeeId, and its user account's e-mail, username and name, with a pseudonym; " +
    "disables the account for good, drops its password, its sessions and its roles, groups and sites; deletes its welcome mails and scrubs the person from stored webhook payloads, " +
    "sync results and replayable answers (docs/erasure.md). Inspections, actions and audit history stay, naming the pseudonym. " +
    "Idempotent: erasing an erased employee answers 200 with the same body and changes nothing. A later sync with the old externalEmployeeId creates a new employee.",
  auth: keyOrUser("employees:erase"),
  request: { params: IdParam },
  responses: {
    200: { description: "Erased (now or before)", content: { "application/json": { schema: EmployeeErasure } } },
    ...errorResponses(401, 403, 404, 409, 429),
  },
});
