import { and, count, desc, eq, not, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { correctiveActions as a } from "@insp/db/schema";
import { isUuid } from "../errors.ts";
import { overdueSql, selectViews, toView } from "./read.ts";
import type { ActionStatus, ActionView } from "./types.ts";

export interface ListActionsQuery {
  status?: ActionStatus;
  assigneeId?: string;
  inspectionId?: string;
  /** true: only overdue actions; false: only those that are not; absent: all. */
  overdue?: boolean;
  limit: number;
  offset: number;
}

export interface ActionPage {
  actions: ActionView[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

/**
 * A page of the organization's actions, newest first with the id as tie-break, so pages never
 * overlap or skip. Each filter has an (organization, filter, created_at, id) index
 * (status, assignee; inspection's serves its filter). A filter id that is not a UUID matches nothing.
 * The total is counted with the same filters, unless the page is the last one.
 */
export async function listActions(db: DbOrTx, organizationId: string, q: ListActionsQuery): Promise<ActionPage> {
  const empty: ActionPage = { actions: [], pagination: { total: 0, limit: q.limit, offset: q.offset, hasMore: false } };
  const conds: SQL[] = [eq(a.organizationId, organizationId)];
  for (const [value, column] of [
    [q.assigneeId, a.assigneeId],
    [q.inspectionId, a.inspectionId],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) return empty;
    conds.push(eq(column, value));
  }
  if (q.status !== undefined) conds.push(eq(a.status, q.status));
  if (q.overdue === true) conds.push(overdueSql);
  if (q.overdue === false) conds.push(not(overdueSql));
  const where = and(...conds);
  const page = await selectViews(db, where).orderBy(desc(a.createdAt), desc(a.id)).limit(q.limit).offset(q.offset);
  // A partial page is the last one: the total is known without counting.
  const total = page.length > 0 && page.length < q.limit ? q.offset + page.length : Number((await db.select({ n: count() }).from(a).where(where))[0]?.n ?? 0);
  return { actions: page.map(toView), pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + page.length < total } };
}
