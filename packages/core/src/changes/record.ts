import type { DbOrTx } from "@insp/db";
import { changeEvents } from "@insp/db/schema";

export type ResourceType =
  | "template"
  | "inspection"
  | "employee"
  | "sync_request"
  | "action"
  | "api_key"
  | "oauth_client"
  | "user"
  | "site"
  | "group"
  | "role"
  | "response_type"
  | "asset_type"
  | "asset"
  | "schedule"
  | "occurrence";
export type Change =
  | "created"
  | "updated"
  | "published"
  | "archived"
  | "deactivated"
  | "completed"
  | "draft_created"
  | "overdue"
  | "reviewed"
  | "revoked"
  | "rotated"
  | "deleted"
  | "disabled"
  | "enabled"
  | "erased"
  | "opened"
  | "due_soon"
  | "missed"
  | "started"
  | "reassigned";

/**
 * Records one change in the change log, inside the caller's transaction: it commits or rolls
 * back with the change itself (the employee sync writes its row in its own statement: employees/sql/write-employee.ts).
 */
export async function recordChange(tx: DbOrTx, c: { organizationId: string; resourceType: ResourceType; resourceId: string; change: Change }): Promise<void> {
  await tx.insert(changeEvents).values(c);
}
