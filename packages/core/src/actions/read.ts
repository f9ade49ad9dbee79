import { createHash } from "node:crypto";
import { and, asc, eq, getTableColumns, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { correctiveActions as a, users } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";
import type { ActionPriority, ActionStatus, ActionView } from "./types.ts";

/** OPEN or IN_PROGRESS with dueAt in the past: the view's `overdue` and the list's filter. */
export const overdueSql = sql<boolean>`(${a.status} in ('OPEN', 'IN_PROGRESS') and ${a.dueAt} is not null and ${a.dueAt} < now())`;

const viewColumns = { ...getTableColumns(a), assigneeName: users.name, assigneeEmail: users.email, overdue: overdueSql };

/**
 * Actions with their assignee's name and e-mail. The join repeats the organization, so no other
 * tenant's user can appear. Callers add the organization to `where`.
 */
export const selectViews = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select(viewColumns)
    .from(a)
    .leftJoin(users, and(eq(users.id, a.assigneeId), eq(users.organizationId, a.organizationId)))
    .where(where);

type ViewRow = Awaited<ReturnType<typeof selectViews>>[number];

export function toView(r: ViewRow): ActionView {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    priority: r.priority as ActionPriority,
    status: r.status as ActionStatus,
    assigneeId: r.assigneeId,
    assignee: r.assigneeId !== null && r.assigneeEmail !== null ? { id: r.assigneeId, name: r.assigneeName, email: r.assigneeEmail } : null,
    dueAt: r.dueAt?.toISOString() ?? null,
    overdue: r.overdue === true,
    inspectionId: r.inspectionId,
    questionId: r.questionId,
    createdBy: { type: r.createdByType, id: r.createdById },
    completedAt: r.completedAt?.toISOString() ?? null,
    completedBy: r.completedByType !== null ? { type: r.completedByType, id: r.completedById } : null,
    revision: r.revision,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const actionNotFound = (id: string) => notFound(`Action ${id} not found`);

/** The organization's actions among `ids` (any order); ids that are not UUIDs or not theirs are left out. The feeds' and webhooks' loader. */
export async function actionsByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<ActionView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return (await selectViews(db, and(eq(a.organizationId, organizationId), inArray(a.id, valid)))).map(toView);
}

/** GET /api/actions/{id}: 404 for an unknown, malformed or another organization's id. */
export async function getAction(db: DbOrTx, organizationId: string, id: string): Promise<ActionView> {
  const [view] = await actionsByIds(db, organizationId, [id]);
  if (!view) throw actionNotFound(id);
  return view;
}

/**
 * A short hash of what an action shows beyond its own row's revision: the assignee's name and
 * e-mail (a renamed user) and `overdue` (which turns true when dueAt passes, without a PATCH).
 * Part of the ETag with the revision, so neither is served as "not modified".
 */
export function actionFingerprint(v: ActionView): string {
  return createHash("sha256")
    .update(JSON.stringify([v.assignee, v.overdue]))
    .digest("hex")
    .slice(0, 8);
}

/**
 * The inspection's actions raised with an answer, by questionId, oldest first in each list (for
 * the inspection detail). Actions of the inspection without a questionId are not included: GET
 * /api/actions?inspectionId= lists every action of an inspection.
 */
export async function actionsOfInspection(db: DbOrTx, organizationId: string, inspectionId: string): Promise<Map<string, ActionView[]>> {
  const byQuestion = new Map<string, ActionView[]>();
  if (!isUuid(inspectionId)) return byQuestion;
  const rows = await selectViews(db, and(eq(a.organizationId, organizationId), eq(a.inspectionId, inspectionId), isNotNull(a.questionId))).orderBy(
    asc(a.createdAt),
    asc(a.id),
  );
  for (const r of rows) {
    const view = toView(r);
    const list = byQuestion.get(view.questionId!);
    if (list) list.push(view);
    else byQuestion.set(view.questionId!, [view]);
  }
  return byQuestion;
}
