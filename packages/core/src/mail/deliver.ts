import { and, eq, sql } from "drizzle-orm";
import { isConnectionError, retryWhileUnreachable, type Db, type DbOrTx, type SqlTx } from "@insp/db";
import { mailOutbox, users } from "@insp/db/schema";
import { generateTemporaryPassword, hashTemporaryPassword } from "../auth/passwords.ts";
import type { WelcomeMailData } from "./outbox.ts";
import type { Mailer } from "./transport.ts";
import { composeReminder, type ReminderMailData } from "./reminder.ts";
import { composeWelcome } from "./welcome.ts";

export interface MailConfig {
  from: string;
  loginUrl: string;
}

/**
 * Delivers one outbox row (a welcome or password-reset mail, or a scheduled inspection's
 * reminder), once. The row is locked for the whole delivery, so two
 * jobs for it (a retry and a sweep) cannot both send. For a welcome mail with
 * forcePasswordReset, the temporary password is generated here, its hash stored with
 * mustResetPassword in the same transaction that marks the row sent: it exists in
 * plain text only in the mail. A failed send rolls everything back and is retried.
 * If the SMTP server took the message but the transaction was then lost with its
 * connection, the row is marked sent (and the mailed password's hash stored) in a new
 * transaction, so the retry does not send the mail a second time.
 */
export async function deliverMail(db: Db, mailer: Mailer, job: { organizationId: string; outboxId: string }, cfg: MailConfig): Promise<"sent" | "skipped"> {
  let handedOver: { userId: string | null; passwordHash: string | null } | null = null;
  let delivery: Promise<"sent" | "skipped"> | undefined;
  try {
    return await db.$client.begin((tx: SqlTx) => (delivery = deliverInTransaction(tx)));
  } catch (err) {
    // A transaction whose connection drops is rejected at once, while its callback may still
    // be talking to the SMTP server: wait for it, so a mail handed over is known as such.
    await delivery?.catch(() => {});
    if (!handedOver || !isConnectionError(err)) throw err;
    await recordHandedOver(db, job, handedOver, err);
    return "sent";
  }

  /**
   * Three statements: the row locked with its organization's name and, in the same statement,
   * the temporary password's hash set when the mail carries one (only while the user has not
   * chosen a password of their own); then, after SMTP, the row marked sent; then COMMIT.
   */
  async function deliverInTransaction(tx: SqlTx): Promise<"sent" | "skipped"> {
    const candidate = generateTemporaryPassword();
    const candidateHash = hashTemporaryPassword(candidate);
    const [row] = await tx<
      {
        id: string;
        kind: string;
        status: string;
        to_address: string;
        data: WelcomeMailData | ReminderMailData;
        user_id: string | null;
        org_name: string;
        password_set: boolean;
      }[]
    >`
      with m as (
        select o.id, o.kind, o.status, o.to_address, o.data, o.user_id, org.name as org_name
        from mail_outbox o join organizations org on org.id = o.organization_id
        where o.id = ${job.outboxId} and o.organization_id = ${job.organizationId}
        for update of o
      ),
      pw as (
        update users set password_hash = ${candidateHash}, must_reset_password = true, updated_at = now()
        where id = (select user_id from m where status = 'pending' and kind = 'welcome' and (data->>'includeTemporaryPassword')::boolean)
          and organization_id = ${job.organizationId} and must_reset_password = true
        returning id
      )
      select m.*, exists (select 1 from pw) as password_set from m`;
    if (!row || row.status !== "pending") return "skipped";
    const common = { to: row.to_address, from: cfg.from, organizationName: row.org_name, loginUrl: cfg.loginUrl };
    let message;
    if (row.kind === "welcome")
      message = composeWelcome({ ...common, data: row.data as WelcomeMailData, temporaryPassword: row.password_set ? candidate : undefined });
    else if (row.kind === "occurrence_reminder") message = composeReminder({ ...common, data: row.data as ReminderMailData });
    else throw new Error(`unknown mail kind ${row.kind}`);
    await mailer.send(row.id, message);
    handedOver = { userId: row.user_id, passwordHash: row.password_set ? candidateHash : null };
    await tx`update mail_outbox set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null
      where id = ${row.id} and organization_id = ${job.organizationId} and status = 'pending'`;
    return "sent";
  }
}

async function setTemporaryPassword(db: DbOrTx, organizationId: string, userId: string, passwordHash: string): Promise<number> {
  const set = await db
    .update(users)
    .set({ passwordHash, mustResetPassword: true, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId), eq(users.mustResetPassword, true)))
    .returning({ id: users.id });
  return set.length;
}

async function markSent(db: DbOrTx, organizationId: string, id: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: sql`now()`, attempts: sql`${mailOutbox.attempts} + 1`, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.organizationId, organizationId), eq(mailOutbox.status, "pending")));
}

/**
 * The SMTP server has the message, the transaction that recorded it is gone (or its outcome
 * unknown: the COMMIT may have landed). Records it again, idempotently, for up to about 30 s
 * while the database comes back; gives up with the original error after that (the retry will
 * then send the mail again: at least once).
 */
async function recordHandedOver(
  db: Db,
  job: { organizationId: string; outboxId: string },
  sent: { userId: string | null; passwordHash: string | null },
  original: unknown,
): Promise<void> {
  try {
    await retryWhileUnreachable(
      () =>
        db.transaction(async (tx) => {
          if (sent.userId && sent.passwordHash) await setTemporaryPassword(tx, job.organizationId, sent.userId, sent.passwordHash);
          await markSent(tx, job.organizationId, job.outboxId);
        }),
      30_000,
    );
  } catch (err) {
    throw isConnectionError(err) ? original : err;
  }
}
