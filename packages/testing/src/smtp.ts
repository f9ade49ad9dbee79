import { SMTPServer } from "smtp-server";

/** One message received by the test SMTP server, with the plain-text body decoded. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  raw: string;
}

export interface SmtpTestServer {
  /** smtp://127.0.0.1:<port>, for the worker's SMTP_URL. */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first message matching `pred` (already received or arriving), or rejects after `timeoutMs`. */
  waitFor(pred: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** Header block and body of a raw RFC 5322 message; folded header lines are unfolded. */
export function parseMail(raw: string): { headers: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, "\n");
  const split = normalized.indexOf("\n\n");
  const head = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? "" : normalized.slice(split + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(
    s.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in a header value. */
const decodeWords = (v: string) =>
  v.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _cs: string, enc: string, data: string) =>
    enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (cte === "quoted-printable") return decodeQuotedPrintable(body);
  if (cte === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/**
 * A real SMTP server on a free local port (or `port`) for tests (no TLS, no auth),
 * collecting every message (into `messages` when given, so a server started again on
 * the same port keeps the list). Single-part text messages (what the service sends) are
 * decoded.
 */
export async function startSmtpServer(opts: { port?: number; messages?: ReceivedMail[] } = {}): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = opts.messages ?? [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const { headers, body } = parseMail(raw);
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          headers,
          subject: decodeWords(headers.subject ?? ""),
          text: decodeBody(headers, body),
          raw,
        });
        for (const l of listeners) l();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const addr = server.server.address();
      resolve(typeof addr === "object" && addr ? addr.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(pred, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(pred);
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        if (!check()) listeners.add(check);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
