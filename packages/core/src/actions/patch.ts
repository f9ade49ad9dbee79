import { and, eq, sql } from "drizzle-orm";
import { ACTION_TRANSITIONS, type PatchActionBody } from "@insp/contracts";
import type { Db } from "@insp/db";
import { correctiveActions } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, badRequest, forbidden, isUuid } from "../errors.ts";
import { assigneeProblems } from "./create.ts";
import { actionNotFound, getAction } from "./read.ts";
import { ACTION_INVALID, OPEN_STATUSES, type ActionStatus, type ActionView } from "./types.ts";

/** PATCH /api/actions/{id} after schema validation (contracts PatchActionBody). */
export type PatchActionInput = PatchActionBody;

/** Who asks for the change: their audit context, and whether they may change any action of the organization. */
export interface ActionEditor {
  audit: AuditContext;
  /** API keys (with actions:write) and admin users; other users only actions they are assigned to or created. */
  mayChangeAny: boolean;
}

export type PatchActionOutcome = { changed: boolean; action: ActionView };

const isOpen = (s: string) => (OPEN_STATUSES as readonly string[]).includes(s);

/**
 * Changes an action: any of title, description, assigneeId, dueAt, priority and status, as one new
 * revision, in one transaction that holds the row lock (PATCHes of one action apply one after the
 * other; the loser of a race sees the new revision: 412).
 *
 * In this order: 404 (unknown, malformed or another organization's id), 403 (a user who is not an
 * admin, the assignee or the creator), 412 (`expectedRevisions` are the If-Match revisions; null
 * for `*`), 409 (a status move ACTION_TRANSITIONS does not allow), 400 (an assignee who is not an
 * enabled user of the organization). A request that changes nothing makes no revision.
 *
 * Becoming DONE records completedAt and completedBy (action.completed besides action.updated);
 * reopening (DONE or CANCELLED to OPEN or IN_PROGRESS) clears them: the audit log and the change
 * log keep who completed it. Changing dueAt or reopening clears overdue_notified_at, so the sweep
 * may announce action.overdue again.
 */
export async function patchAction(
  db: Db,
  organizationId: string,
  id: string,
  expectedRevisions: number[] | null,
  input: PatchActionInput,
  editor: ActionEditor,
): Promise<PatchActionOutcome> {
  if (!isUuid(id)) throw actionNotFound(id);
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(correctiveActions)
      .where(and(eq(correctiveActions.organizationId, organizationId), eq(correctiveActions.id, id)))
      .for("update");
    if (!row) throw actionNotFound(id);
    const { audit } = editor;
    if (!editor.mayChangeAny) {
      const isAssignee = audit.actorType === "user" && row.assigneeId !== null && row.assigneeId === audit.actorId;
      const isCreator = row.createdByType === audit.actorType && row.createdById !== null && row.createdById === audit.actorId;
      if (!isAssignee && !isCreator) throw forbidden("Only an administrator, the action's assignee or the user who created it may change it");
    }
    if (expectedRevisions !== null && !expectedRevisions.includes(row.revision)) {
      throw new AppError(
        "stale",
        `The action has changed since you read it (it is at revision ${row.revision}); GET it again and reapply your change with its new ETag`,
      );
    }

    const from = row.status as ActionStatus;
    const to = input.status ?? from;
    if (to !== from && !ACTION_TRANSITIONS[from].includes(to)) {
      throw new AppError(
        "conflict",
        isOpen(from)
          ? `An ${from} action cannot become ${to}; it may become ${ACTION_TRANSITIONS[from].join(", ")}`
          : `A ${from} action cannot become ${to}: reopen it first (OPEN or IN_PROGRESS)`,
      );
    }

    const fields: string[] = [];
    const set: Partial<typeof correctiveActions.$inferInsert> = {};
    const change = <K extends "title" | "description" | "priority">(key: K, value: (typeof set)[K] | undefined) => {
      if (value === undefined || value === row[key]) return;
      fields.push(key);
      set[key] = value;
    };
    change("title", input.title);
    change("description", input.description);
    change("priority", input.priority);
    if (input.assigneeId !== undefined && input.assigneeId?.toLowerCase() !== row.assigneeId?.toLowerCase()) {
      const problems = await assigneeProblems(tx, organizationId, [{ label: "", assigneeId: input.assigneeId }]);
      if (problems.length) throw badRequest(ACTION_INVALID, problems);
      fields.push("assigneeId");
      set.assigneeId = input.assigneeId;
    }
    const dueAt = input.dueAt === undefined ? undefined : input.dueAt === null ? null : new Date(input.dueAt);
    if (dueAt !== undefined && dueAt?.getTime() !== row.dueAt?.getTime()) {
      fields.push("dueAt");
      set.dueAt = dueAt;
      // A new due date may pass again: the sweep may announce it again.
      set.overdueNotifiedAt = null;
    }
    if (to !== from) {
      fields.push("status");
      set.status = to;
      if (to === "DONE") Object.assign(set, { completedAt: sql`now()`, completedByType: audit.actorType, completedById: audit.actorId });
      else Object.assign(set, { completedAt: null, completedByType: null, completedById: null });
      // Reopened: overdue again once past its due date, and announced again.
      if (isOpen(to) && !isOpen(from)) set.overdueNotifiedAt = null;
    }
    if (!fields.length) return false;

    await tx
      .update(correctiveActions)
      .set({ ...set, revision: row.revision + 1, updatedAt: sql`now()` })
      .where(eq(correctiveActions.id, id));
    await recordChange(tx, { organizationId, resourceType: "action", resourceId: id, change: "updated" });
    if (to === "DONE" && from !== "DONE") await recordChange(tx, { organizationId, resourceType: "action", resourceId: id, change: "completed" });
    await recordAudit(tx, audit, { organizationId, action: "action.updated", resourceType: "action", resourceId: id, changedFields: fields });
    return true;
  });
  return { changed, action: await getAction(db, organizationId, id) };
}
