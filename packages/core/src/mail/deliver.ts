import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@insp/db";
import { mailOutbox, organizations, users } from "@insp/db/schema";
import { generateTemporaryPassword, hashTemporaryPassword } from "../auth/passwords.ts";
import type { WelcomeMailData } from "./outbox.ts";
import type { Mailer } from "./transport.ts";
import { composeWelcome } from "./welcome.ts";

export interface MailConfig {
  from: string;
  loginUrl: string;
}

/**
 * Delivers one outbox row, once. The row is locked for the whole delivery, so two
 * jobs for it (a retry and a sweep) cannot both send. For a welcome mail with
 * forcePasswordReset, the temporary password is generated here, its hash stored with
 * mustResetPassword in the same transaction that marks the row sent: it exists in
 * plain text only in the mail. A failed send rolls everything back and is retried.
 */
export async function deliverMail(db: Db, mailer: Mailer, job: { organizationId: string; outboxId: string }, cfg: MailConfig): Promise<"sent" | "skipped"> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: mailOutbox.id, kind: mailOutbox.kind, status: mailOutbox.status, to: mailOutbox.toAddress, data: mailOutbox.data, userId: mailOutbox.userId, organizationName: organizations.name })
      .from(mailOutbox)
      .innerJoin(organizations, eq(organizations.id, mailOutbox.organizationId))
      .where(and(eq(mailOutbox.id, job.outboxId), eq(mailOutbox.organizationId, job.organizationId)))
      .for("update", { of: mailOutbox })
      .limit(1);
    if (!row || row.status !== "pending") return "skipped";
    if (row.kind !== "welcome") throw new Error(`unknown mail kind ${row.kind}`);
    const data = row.data as WelcomeMailData;
    let temporaryPassword: string | undefined;
    if (data.includeTemporaryPassword && row.userId) {
      const candidate = generateTemporaryPassword();
      // Only while the user has not chosen a password of their own.
      const set = await tx
        .update(users)
        .set({ passwordHash: hashTemporaryPassword(candidate), mustResetPassword: true, updatedAt: sql`now()` })
        .where(and(eq(users.id, row.userId), eq(users.organizationId, job.organizationId), eq(users.mustResetPassword, true)))
        .returning({ id: users.id });
      if (set.length > 0) temporaryPassword = candidate;
    }
    await mailer.send(row.id, composeWelcome({ to: row.to, from: cfg.from, organizationName: row.organizationName, loginUrl: cfg.loginUrl, data, temporaryPassword }));
    await tx
      .update(mailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, attempts: sql`${mailOutbox.attempts} + 1`, lastError: null })
      .where(eq(mailOutbox.id, row.id));
    return "sent";
  });
}
