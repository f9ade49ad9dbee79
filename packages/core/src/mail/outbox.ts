import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { mailOutbox } from "@insp/db/schema";

/**
 * Outgoing mail is written as an outbox row in the same transaction as the change
 * that causes it, and a `mail` job (enqueued after commit) delivers it. The row holds
 * non-secret template data only.
 */

export interface WelcomeMailData {
  displayName: string | null;
  username: string;
  /** The mail job generates a temporary password at delivery and includes it. */
  includeTemporaryPassword: boolean;
  /** Absent: the welcome mail of a new account; `password_reset`: an administrator reset the password (POST /api/users/{id}/reset-password). */
  purpose?: "password_reset";
}

/** Pending rows older than `olderThanSeconds` (their job may have been lost), `limit` at a time by id after `after`. */
export async function stalePendingMail(db: DbOrTx, olderThanSeconds: number, limit = 1000, after: string | null = null) {
  return db
    .select({ id: mailOutbox.id, organizationId: mailOutbox.organizationId })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        lte(mailOutbox.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
        after ? gt(mailOutbox.id, after) : undefined,
      ),
    )
    .orderBy(asc(mailOutbox.id))
    .limit(limit);
}

/** Counts a failed delivery; the last attempt marks the row failed so the sweep stops picking it up. */
export async function recordMailFailure(db: DbOrTx, organizationId: string, id: string, message: string, final: boolean): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, lastError: message.slice(0, 500), ...(final ? { status: "failed" } : {}) })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.organizationId, organizationId), eq(mailOutbox.status, "pending")));
}
