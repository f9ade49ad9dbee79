import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  url: string;
  /** Messages received so far. */
  received(): number;
  /** When each message arrived (performance.now()), in order. */
  arrivals: number[];
  /** Recipients that received more than one message so far, with how many. */
  duplicates(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * An in-process SMTP server that accepts and discards every message (no TLS, no auth),
 * so the worker's real SMTP path runs without a mail provider. It keeps when each message
 * arrived and how many each recipient got (every welcome mail exactly once).
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  let count = 0;
  const arrivals: number[] = [];
  const byRecipient = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A local sink: no reverse DNS of 127.0.0.1 per connection.
    disableReverseLookup: true,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        count++;
        arrivals.push(performance.now());
        for (const r of session.envelope.rcptTo) byRecipient.set(r.address, (byRecipient.get(r.address) ?? 0) + 1);
        callback();
      });
    },
  });
  server.on("error", () => {});
  const port = await new Promise<number>((resolve, reject) => {
    server.listen(0, "127.0.0.1", () => {
      const addr = server.server.address();
      if (addr && typeof addr === "object") resolve(addr.port);
      else reject(new Error("SMTP sink has no port"));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => count,
    arrivals,
    duplicates: () => new Map([...byRecipient].filter(([, n]) => n > 1)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
