import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { CreateScheduleBody, PatchScheduleBody, ScheduleListQuery, ScheduleView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { assetTypes, groups, occurrences, roles, schedules, sites, templates, users } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, badRequest, isUuid, notFound } from "../errors.ts";
import { assertRoom } from "../quota.ts";
import { afterCompletion, compileRule, nextOccurrences, RecurrenceError, type Occurrence } from "./recurrence.ts";

/** Schedules over HTTP (/api/schedules; docs/schedules.md): one implementation for the routes and the admin CLI. */

type Row = typeof schedules.$inferSelect;
const INVALID = "Invalid schedule";

function toScheduleView(r: Row): ScheduleView {
  return {
    id: r.id,
    name: r.name,
    templateId: r.templateId,
    recurrence: r.rrule !== null ? { rrule: r.rrule } : { afterCompletionDays: r.afterCompletionDays! },
    timeZone: r.timeZone,
    startDate: r.startDate,
    startTime: r.startTime,
    dueWithinMinutes: r.dueWithinMinutes,
    assignees: r.assignees,
    target: r.target,
    mustComplete: r.mustComplete as "ONE" | "ALL",
    canLateSubmit: r.canLateSubmit,
    reminderMinutesBefore: r.reminderMinutesBefore,
    remindByEmail: r.remindByEmail,
    leaverRule: r.leaverRule,
    paused: r.pausedAt !== null,
    pausedAt: r.pausedAt?.toISOString() ?? null,
    revision: r.revision,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const scheduleNotFound = (id: string) => notFound(`Schedule ${id} not found`);

type Settings = Omit<CreateScheduleBody, "paused">;

/** The rule's own fields: a RecurrenceError becomes the 400 naming its field. */
function checkRecurrence(s: Settings): string[] {
  try {
    if ("rrule" in s.recurrence) compileRule({ rrule: s.recurrence.rrule, timeZone: s.timeZone, startDate: s.startDate, startTime: s.startTime });
    else
      afterCompletion(
        { days: s.recurrence.afterCompletionDays, timeZone: s.timeZone, startDate: s.startDate, startTime: s.startTime, dueWithinMinutes: 1 },
        null,
      );
    return [];
  } catch (err) {
    if (err instanceof RecurrenceError) return [`${err.field}: ${err.message}`];
    throw err;
  }
}

/** Ids of `table` among `ids` that are not the organization's (or not uuids). */
async function missing(
  tx: DbOrTx,
  table: typeof users | typeof groups | typeof roles | typeof sites | typeof assetTypes,
  organizationId: string,
  ids: string[],
) {
  const valid = [...new Set(ids.filter(isUuid))];
  const found = valid.length
    ? await tx
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), inArray(table.id, valid)))
    : [];
  const have = new Set(found.map((r) => r.id));
  return ids.filter((id) => !have.has(id));
}

/** Every reference of the settings checked against the organization: the details of one 400. */
async function checkReferences(tx: DbOrTx, organizationId: string, s: Settings): Promise<string[]> {
  const details: string[] = [];
  const [t] = isUuid(s.templateId)
    ? await tx
        .select({ status: templates.status })
        .from(templates)
        .where(and(eq(templates.organizationId, organizationId), eq(templates.id, s.templateId)))
    : [];
  if (!t) details.push(`templateId: template '${s.templateId}' is not one of the organization's templates`);
  else if (t.status !== "PUBLISHED") details.push(`templateId: template '${s.templateId}' is ${t.status}; a schedule needs a PUBLISHED template`);
  const lists: [string, typeof users | typeof groups | typeof roles | typeof sites | typeof assetTypes, string[], string][] = [
    ["assignees.userIds", users, s.assignees.userIds, "user"],
    ["assignees.groupIds", groups, s.assignees.groupIds, "group"],
    ["assignees.roleIds", roles, s.assignees.roleIds, "role"],
    ["assignees.siteIds", sites, s.assignees.siteIds, "site"],
  ];
  if (s.target.kind === "sites") lists.push(["target.siteIds", sites, s.target.siteIds, "site"]);
  if (s.target.kind === "assets") {
    if (s.target.assetTypeId !== undefined) lists.push(["target.assetTypeId", assetTypes, [s.target.assetTypeId], "asset type"]);
    if (s.target.siteId !== undefined) lists.push(["target.siteId", sites, [s.target.siteId], "site"]);
  }
  if (s.leaverRule.kind === "user") lists.push(["leaverRule.userId", users, [s.leaverRule.userId], "user"]);
  for (const [field, table, ids, what] of lists) {
    const bad = await missing(tx, table, organizationId, ids);
    if (bad.length)
      details.push(
        `${field}: ${bad.map((id) => `'${id}'`).join(", ")} ${bad.length > 1 ? "are not" : what.startsWith("asset") ? "is not an" : "is not a"} ${what}${bad.length === 1 ? "" : "s"} of the organization`,
      );
  }
  return details;
}

async function validate(tx: DbOrTx, organizationId: string, s: Settings): Promise<void> {
  const details = [...checkRecurrence(s), ...(await checkReferences(tx, organizationId, s))];
  // An e-mail reminder without a reminder time would never be sent: say so rather than accept it.
  if (s.remindByEmail && s.reminderMinutesBefore === null)
    details.push("remindByEmail: remindByEmail needs reminderMinutesBefore (how long before the due time to remind)");
  if (details.length) throw badRequest(INVALID, details);
}

async function recordScheduleChange(
  tx: Tx,
  actor: AuditContext,
  e: { organizationId: string; id: string; change: "created" | "updated" | "deleted"; action: string; fields?: string[] },
): Promise<void> {
  await recordChange(tx, { organizationId: e.organizationId, resourceType: "schedule", resourceId: e.id, change: e.change });
  await recordAudit(tx, actor, {
    organizationId: e.organizationId,
    action: `schedule.${e.action}`,
    resourceType: "schedule",
    resourceId: e.id,
    changedFields: e.fields,
  });
}

const columnsOf = (s: Settings) => ({
  name: s.name,
  templateId: s.templateId,
  rrule: "rrule" in s.recurrence ? s.recurrence.rrule.trim().replace(/^RRULE:/i, "") : null,
  afterCompletionDays: "afterCompletionDays" in s.recurrence ? s.recurrence.afterCompletionDays : null,
  timeZone: s.timeZone,
  startDate: s.startDate,
  startTime: s.startTime,
  dueWithinMinutes: s.dueWithinMinutes,
  assignees: s.assignees,
  target: s.target,
  mustComplete: s.mustComplete,
  canLateSubmit: s.canLateSubmit,
  reminderMinutesBefore: s.reminderMinutesBefore,
  remindByEmail: s.remindByEmail,
  leaverRule: s.leaverRule,
});

/** POST /api/schedules; 409 past `max` schedules (SCHEDULES_MAX_PER_ORG; undefined: not limited). */
export async function createSchedule(db: Db, organizationId: string, actor: AuditContext, input: CreateScheduleBody, max?: number): Promise<ScheduleView> {
  return db.transaction(async (tx) => {
    await assertRoom(tx, organizationId, {
      key: "schedules",
      count: tx.select({ n: count() }).from(schedules).where(eq(schedules.organizationId, organizationId)),
      max,
      what: "schedules",
      setting: "SCHEDULES_MAX_PER_ORG",
      room: "delete one it no longer needs first (DELETE /api/schedules/{id}; paused ones count too)",
    });
    await validate(tx, organizationId, input);
    const [row] = await tx
      .insert(schedules)
      .values({ organizationId, ...columnsOf(input), pausedAt: input.paused ? new Date() : null })
      .returning();
    await recordScheduleChange(tx, actor, { organizationId, id: row!.id, change: "created", action: "created" });
    return toScheduleView(row!);
  });
}

export async function getSchedule(db: DbOrTx, organizationId: string, id: string): Promise<ScheduleView> {
  const [view] = await schedulesByIds(db, organizationId, [id]);
  if (!view) throw scheduleNotFound(id);
  return view;
}

/** The organization's schedules among `ids` (feeds' and webhooks' loader). */
export async function schedulesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<ScheduleView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const rows = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.organizationId, organizationId), inArray(schedules.id, valid)));
  return rows.map(toScheduleView);
}

export async function listSchedules(db: DbOrTx, organizationId: string, q: ScheduleListQuery) {
  const conds = [eq(schedules.organizationId, organizationId)];
  if (q.templateId !== undefined) conds.push(isUuid(q.templateId) ? eq(schedules.templateId, q.templateId) : sql`false`);
  const where = and(...conds);
  const rows = await db.select().from(schedules).where(where).orderBy(desc(schedules.createdAt), desc(schedules.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(schedules).where(where)) as [{ n: number }];
  const total = Number(n);
  return {
    schedules: rows.map(toScheduleView),
    pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + rows.length < total },
  };
}

/** Fields whose change remakes the occurrences not yet opened. */
const RULE_FIELDS = ["templateId", "recurrence", "timeZone", "startDate", "startTime", "dueWithinMinutes", "target", "mustComplete"] as const;

function settingsOf(r: Row): Settings {
  const v = toScheduleView(r);
  return {
    name: v.name,
    templateId: v.templateId,
    recurrence: v.recurrence,
    timeZone: v.timeZone,
    startDate: v.startDate,
    startTime: v.startTime,
    dueWithinMinutes: v.dueWithinMinutes,
    assignees: v.assignees,
    target: v.target,
    mustComplete: v.mustComplete,
    canLateSubmit: v.canLateSubmit,
    reminderMinutesBefore: v.reminderMinutesBefore,
    remindByEmail: v.remindByEmail,
    leaverRule: v.leaverRule,
  };
}

/** Removes the occurrences not yet opened and moves the horizon to now: the sweep makes them again from the current rule. */
async function remakeUpcoming(tx: Tx, organizationId: string, id: string, horizon: Date | null): Promise<void> {
  await tx.delete(occurrences).where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.scheduleId, id), eq(occurrences.state, "UPCOMING")));
  await tx.update(schedules).set({ materializedUntil: horizon }).where(eq(schedules.id, id));
}

/** PATCH /api/schedules/{id}: change, pause or resume. 404, 412, 400. */
export async function patchSchedule(
  db: Db,
  organizationId: string,
  id: string,
  expected: number[] | null,
  input: PatchScheduleBody,
  actor: AuditContext,
): Promise<ScheduleView> {
  if (!isUuid(id)) throw scheduleNotFound(id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.organizationId, organizationId), eq(schedules.id, id)))
      .for("update");
    if (!row) throw scheduleNotFound(id);
    if (expected !== null && !expected.includes(row.revision))
      throw new AppError(
        "stale",
        `The schedule has changed since you read it (it is at revision ${row.revision}); GET it again and reapply your change with its new ETag`,
      );
    const before = settingsOf(row);
    const { paused, ...rest } = input;
    const next: Settings = { ...before, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
    const fields = Object.keys(rest).filter(
      (k) => JSON.stringify((rest as Record<string, unknown>)[k]) !== JSON.stringify((before as Record<string, unknown>)[k]),
    );
    const pauseChange = paused !== undefined && paused !== (row.pausedAt !== null);
    if (!fields.length && !pauseChange) return toScheduleView(row);
    if (fields.length) await validate(tx, organizationId, next);
    const now = new Date();
    const set: Partial<typeof schedules.$inferInsert> = { ...columnsOf(next), revision: row.revision + 1 };
    if (pauseChange) set.pausedAt = paused ? now : null;
    const [updated] = await tx.update(schedules).set(set).where(eq(schedules.id, id)).returning();
    const ruleChanged = fields.some((f) => (RULE_FIELDS as readonly string[]).includes(f));
    // Paused: no upcoming occurrences; resumed or changed: made again from now (a resumed schedule does not make up for the pause).
    if (pauseChange || ruleChanged) await remakeUpcoming(tx, organizationId, id, paused === true ? null : now);
    if (pauseChange) fields.push("paused");
    const action = pauseChange && fields.length === 1 ? (paused ? "paused" : "resumed") : "updated";
    await recordScheduleChange(tx, actor, { organizationId, id, change: "updated", action, fields });
    return toScheduleView(updated!);
  });
}

/** DELETE /api/schedules/{id}: its upcoming occurrences go; opened, completed and missed ones stay, without a schedule. */
export async function deleteSchedule(db: Db, organizationId: string, id: string, actor: AuditContext): Promise<void> {
  if (!isUuid(id)) throw scheduleNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: schedules.id })
      .from(schedules)
      .where(and(eq(schedules.organizationId, organizationId), eq(schedules.id, id)))
      .for("update");
    if (!row) throw scheduleNotFound(id);
    await tx.delete(occurrences).where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.scheduleId, id), eq(occurrences.state, "UPCOMING")));
    await tx.delete(schedules).where(and(eq(schedules.organizationId, organizationId), eq(schedules.id, id)));
    await recordScheduleChange(tx, actor, { organizationId, id, change: "deleted", action: "deleted" });
  });
}

/** GET /api/schedules/{id}/upcoming: the next `count` starts at or after `from`, computed, nothing stored. */
export async function upcomingOf(
  db: DbOrTx,
  organizationId: string,
  id: string,
  from: Date,
  count: number,
): Promise<{ timeZone: string; upcoming: Occurrence[] }> {
  if (!isUuid(id)) throw scheduleNotFound(id);
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.organizationId, organizationId), eq(schedules.id, id)));
  if (!row) throw scheduleNotFound(id);
  const year = from.getUTCFullYear();
  if (year < 2000 || year > 2200) throw badRequest("Invalid query parameters", ["from: from must be between 2000 and 2200"]);
  const spec = { timeZone: row.timeZone, startDate: row.startDate, startTime: row.startTime, dueWithinMinutes: row.dueWithinMinutes };
  if (row.rrule !== null) return { timeZone: row.timeZone, upcoming: nextOccurrences({ ...spec, rrule: row.rrule }, from, count) };
  const [last] = await db
    .select({ at: sql<Date | null>`max(${occurrences.completedAt})`.mapWith((v) => (v ? new Date(v as string) : null)) })
    .from(occurrences)
    .where(and(eq(occurrences.organizationId, organizationId), eq(occurrences.scheduleId, id)));
  // One at a time: the next depends on when the one before it is completed.
  return { timeZone: row.timeZone, upcoming: [afterCompletion({ ...spec, days: row.afterCompletionDays! }, last?.at ?? null)] };
}
