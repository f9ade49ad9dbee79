import { and, asc, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "@insp/db";
import { inspectionAnswers } from "@insp/db/schema";
import { isUuid } from "../errors.ts";
import { answerColumns, selectPageIds, selectSummaries, toAnswer, toSummary, type InspectionSummary } from "./summary.ts";

export interface ListInspectionsQuery {
  templateId?: string;
  status?: string;
  siteId?: string;
  assetId?: string;
  reviewState?: string;
  /** true: at least one flagged answer; false: none. */
  flagged?: boolean;
  minScorePercentage?: number;
  maxScorePercentage?: number;
  /** Degrees, edges included; minLon > maxLon crosses the antimeridian. */
  bbox?: { minLon: number; minLat: number; maxLon: number; maxLat: number };
  limit: number;
  offset: number;
  includeAnswers: boolean;
}

type ListItem = InspectionSummary & { answers?: ReturnType<typeof toAnswer>[] };

export interface InspectionPage {
  inspections: ListItem[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

/** The list's filters (GET /api/inspections and exports, docs/exports.md). */
export type InspectionFilter = Pick<
  ListInspectionsQuery,
  "templateId" | "status" | "siteId" | "assetId" | "reviewState" | "flagged" | "minScorePercentage" | "maxScorePercentage" | "bbox"
> & {
  /** created_at at or after (exports). */
  createdSince?: string;
  /** created_at before (exports). */
  createdUntil?: string;
};

/**
 * The SQL conditions on `inspections` of a filter, the organization's first; null when nothing can
 * match (a filter id that is not a UUID). One function for the list and the exports, so both
 * select the same inspections for the same filter.
 */
export function inspectionConditions(sql: postgres.Sql, organizationId: string, q: InspectionFilter): postgres.PendingQuery<postgres.Row[]>[] | null {
  const conds = [sql`organization_id = ${organizationId}`];
  for (const [value, column] of [
    [q.templateId, "template_id"],
    [q.siteId, "site_id"],
    [q.assetId, "asset_id"],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) return null;
    conds.push(sql`${sql(column)} = ${value}::uuid`);
  }
  if (q.status !== undefined) conds.push(sql`status = ${q.status}`);
  if (q.reviewState !== undefined) conds.push(sql`review_state = ${q.reviewState}`);
  // flagged=true reads the partial index of flagged inspections (inspections_org_flagged_created_idx).
  if (q.flagged !== undefined) conds.push(q.flagged ? sql`flagged_count > 0` : sql`flagged_count = 0`);
  if (q.minScorePercentage !== undefined) conds.push(sql`score_percentage >= ${q.minScorePercentage}`);
  if (q.maxScorePercentage !== undefined) conds.push(sql`score_percentage <= ${q.maxScorePercentage}`);
  if (q.bbox !== undefined) {
    const b = q.bbox;
    conds.push(sql`longitude is not null and latitude between ${b.minLat} and ${b.maxLat}`);
    conds.push(b.minLon <= b.maxLon ? sql`longitude between ${b.minLon} and ${b.maxLon}` : sql`(longitude >= ${b.minLon} or longitude <= ${b.maxLon})`);
  }
  if (q.createdSince !== undefined) conds.push(sql`created_at >= ${q.createdSince}::timestamptz`);
  if (q.createdUntil !== undefined) conds.push(sql`created_at < ${q.createdUntil}::timestamptz`);
  return conds;
}

/**
 * A page of the organization's inspections, newest first with the id as tie-break so pages
 * never overlap or skip, in plain SQL. Each filter has an (organization, filter, created_at, id)
 * index, so page 1 reads `limit` index entries. A filter id that is not a UUID matches nothing.
 *
 * Two statements per page (selectPageIds, then selectSummaries by primary key), whose plans
 * hold without the parameter values (they run as prepared statements; after five runs Postgres
 * keeps a generic plan).
 *
 * The unfiltered total is the organization's last inspection number (count(*) reads every index
 * entry: about 15 ms per request at 100,000): runImport is the only writer of inspections and
 * takes each one's number from inspection_counters in the same transaction; numbers are
 * gapless and inspections are never deleted, so the last number is the count.
 */
/**
 * Runs a statement unprepared, so Postgres plans it for its values every time. The generic plan of
 * a bbox page (made after five runs of a prepared statement) guesses that a box holds one row, so
 * it reads the whole box from the location index and sorts it: 14.5 ms for a box of 13,000 of
 * 100,000 inspections, where the plan for the values reads 270 entries of the created_at index
 * (0.2 ms); a small box gets the location index from the same planner. Planning costs about
 * 0.3 ms per request (bench/README.md). postgres.js reads a query's options when it runs it.
 */
function planned<Q>(query: Q): Q {
  (query as unknown as { options: { prepare?: boolean } }).options.prepare = false;
  return query;
}

export async function listInspections(db: Db, organizationId: string, q: ListInspectionsQuery): Promise<InspectionPage> {
  const sql = db.$client;
  const empty = { inspections: [], pagination: { total: 0, limit: q.limit, offset: q.offset, hasMore: false } };
  const conds = inspectionConditions(sql, organizationId, q);
  if (conds === null) return empty;
  const where = conds.reduce((a, c) => sql`${a} and ${c}`);
  const total =
    conds.length === 1
      ? sql`coalesce((select last_number from inspection_counters where organization_id = ${organizationId}), 0)`
      : sql`(select count(*)::int from inspections where ${where})`;
  // A box is planned for its own values (see planned): a generic plan sorted every inspection in it.
  const planFor = q.bbox !== undefined ? planned : <Q>(query: Q) => query;
  const page = await planFor(selectPageIds(sql, where, total, q.limit, q.offset));
  // An empty page (past the end, or nothing matches) carries no total: ask for it alone.
  const count = page.length ? page[0]!.total : ((await planFor(sql<{ total: number }[]>`select ${total} as total`))[0]?.total ?? 0);
  const rows = page.length
    ? await selectSummaries(
        sql,
        organizationId,
        page.map((r) => r.id),
      )
    : [];
  const items: ListItem[] = rows.map(toSummary);
  if (q.includeAnswers && items.length) {
    // Each inspection's answers of the revision its summary shows, even if a PATCH commits in between.
    const revisionOf = new Map(rows.map((r) => [r.id, r.revision]));
    const revisions = [...revisionOf.values()];
    const answers = await db
      .select({ ...answerColumns, from: inspectionAnswers.revisionFrom, to: inspectionAnswers.revisionTo })
      .from(inspectionAnswers)
      .where(
        and(
          eq(inspectionAnswers.organizationId, organizationId),
          inArray(
            inspectionAnswers.inspectionId,
            items.map((i) => i.id),
          ),
          lte(inspectionAnswers.revisionFrom, Math.max(...revisions)),
          or(isNull(inspectionAnswers.revisionTo), gt(inspectionAnswers.revisionTo, Math.min(...revisions))),
        ),
      )
      .orderBy(asc(inspectionAnswers.inspectionId), asc(inspectionAnswers.position));
    const byInspection = new Map<string, ReturnType<typeof toAnswer>[]>();
    for (const a of answers) {
      const revision = revisionOf.get(a.inspectionId)!;
      if (a.from > revision || (a.to !== null && a.to <= revision)) continue;
      const list = byInspection.get(a.inspectionId);
      if (list) list.push(toAnswer(a));
      else byInspection.set(a.inspectionId, [toAnswer(a)]);
    }
    for (const item of items) item.answers = byInspection.get(item.id) ?? [];
  }
  const totalNumber = Number(count);
  return { inspections: items, pagination: { total: totalNumber, limit: q.limit, offset: q.offset, hasMore: q.offset + items.length < totalNumber } };
}
