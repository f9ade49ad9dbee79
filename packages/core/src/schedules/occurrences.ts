import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { DateTime } from "luxon";
import type { OccurrenceListQuery, OccurrenceView } from "@insp/contracts";
import type { DbOrTx } from "@insp/db";
import { occurrences as o, schedules } from "@insp/db/schema";
import { forbidden, isUuid, notFound } from "../errors.ts";

/** Occurrences over HTTP (/api/occurrences; docs/schedules.md): the field app's work list. */

const columns = {
  row: o,
  scheduleName: schedules.name,
};

type Selected = { row: typeof o.$inferSelect; scheduleName: string | null };

const local = (d: Date, zone: string) => DateTime.fromJSDate(d, { zone }).toISO({ suppressMilliseconds: true })!;

function toView({ row: r, scheduleName }: Selected): OccurrenceView {
  return {
    id: r.id,
    scheduleId: r.scheduleId,
    scheduleName,
    templateId: r.templateId,
    templateVersion: r.templateVersion,
    siteId: r.siteId,
    assetId: r.assetId,
    state: r.state as OccurrenceView["state"],
    startAt: r.startAt.toISOString(),
    dueAt: r.dueAt.toISOString(),
    localStart: local(r.startAt, r.timeZone),
    localDue: local(r.dueAt, r.timeZone),
    mustComplete: r.mustComplete as "ONE" | "ALL",
    assigneeUserIds: r.assigneeUserIds,
    completedByUserIds: r.completedByUserIds,
    needsAssignee: r.needsAssignee,
    startedAt: r.startedAt?.toISOString() ?? null,
    inspectionId: r.inspectionId,
    completedAt: r.completedAt?.toISOString() ?? null,
  };
}

const select = (db: DbOrTx, where: SQL | undefined) => db.select(columns).from(o).leftJoin(schedules, eq(schedules.id, o.scheduleId)).where(where);

/** The organization's occurrences among `ids` (feeds' and webhooks' loader). */
export async function occurrencesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<OccurrenceView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return (await select(db, and(eq(o.organizationId, organizationId), inArray(o.id, valid)))).map(toView);
}

export async function getOccurrence(db: DbOrTx, organizationId: string, id: string): Promise<OccurrenceView> {
  const [view] = await occurrencesByIds(db, organizationId, [id]);
  if (!view) throw notFound(`Occurrence ${id} not found`);
  return view;
}

/** Who lists: a user (admin or not) or an API key. */
export type OccurrenceReader = { kind: "user"; userId: string; isAdmin: boolean } | { kind: "apiKey" };

/**
 * Whose occurrences a request lists: a user's own by default (`assignee=me`); another user's or
 * everyone's (`assignee=any`) only for an admin user or an API key (403 otherwise). An API key
 * lists every one unless it names a user. null: everyone's.
 */
function assigneeOf(reader: OccurrenceReader, assignee: string | undefined): string | null {
  if (reader.kind === "apiKey") {
    if (assignee === "me") throw forbidden("assignee=me needs a user token; an API key names a user id or lists every occurrence");
    return assignee === undefined || assignee === "any" ? null : assignee;
  }
  if (assignee === undefined || assignee === "me" || assignee === reader.userId) return reader.userId;
  if (!reader.isAdmin) throw forbidden("Only admin users can list other users' occurrences (assignee=me lists your own)");
  return assignee === "any" ? null : assignee;
}

/** GET /api/occurrences: ordered by due time, then id, so pages neither overlap nor skip. */
export async function listOccurrences(db: DbOrTx, organizationId: string, reader: OccurrenceReader, q: OccurrenceListQuery) {
  const empty = { occurrences: [], pagination: { total: 0, limit: q.limit, offset: q.offset, hasMore: false } };
  const conds: SQL[] = [eq(o.organizationId, organizationId)];
  const assignee = assigneeOf(reader, q.assignee);
  if (assignee !== null) {
    if (!isUuid(assignee)) return empty;
    conds.push(sql`${o.assigneeUserIds} @> array[${assignee}]::uuid[]`);
  }
  for (const [value, column] of [
    [q.siteId, o.siteId],
    [q.assetId, o.assetId],
    [q.scheduleId, o.scheduleId],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) return empty;
    conds.push(eq(column, value));
  }
  if (q.state) conds.push(eq(o.state, q.state));
  if (q.from) conds.push(gte(o.dueAt, new Date(q.from)));
  if (q.to) conds.push(lt(o.dueAt, new Date(q.to)));
  const where = and(...conds);
  const page = await select(db, where).orderBy(asc(o.dueAt), asc(o.id)).limit(q.limit).offset(q.offset);
  const total = page.length > 0 && page.length < q.limit ? q.offset + page.length : Number((await db.select({ n: count() }).from(o).where(where))[0]?.n ?? 0);
  return { occurrences: page.map(toView), pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + page.length < total } };
}
