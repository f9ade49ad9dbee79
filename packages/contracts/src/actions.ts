import { IdParam, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** Corrective actions (extension, docs/actions.md): /api/actions; their feed is in feeds.ts. */

/** The single list of action statuses (core's ActionStatus is the same union). */
export const ACTION_STATUSES = ["OPEN", "IN_PROGRESS", "DONE", "CANCELLED"] as const;
export const ACTION_PRIORITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
export type ActionPriority = (typeof ACTION_PRIORITIES)[number];

/**
 * The status moves a PATCH may make (any other is a 409): OPEN -> IN_PROGRESS -> DONE, OPEN -> DONE,
 * OPEN or IN_PROGRESS -> CANCELLED, and DONE or CANCELLED reopened to OPEN or IN_PROGRESS.
 */
export const ACTION_TRANSITIONS: Record<ActionStatus, readonly ActionStatus[]> = {
  OPEN: ["IN_PROGRESS", "DONE", "CANCELLED"],
  IN_PROGRESS: ["DONE", "CANCELLED"],
  DONE: ["OPEN", "IN_PROGRESS"],
  CANCELLED: ["OPEN", "IN_PROGRESS"],
};

export const ACTION_TITLE_MAX = 200;
export const ACTION_DESCRIPTION_MAX = 5000;
/** The years a dueAt may fall in (UTC): Postgres refuses year 0, and nothing is due before 1970. */
const DUE_YEARS = [1970, 9999] as const;

const title = z.string().trim().min(1, "title is required").max(ACTION_TITLE_MAX, `title must be at most ${ACTION_TITLE_MAX} characters`);
const description = z.string().max(ACTION_DESCRIPTION_MAX, `description must be at most ${ACTION_DESCRIPTION_MAX} characters`).nullable();
const assigneeId = z
  .string()
  .max(64, "assigneeId must be at most 64 characters")
  .nullable()
  .openapi({ format: "uuid", description: "A user of the organization (admin or inspector); null: nobody." });
const dueAt = z.iso
  .datetime({ offset: true, message: "dueAt must be an ISO 8601 date-time, e.g. 2026-03-31T17:00:00Z" })
  // A value that is no date-time has its message already.
  .refine((s) => {
    const year = new Date(s).getUTCFullYear();
    return Number.isNaN(year) || (year >= DUE_YEARS[0] && year <= DUE_YEARS[1]);
  }, `dueAt must fall in the years ${DUE_YEARS[0]} to ${DUE_YEARS[1]}`)
  .nullable()
  .openapi({ format: "date-time", description: "When it is due; once past while OPEN or IN_PROGRESS the action is overdue. null: no due date." });
const priority = z.enum(ACTION_PRIORITIES, { message: `must be one of ${ACTION_PRIORITIES.join(", ")}` });
const status = z.enum(ACTION_STATUSES, { message: `must be one of ${ACTION_STATUSES.join(", ")}` });

/**
 * A corrective action raised with an inspection's answer (for the import and PATCH of
 * inspections): the fields of POST /api/actions without inspectionId and questionId, which the
 * answer gives. priority defaults to MEDIUM.
 */
export const AnswerActionInput = z
  .strictObject({
    title,
    description: description.optional(),
    assigneeId: assigneeId.optional(),
    dueAt: dueAt.optional(),
    priority: priority.optional().openapi({ description: "Default MEDIUM." }),
  })
  .openapi("AnswerActionInput");
export type AnswerActionInputType = z.output<typeof AnswerActionInput>;

export const CreateActionBody = z
  .strictObject({
    title,
    description: description.optional(),
    assigneeId: assigneeId.optional(),
    dueAt: dueAt.optional(),
    priority: priority.default("MEDIUM"),
    inspectionId: z
      .string()
      .max(64, "inspectionId must be at most 64 characters")
      .optional()
      .openapi({ format: "uuid", description: "The inspection it follows up, of the caller's organization." }),
    questionId: z
      .string()
      .max(64, "questionId must be at most 64 characters")
      .optional()
      .openapi({ format: "uuid", description: "Only with inspectionId: a question of that inspection's template version." }),
  })
  // Only when the fields are otherwise right: an unknown key or a bad value is its own message.
  .refine((b) => b.questionId === undefined || b.inspectionId !== undefined, {
    message: "questionId needs inspectionId: a question is one of an inspection's",
    path: ["questionId"],
    when: (p) => p.issues.length === 0,
  })
  .openapi("ActionCreateRequest");
export type CreateActionBody = z.output<typeof CreateActionBody>;

export const PatchActionBody = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    assigneeId: assigneeId.optional(),
    dueAt: dueAt.optional(),
    priority: priority.optional(),
    status: status.optional().openapi({
      description:
        "OPEN -> IN_PROGRESS -> DONE, OPEN -> DONE, OPEN or IN_PROGRESS -> CANCELLED; DONE and CANCELLED may be reopened (OPEN or IN_PROGRESS). Any other move is a 409.",
    }),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message: "give at least one of title, description, assigneeId, dueAt, priority, status",
    when: (p) => p.issues.length === 0,
  })
  .openapi("ActionPatchRequest");
export type PatchActionBody = z.output<typeof PatchActionBody>;

/** `true` / `false`, or absent (no filter); anything else is a 400. */
const optionalBoolean = z
  .enum(["true", "false"], { message: "must be true or false" })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === "true"));

export const ActionListQuery = z.object({
  status: status.optional(),
  assigneeId: z.string().optional().openapi({ format: "uuid" }),
  inspectionId: z.string().optional().openapi({ format: "uuid" }),
  overdue: optionalBoolean.openapi({
    type: "boolean",
    description: "true: only overdue actions (OPEN or IN_PROGRESS, dueAt past); false: only those that are not.",
  }),
  ...pageQuery,
});
export type ActionListQuery = z.output<typeof ActionListQuery>;

const actor = (what: string) =>
  z.object({ type: z.string().openapi({ description: "api_key, user, admin_cli, ..." }), id: z.string().nullable() }).openapi({ description: what });

export const ActionView = registry.register(
  "CorrectiveAction",
  z.object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    priority: z.enum(ACTION_PRIORITIES),
    status: z.enum(ACTION_STATUSES),
    assigneeId: z.uuid().nullable(),
    assignee: z.object({ id: z.uuid(), name: z.string().nullable(), email: z.string() }).nullable(),
    dueAt: isoTimestamp.nullable(),
    overdue: z.boolean().openapi({ description: "OPEN or IN_PROGRESS with dueAt in the past." }),
    inspectionId: z.uuid().nullable(),
    questionId: z.uuid().nullable(),
    createdBy: actor("The credential that created it (API key, user, ...)."),
    completedAt: isoTimestamp.nullable().openapi({ description: "When it became DONE; null while it is not DONE (reopening clears it)." }),
    completedBy: actor("Who made it DONE; null while it is not DONE.").nullable(),
    revision: z.number().int().openapi({ description: "1 when created, one more for every accepted PATCH. The ETag header names it." }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  }),
);

export const ActionList = registry.register(
  "CorrectiveActionList",
  z.object({
    actions: z.array(ActionView),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

/** The changes of an action its feed and webhooks know (action.created, ...). */
export const ACTION_CHANGES = ["created", "updated", "completed", "overdue"] as const;

const read = keyOrUser("actions:read");
const write = keyOrUser("actions:write");
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export const createActionOp = defineOperation({
  method: "post",
  path: "/api/actions",
  summary: "Raise a corrective action; extension",
  description:
    "Any user of the organization (admin or inspector) or an API key with actions:write. `inspectionId` must be an inspection of the caller's organization, `questionId` (only with it) a question of that inspection's template version, " +
    "and `assigneeId` a user of the organization: otherwise 400 `{error, details}`. Starts OPEN at revision 1; sends action.created.",
  auth: write,
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateActionBody,
          example: {
            title: "Replace the left brake pad",
            description: "Worn below 2 mm during the monthly forklift check",
            assigneeId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
            dueAt: "2026-03-31T17:00:00Z",
            priority: "HIGH",
            inspectionId: "0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77",
            questionId: "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
          },
        },
      },
    },
  },
  responses: { 201: json(ActionView, "The action"), ...errorResponses(400, 401, 403, 429) },
});

export const listActionsOp = defineOperation({
  method: "get",
  path: "/api/actions",
  summary: "List corrective actions; extension",
  description: "Newest first (createdAt, then id, descending), so pages never overlap. A filter id that is not one of the organization's matches nothing.",
  auth: read,
  request: { query: ActionListQuery },
  responses: { 200: json(ActionList, "A page of actions"), ...errorResponses(400, 401, 403, 429) },
});

export const getActionOp = defineOperation({
  method: "get",
  path: "/api/actions/{id}",
  summary: "One corrective action; extension",
  description: "The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.",
  auth: read,
  request: { params: IdParam },
  responses: { 200: json(ActionView, "The action"), 304: { description: "Not modified (If-None-Match)" }, ...errorResponses(401, 403, 404, 429) },
});

export const patchActionOp = defineOperation({
  method: "patch",
  path: "/api/actions/{id}",
  summary: "Change, complete, cancel or reopen a corrective action; extension",
  description:
    "Needs `If-Match` with the ETag of GET /api/actions/{id} (428 without it; 412 when the action has changed since). An API key with actions:write, an admin user, the action's assignee or the user who created it may change it (another user: 403). " +
    "A status move the lifecycle does not allow is a 409. Becoming DONE records completedAt and completedBy and sends action.completed; reopening clears them. Changing dueAt or reopening lets action.overdue be sent again. " +
    "Each accepted change is a new revision (action.updated); a request that changes nothing makes none.",
  auth: write,
  request: {
    params: IdParam,
    headers: z.object({ "if-match": z.string().openapi({ example: '"r1"' }) }),
    body: {
      content: {
        "application/json": {
          schema: PatchActionBody,
          examples: {
            complete: { summary: "Mark it done", value: { status: "DONE" } },
            reassign: {
              summary: "Hand it to someone else with a new due date",
              value: { assigneeId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", dueAt: "2026-04-15T17:00:00Z", priority: "MEDIUM" },
            },
            reopen: { summary: "Reopen a DONE or CANCELLED action", value: { status: "OPEN", description: "The new pad squeaks: check it again" } },
          },
        },
      },
    },
  },
  responses: { 200: json(ActionView, "The action after the change"), ...errorResponses(400, 401, 403, 404, 409, 412, 428, 429) },
});

// GET /api/feed/actions is registered with the other feeds (feeds.ts).
