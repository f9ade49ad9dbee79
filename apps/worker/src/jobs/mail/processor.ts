import { UnrecoverableError, isLastAttempt, parseJobData } from "@insp/queue";
import { deliverMail, recordMailFailure } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * mail: delivers one mail_outbox row over SMTP (SMTP_URL), or as an .eml file under
 * MAIL_DIR in development. Failures are retried per the queue policy; the last one
 * marks the row failed. Errors are logged without the message body.
 */
export const mailProcessor: ProcessorFactory = (deps) => {
  const cfg = { from: deps.env.MAIL_FROM, loginUrl: deps.env.APP_LOGIN_URL };
  return async (job) => {
    const data = parseJobData("mail", job.data);
    try {
      return await deliverMail(deps.db, deps.mailer, data, cfg);
    } catch (err) {
      const lastAttempt = isLastAttempt(job);
      const message = err instanceof Error ? err.message : String(err);
      await recordMailFailure(deps.db, data.organizationId, data.outboxId, message, lastAttempt);
      deps.logger.warn({ outboxId: data.outboxId, attempt: job.attemptsMade + 1, lastAttempt, error: message }, "mail delivery failed");
      throw lastAttempt ? new UnrecoverableError(message) : err;
    }
  };
};
