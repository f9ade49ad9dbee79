import type { ActionPriority, ActionStatus } from "@insp/contracts";

export type { ActionPriority, ActionStatus };

/** A corrective action as every endpoint, feed item and webhook body shows it (contracts CorrectiveAction). */
export interface ActionView {
  id: string;
  title: string;
  description: string | null;
  priority: ActionPriority;
  status: ActionStatus;
  assigneeId: string | null;
  assignee: { id: string; name: string | null; email: string } | null;
  dueAt: string | null;
  /** OPEN or IN_PROGRESS with dueAt in the past (Postgres's clock). */
  overdue: boolean;
  inspectionId: string | null;
  questionId: string | null;
  createdBy: { type: string; id: string | null };
  /** Set when it becomes DONE; cleared when it is reopened. */
  completedAt: string | null;
  completedBy: { type: string; id: string | null } | null;
  /** 1 when created, one more for every accepted PATCH; the ETag. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** The statuses in which an action can be overdue (the overdue sweep's partial index says the same). */
export const OPEN_STATUSES = ["OPEN", "IN_PROGRESS"] as const satisfies readonly ActionStatus[];

/** The message of a 400 for an action's fields (details name each problem). */
export const ACTION_INVALID = "Corrective action validation failed";
