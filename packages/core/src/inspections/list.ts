import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { inspectionAnswers, inspectionCounters, inspections } from "@insp/db/schema";
import { isUuid } from "../errors.ts";
import { answerColumns, selectSummaries, toAnswer, toSummary, type InspectionSummary } from "./summary.ts";

export interface ListInspectionsQuery {
  templateId?: string;
  status?: string;
  siteId?: string;
  assetId?: string;
  limit: number;
  offset: number;
  includeAnswers: boolean;
}

type ListItem = InspectionSummary & { answers?: ReturnType<typeof toAnswer>[] };

export interface InspectionPage {
  inspections: ListItem[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

/**
 * The organization's number of inspections without counting them (count(*) reads every index
 * entry: about 15 ms per request at 100,000, bench/README.md). runImport is the only writer of
 * inspections and takes each one's number from inspection_counters in the same transaction;
 * numbers are gapless and inspections are never deleted, so the last number is the count.
 */
async function countAll(db: DbOrTx, organizationId: string): Promise<{ total: number }[]> {
  const [row] = await db.select({ total: inspectionCounters.lastNumber }).from(inspectionCounters).where(eq(inspectionCounters.organizationId, organizationId));
  return [{ total: row?.total ?? 0 }];
}

/**
 * A page of the organization's inspections, newest first with the id as tie-break so pages
 * never overlap or skip. Each filter has an (organization, filter, created_at, id) index, so
 * page 1 reads `limit` index entries. A filter id that is not a UUID matches nothing.
 */
export async function listInspections(db: DbOrTx, organizationId: string, q: ListInspectionsQuery): Promise<InspectionPage> {
  const empty = { inspections: [], pagination: { total: 0, limit: q.limit, offset: q.offset, hasMore: false } };
  const conds: SQL[] = [eq(inspections.organizationId, organizationId)];
  for (const [value, column] of [
    [q.templateId, inspections.templateId],
    [q.siteId, inspections.siteId],
    [q.assetId, inspections.assetId],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) return empty;
    conds.push(eq(column, value));
  }
  if (q.status !== undefined) conds.push(eq(inspections.status, q.status));
  const where = and(...conds);

  // Two statements, each with a plan that holds without the parameter values: queries run as
  // named prepared statements (@insp/db), and after five runs Postgres may keep a generic plan.
  // The page's ids come from the (organization, filter, created_at, id) index alone, then the
  // summaries of those ids by primary key. Joined to a LIMIT/OFFSET subquery in one statement, the
  // generic plan re-ran the subquery for every inspection of the organization (7 s per request
  // at 5,000 inspections, bench/README.md).
  const [ids, [{ total } = { total: 0 }]] = await Promise.all([
    db.select({ id: inspections.id }).from(inspections).where(where).orderBy(desc(inspections.createdAt), desc(inspections.id)).limit(q.limit).offset(q.offset),
    conds.length === 1 ? countAll(db, organizationId) : db.select({ total: count() }).from(inspections).where(where),
  ]);
  const rows = ids.length
    ? await selectSummaries(db, organizationId)
        .where(and(eq(inspections.organizationId, organizationId), sql`${inspections.id} = any(${sql.param(ids.map((r) => r.id))}::uuid[])`))
        .orderBy(desc(inspections.createdAt), desc(inspections.id))
    : [];
  const items: ListItem[] = rows.map(toSummary);
  if (q.includeAnswers && items.length) {
    const answers = await db
      .select(answerColumns)
      .from(inspectionAnswers)
      .where(and(eq(inspectionAnswers.organizationId, organizationId), inArray(inspectionAnswers.inspectionId, items.map((i) => i.id))))
      .orderBy(asc(inspectionAnswers.inspectionId), asc(inspectionAnswers.position));
    const byInspection = new Map<string, ReturnType<typeof toAnswer>[]>();
    for (const a of answers) {
      const list = byInspection.get(a.inspectionId);
      if (list) list.push(toAnswer(a));
      else byInspection.set(a.inspectionId, [toAnswer(a)]);
    }
    for (const item of items) item.answers = byInspection.get(item.id) ?? [];
  }
  return { inspections: items, pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + items.length < total } };
}
