import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { inspections } from "./inspections.ts";

/**
 * Corrective actions (docs/actions.md): follow-ups raised by an inspection's answer or on their own.
 * `revision` is the ETag; OPEN -> IN_PROGRESS -> DONE, or CANCELLED; DONE and CANCELLED may reopen.
 */
export const correctiveActions = pgTable(
  "corrective_actions",
  {
    id: id(),
    organizationId: orgId(),
    title: text("title").notNull(),
    description: text("description"),
    /** LOW, MEDIUM, HIGH */
    priority: text("priority").notNull().default("MEDIUM"),
    /** OPEN, IN_PROGRESS, DONE, CANCELLED */
    status: text("status").notNull().default("OPEN"),
    assigneeId: uuid("assignee_id").references(() => users.id, { onDelete: "set null" }),
    dueAt: ts("due_at"),
    inspectionId: uuid("inspection_id").references(() => inspections.id, { onDelete: "cascade" }),
    /** A question of the inspection's template version (no foreign key: see inspection_answers.question_id). */
    questionId: uuid("question_id"),
    /** Who created it: api_key, user, ... and its id (the audit log's actor). */
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id"),
    completedAt: ts("completed_at"),
    completedByType: text("completed_by_type"),
    completedById: text("completed_by_id"),
    /** Set once by the overdue sweep when it records action.overdue; cleared when dueAt moves or the action reopens. */
    overdueNotifiedAt: ts("overdue_notified_at"),
    /** Bumped by every accepted PATCH; the ETag. */
    revision: integer("revision").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("corrective_actions_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("corrective_actions_org_inspection_idx").on(t.organizationId, t.inspectionId, t.questionId),
    index("corrective_actions_org_assignee_idx").on(t.organizationId, t.assigneeId, t.createdAt, t.id),
    index("corrective_actions_org_status_idx").on(t.organizationId, t.status, t.createdAt, t.id),
    // The overdue sweep reads only open actions past due that have not been announced.
    index("corrective_actions_overdue_idx")
      .on(t.dueAt)
      .where(sql`status in ('OPEN', 'IN_PROGRESS') and overdue_notified_at is null and due_at is not null`),
  ],
);
