import { IdParam, errorResponses, isoTimestamp, pageQuery, wholeNumber } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/**
 * Scheduled inspections (issue 33; docs/schedules.md): schedules (/api/schedules) and the
 * occurrences a worker makes of them (/api/occurrences). Admin users and API keys with
 * schedules:write change schedules; every user reads the occurrences assigned to them.
 */

const MAX_IDS = 500;
const idList = (field: string) =>
  z
    .array(z.string().max(64, `${field} entries must be ids`), { message: `${field} must be an array of ids` })
    .max(MAX_IDS, `${field} may name at most ${MAX_IDS} ids`)
    .default([]);

export const SCHEDULE_ASSIGNEES = z
  .strictObject({
    userIds: idList("assignees.userIds"),
    groupIds: idList("assignees.groupIds"),
    roleIds: idList("assignees.roleIds"),
    siteIds: idList("assignees.siteIds"),
  })
  .openapi("ScheduleAssignees", {
    description:
      "Who does it: users, and the employees (with a user) in groups, holding roles, or assigned to sites, resolved when an occurrence opens (the members at that moment).",
  });

const Target = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("none") }),
    z.strictObject({
      kind: z.literal("sites"),
      siteIds: idList("target.siteIds").pipe(z.array(z.string()).min(1, "target.siteIds must name at least one site")),
    }),
    z
      .strictObject({
        kind: z.literal("assets"),
        assetTypeId: z.string().max(64, "target.assetTypeId must be an id").optional(),
        siteId: z.string().max(64, "target.siteId must be an id").optional(),
      })
      .refine((t) => t.assetTypeId !== undefined || t.siteId !== undefined, {
        message: "target.assetTypeId or target.siteId is required: an assets target names an asset type, a site, or both",
        path: ["assetTypeId"],
      }),
  ])
  .openapi("ScheduleTarget", {
    description:
      "none: one occurrence per start; sites: one per listed site; assets: one per ACTIVE, unarchived asset of the asset type, of the site, or of both (the assets there are when occurrences are made).",
  });

const Recurrence = z
  .union([
    z.strictObject({
      rrule: z.string().min(1, "recurrence.rrule is required").max(500, "recurrence.rrule must be at most 500 characters").openapi({
        description:
          "An RFC 5545 RRULE value without DTSTART: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, with INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, COUNT, UNTIL.",
        example: "FREQ=WEEKLY;BYDAY=MO,WE,FR",
      }),
    }),
    z.strictObject({
      afterCompletionDays: z
        .number()
        .int()
        .min(1, "recurrence.afterCompletionDays must be at least 1")
        .max(3660, "recurrence.afterCompletionDays must be at most 3660"),
    }),
  ])
  .openapi("ScheduleRecurrence", { description: "Either an RRULE, or the next one `afterCompletionDays` local days after the last was completed." });

const LeaverRule = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("site_manager") }),
    z.strictObject({ kind: z.literal("user"), userId: z.string().max(64, "leaverRule.userId must be an id") }),
    z.strictObject({ kind: z.literal("unassigned") }),
  ])
  .openapi("ScheduleLeaverRule", {
    description:
      "When an assignee's employee becomes INACTIVE or TERMINATED, their open and upcoming occurrences go to: the site's site_manager (the employees holding the role site_manager at the occurrence's site), a named user, or nobody (flagged needsAssignee).",
  });

const fields = {
  name: z.string().trim().min(1, "name is required").max(200, "name must be at most 200 characters"),
  templateId: z
    .string()
    .max(64, "templateId must be an id")
    .openapi({ format: "uuid", description: "A PUBLISHED template; an occurrence uses the version published when it opens." }),
  recurrence: Recurrence,
  timeZone: z.string().max(64, "timeZone must be at most 64 characters").openapi({ description: "An IANA time zone", example: "Europe/Berlin" }),
  startDate: z.string().openapi({ description: "Local date of the first occurrence, YYYY-MM-DD (the rule's DTSTART date).", example: "2026-03-02" }),
  startTime: z.string().openapi({ description: "Local start time HH:MM of every occurrence.", example: "09:00" }),
  dueWithinMinutes: z
    .number({ message: "dueWithinMinutes must be a number" })
    .int("dueWithinMinutes must be a whole number")
    .min(1, "dueWithinMinutes must be at least 1")
    .max(366 * 24 * 60, "dueWithinMinutes must be at most a year"),
  assignees: SCHEDULE_ASSIGNEES,
  target: Target,
  mustComplete: z.enum(["ONE", "ALL"], { message: "mustComplete must be ONE or ALL" }),
  canLateSubmit: z.boolean({ message: "canLateSubmit must be true or false" }),
  reminderMinutesBefore: z
    .number()
    .int()
    .min(1, "reminderMinutesBefore must be at least 1")
    .max(30 * 24 * 60, "reminderMinutesBefore must be at most 30 days")
    .nullable(),
  remindByEmail: z.boolean({ message: "remindByEmail must be true or false" }).openapi({
    description: "With reminderMinutesBefore: also e-mail the reminder to each assignee (once per occurrence and assignee).",
  }),
  leaverRule: LeaverRule,
  paused: z.boolean({ message: "paused must be true or false" }),
};

export const CreateScheduleBody = z
  .strictObject({
    ...fields,
    assignees: fields.assignees.default({ userIds: [], groupIds: [], roleIds: [], siteIds: [] }),
    target: fields.target.default({ kind: "none" }),
    mustComplete: fields.mustComplete.default("ONE"),
    canLateSubmit: fields.canLateSubmit.default(false),
    reminderMinutesBefore: fields.reminderMinutesBefore.default(null),
    remindByEmail: fields.remindByEmail.default(false),
    leaverRule: fields.leaverRule.default({ kind: "site_manager" }),
    paused: fields.paused.default(false),
  })
  .openapi("ScheduleCreateRequest");
export type CreateScheduleBody = z.output<typeof CreateScheduleBody>;

export const PatchScheduleBody = z
  .strictObject(
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]> },
  )
  .refine((b) => Object.keys(b).length > 0, { message: `give at least one of ${Object.keys(fields).join(", ")}` })
  .openapi("SchedulePatchRequest");
export type PatchScheduleBody = z.output<typeof PatchScheduleBody>;

export const ScheduleView = registry.register(
  "Schedule",
  z.object({
    id: z.uuid(),
    name: z.string(),
    templateId: z.uuid(),
    recurrence: Recurrence,
    timeZone: z.string(),
    startDate: z.string(),
    startTime: z.string(),
    dueWithinMinutes: z.number().int(),
    assignees: z.object({ userIds: z.array(z.string()), groupIds: z.array(z.string()), roleIds: z.array(z.string()), siteIds: z.array(z.string()) }),
    target: z.union([
      z.object({ kind: z.literal("none") }),
      z.object({ kind: z.literal("sites"), siteIds: z.array(z.string()) }),
      z.object({ kind: z.literal("assets"), assetTypeId: z.string().optional(), siteId: z.string().optional() }),
    ]),
    mustComplete: z.enum(["ONE", "ALL"]),
    canLateSubmit: z.boolean(),
    reminderMinutesBefore: z.number().int().nullable(),
    remindByEmail: z.boolean(),
    leaverRule: z.union([
      z.object({ kind: z.literal("site_manager") }),
      z.object({ kind: z.literal("user"), userId: z.string() }),
      z.object({ kind: z.literal("unassigned") }),
    ]),
    paused: z.boolean(),
    pausedAt: isoTimestamp.nullable(),
    revision: z.number().int(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  }),
);
export type ScheduleView = z.output<typeof ScheduleView>;

const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });
export const ScheduleList = registry.register("ScheduleList", z.object({ schedules: z.array(ScheduleView), pagination }));
export const ScheduleListQuery = z.object({
  templateId: z.string().optional().openapi({ format: "uuid", description: "Only the schedules of this template." }),
  ...pageQuery,
});
export type ScheduleListQuery = z.output<typeof ScheduleListQuery>;

const instant = (what: string) =>
  z.iso.datetime({ offset: true, message: `${what} must be an ISO 8601 date-time, e.g. 2026-03-01T00:00:00Z` }).openapi({ format: "date-time" });

export const UpcomingQuery = z.object({
  from: instant("from").optional().openapi({ description: "From this instant (default: now)." }),
  count: wholeNumber("count")
    .transform(Number)
    .pipe(z.number().int().min(1, "count must be at least 1").max(100, "count must be at most 100"))
    .default(10)
    .openapi({ type: "integer", description: "How many, 1 to 100 (default 10)." }),
});
export const UpcomingList = registry.register(
  "ScheduleUpcoming",
  z.object({
    timeZone: z.string(),
    upcoming: z.array(z.object({ startAt: isoTimestamp, dueAt: isoTimestamp, localStart: z.string(), localDue: z.string() })),
  }),
);

export const OCCURRENCE_STATES = ["UPCOMING", "OPEN", "COMPLETED", "MISSED", "LATE", "COMPLETED_LATE"] as const;
export const OccurrenceView = registry.register(
  "Occurrence",
  z.object({
    id: z.uuid(),
    scheduleId: z.uuid().nullable(),
    scheduleName: z.string().nullable(),
    templateId: z.uuid().nullable(),
    templateVersion: z.number().int().nullable(),
    siteId: z.uuid().nullable(),
    assetId: z.uuid().nullable(),
    state: z.enum(OCCURRENCE_STATES),
    startAt: isoTimestamp,
    dueAt: isoTimestamp,
    localStart: z.string(),
    localDue: z.string(),
    mustComplete: z.enum(["ONE", "ALL"]),
    assigneeUserIds: z.array(z.uuid()),
    completedByUserIds: z.array(z.uuid()),
    needsAssignee: z.boolean(),
    startedAt: isoTimestamp.nullable(),
    inspectionId: z.uuid().nullable(),
    completedAt: isoTimestamp.nullable(),
  }),
);
export type OccurrenceView = z.output<typeof OccurrenceView>;
export const OccurrenceList = registry.register("OccurrenceList", z.object({ occurrences: z.array(OccurrenceView), pagination }));

export const OccurrenceListQuery = z.object({
  assignee: z.string().max(64).optional().openapi({ description: "`me` (a user token's default) or a user id." }),
  state: z
    .enum(OCCURRENCE_STATES, { message: `state must be one of ${OCCURRENCE_STATES.join(", ")}` })
    .optional()
    .openapi({ description: "Only occurrences in this state." }),
  from: instant("from").optional().openapi({ description: "Due at or after this instant." }),
  to: instant("to").optional().openapi({ description: "Due before this instant." }),
  siteId: z.string().max(64).optional().openapi({ format: "uuid" }),
  assetId: z.string().max(64).optional().openapi({ format: "uuid" }),
  scheduleId: z.string().max(64).optional().openapi({ format: "uuid" }),
  ...pageQuery,
});
export type OccurrenceListQuery = z.output<typeof OccurrenceListQuery>;

const read = keyOrUser("schedules:read");
const write = keyOrUser("schedules:write");
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const ifMatch = z.object({ "if-match": z.string().openapi({ example: '"r1"' }) });
const WHO_WRITES = "Admin users and API keys with schedules:write (another user: 403).";
const BAD_INPUT =
  "A recurrence.rrule that does not parse, an unknown timeZone, a templateId that is not a PUBLISHED template of the organization, or assignee, site, asset type or leaver ids that are not the organization's (target.siteIds, target.siteId, target.assetTypeId, …): 400 naming the field.";

const example = {
  name: "Forklift pre-shift check",
  templateId: "5b0e6a3c-2f4d-4e8a-9c1b-7d6e5f4a3b2c",
  recurrence: { rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" },
  timeZone: "Europe/Berlin",
  startDate: "2026-03-02",
  startTime: "06:30",
  dueWithinMinutes: 120,
  assignees: { roleIds: ["9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"] },
  target: { kind: "sites", siteIds: ["1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"] },
  mustComplete: "ONE",
  canLateSubmit: true,
  reminderMinutesBefore: 30,
  remindByEmail: true,
  leaverRule: { kind: "site_manager" },
};

export const listSchedulesOp = defineOperation({
  method: "get",
  path: "/api/schedules",
  summary: "List schedules; extension",
  description: "Newest first. Every user of the organization and API keys with schedules:read.",
  auth: read,
  request: { query: ScheduleListQuery },
  responses: { 200: json(ScheduleList, "A page of schedules"), ...errorResponses(400, 401, 403, 429) },
});

export const getScheduleOp = defineOperation({
  method: "get",
  path: "/api/schedules/{id}",
  summary: "One schedule; extension",
  description: "The `ETag` header names its revision (for PATCH's If-Match).",
  auth: read,
  request: { params: IdParam },
  responses: { 200: json(ScheduleView, "The schedule"), ...errorResponses(401, 403, 404, 429) },
});

export const createScheduleOp = defineOperation({
  method: "post",
  path: "/api/schedules",
  summary: "Create a schedule; extension",
  description: `${BAD_INPUT} ${WHO_WRITES} Occurrences are made by the worker (docs/schedules.md). 409 when the organization has SCHEDULES_MAX_PER_ORG schedules already (paused ones count): delete one first.`,
  auth: write,
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateScheduleBody,
          examples: {
            weekdays: { summary: "Weekdays at 06:30 Berlin time at one site", value: example },
            afterCompletion: {
              summary: "Three weeks after the last one was completed, for each forklift",
              value: {
                name: "Forklift inspection",
                templateId: example.templateId,
                recurrence: { afterCompletionDays: 21 },
                timeZone: "Europe/Amsterdam",
                startDate: "2026-03-02",
                startTime: "08:00",
                dueWithinMinutes: 2880,
                target: { kind: "assets", assetTypeId: "3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f" },
              },
            },
            assetsOfSite: {
              summary: "Monthly, on the last day, for each asset at one site",
              value: {
                name: "Monthly asset audit",
                templateId: example.templateId,
                recurrence: { rrule: "FREQ=MONTHLY;BYMONTHDAY=-1" },
                timeZone: "Europe/Berlin",
                startDate: "2026-03-31",
                startTime: "10:00",
                dueWithinMinutes: 480,
                target: { kind: "assets", siteId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f" },
                reminderMinutesBefore: 120,
                remindByEmail: true,
              },
            },
          },
        },
      },
    },
  },
  responses: { 201: json(ScheduleView, "The schedule"), ...errorResponses(400, 401, 403, 409, 429) },
});

export const patchScheduleOp = defineOperation({
  method: "patch",
  path: "/api/schedules/{id}",
  summary: "Change, pause or resume a schedule; extension",
  description:
    "Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A change applies to occurrences not yet opened: the upcoming ones are made again from the new rule. " +
    `paused: true stops new occurrences (upcoming ones are removed); false resumes from now. ${BAD_INPUT} ${WHO_WRITES}`,
  auth: write,
  request: {
    params: IdParam,
    headers: ifMatch,
    body: {
      content: {
        "application/json": {
          schema: PatchScheduleBody,
          examples: {
            pause: { summary: "Pause it", value: { paused: true } },
            time: { summary: "Start at 07:00 instead", value: { startTime: "07:00" } },
          },
        },
      },
    },
  },
  responses: { 200: json(ScheduleView, "The schedule after the change"), ...errorResponses(400, 401, 403, 404, 412, 428, 429) },
});

export const deleteScheduleOp = defineOperation({
  method: "delete",
  path: "/api/schedules/{id}",
  summary: "Delete a schedule; extension",
  description: `Its upcoming occurrences go with it; opened, completed and missed ones stay (without a schedule). ${WHO_WRITES}`,
  auth: write,
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404, 429) },
});

export const upcomingScheduleOp = defineOperation({
  method: "get",
  path: "/api/schedules/{id}/upcoming",
  summary: "Preview a schedule's next start and due times; extension",
  description:
    "The next `count` starts at or after `from`, in UTC and in the schedule's zone, computed from the rule without creating anything. For afterCompletionDays schedules: the next one as if the last completion were the latest completed occurrence.",
  auth: read,
  request: { params: IdParam, query: UpcomingQuery },
  responses: { 200: json(UpcomingList, "The next occurrences"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const listOccurrencesOp = defineOperation({
  method: "get",
  path: "/api/occurrences",
  summary: "List occurrences of schedules (the field app's work list); extension",
  description:
    "Ordered by due time, then id. A user token sees its own (assignee=me) unless it is an admin's and names another assignee or none; an API key with schedules:read sees all unless it names an assignee. " +
    "Filters: assignee (me or a user id), state, from/to (due time), siteId, assetId, scheduleId.",
  auth: read,
  request: { query: OccurrenceListQuery },
  responses: { 200: json(OccurrenceList, "A page of occurrences"), ...errorResponses(400, 401, 403, 429) },
});

export const getOccurrenceOp = defineOperation({
  method: "get",
  path: "/api/occurrences/{id}",
  summary: "One occurrence; extension",
  description: "Every user of the organization and API keys with schedules:read.",
  auth: read,
  request: { params: IdParam },
  responses: { 200: json(OccurrenceView, "The occurrence"), ...errorResponses(401, 403, 404, 429) },
});
