import { sql } from "drizzle-orm";
import type { Db } from "@insp/db";
import { changeEvents } from "@insp/db/schema";

/**
 * The overdue sweep (every ACTION_OVERDUE_SWEEP_SECONDS in each worker): actions OPEN or
 * IN_PROGRESS whose dueAt has passed and that have not been announced get overdue_notified_at
 * and an `overdue` change (action.overdue), at most `limit` per call, oldest due first.
 *
 * One transaction: ONE update that marks the rows and returns them, then their change events.
 * Safe on any number of worker replicas at once: the rows are claimed with `for update skip
 * locked` (a replica never waits for another's), and the update repeats the conditions, so a row
 * another replica marked in the meantime is not marked, or announced, twice. The partial index
 * corrective_actions_overdue_idx holds exactly the rows it looks for. Returns how many it announced.
 */
export async function announceOverdueActions(db: Db, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const marked = await tx.execute<{ id: string; organization_id: string }>(sql`
      update corrective_actions a set overdue_notified_at = now()
      where a.id in (
          select id from corrective_actions
          where status in ('OPEN', 'IN_PROGRESS') and overdue_notified_at is null and due_at is not null and due_at < now()
          order by due_at
          limit ${limit}
          for update skip locked)
        and a.status in ('OPEN', 'IN_PROGRESS') and a.overdue_notified_at is null and a.due_at is not null and a.due_at < now()
      returning a.id, a.organization_id`);
    if (marked.length) {
      await tx
        .insert(changeEvents)
        .values(marked.map((r) => ({ organizationId: r.organization_id, resourceType: "action", resourceId: r.id, change: "overdue" })));
    }
    return marked.length;
  });
}
