import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared/index.js";

interface MailMessage {
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
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 15_000 } as const;

/**
 * Pooled SMTP connections: a connection (and its TLS and AUTH exchange) is reused for message
 * after message instead of one per mail (48 mails/s before, one worker; bench/README.md).
 * `pool`, `maxConnections` and `maxMessages` in SMTP_URL's query override these.
 */
const SMTP_POOL = { pool: true, maxConnections: 5, maxMessages: Infinity } as const;

/**
 * The SMTP connection's socket, with Nagle's algorithm off. nodemailer writes a message in
 * several small pieces; with Nagle on, each piece after the first waits for the server's
 * delayed ACK (40 ms on Linux), which capped one connection at about 20 messages a second
 * (measured: 111 mails/s over 5 pooled connections, about 2,000 with this). The socket is
 * handed over while it connects, so a failure reaches nodemailer as its own socket error (a
 * pool whose getSocket reports an error keeps the failed slot busy for good); the greeting
 * timeout bounds a connect that never completes. STARTTLS upgrades this socket; implicit TLS
 * (smtps://, port 465) keeps nodemailer's own socket.
 */
function noDelaySocket(
  options: { host?: string; port?: number | string; secure?: boolean },
  callback: (err: Error | null, socketOptions?: { connection: net.Socket } | false) => void,
): void {
  if (options.secure) return callback(null, false);
  // nodemailer's own defaults when the URL names no host or port.
  const connection = net.connect({ host: options.host ?? "localhost", port: Number(options.port) || 587, noDelay: true });
  callback(null, { connection });
}

/** nodemailer options of an SMTP_URL: our time limits and pool, then everything the URL says. */
export const smtpTransportOptions = (smtpUrl: string) => ({ ...SMTP_TIMEOUTS, ...SMTP_POOL, getSocket: noDelaySocket, ...parseConnectionUrl(smtpUrl) });

/**
 * The Message-ID of an outbox row's mail: the same on every attempt, so a receiver can drop
 * the rare second copy (delivery is at least once: a worker killed between the SMTP server's
 * answer and the commit sends the mail again).
 */
const messageId = (outboxId: string) => `<${outboxId}@inspection-service>`;

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
