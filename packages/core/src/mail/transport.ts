import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Delivers or throws; `id` names the message (outbox row id). */
  send(id: string, message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP time limits. Delivery runs inside the outbox row's transaction (mail/deliver.ts), so a
 * slow server holds a row lock and a pool connection: nodemailer's own defaults (2 minutes to
 * connect, 10 minutes of socket inactivity) are far too long. The same options given as query
 * parameters of SMTP_URL (e.g. `?socketTimeout=60000`) take precedence.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 15_000 } as const;

/** nodemailer options of an SMTP_URL: our time limits, then everything the URL says. */
export const smtpTransportOptions = (smtpUrl: string) => ({ ...SMTP_TIMEOUTS, ...parseConnectionUrl(smtpUrl) });

/**
 * The Message-ID of an outbox row's mail: the same on every attempt, so a receiver can drop
 * the rare second copy (delivery is at least once: a worker killed between the SMTP server's
 * answer and the commit sends the mail again).
 */
export const messageId = (outboxId: string) => `<${outboxId}@inspection-service>`;

/**
 * SMTP through nodemailer when SMTP_URL is set. Without it (development only: the
 * worker refuses to start without SMTP_URL in production), each message is written
 * as `<MAIL_DIR>/<id>.eml` where a developer can read it.
 */
export function createMailer(opts: { smtpUrl?: string; mailDir: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(smtpTransportOptions(opts.smtpUrl));
    return {
      async send(id, message) {
        await transport.sendMail({ ...message, messageId: messageId(id) });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(id, message) {
      const info = await transport.sendMail({ ...message, messageId: messageId(id) });
      await mkdir(opts.mailDir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(opts.mailDir, `${id}.eml`), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}
