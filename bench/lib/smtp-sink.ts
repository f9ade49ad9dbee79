import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  url: string;
  /** Messages received so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * An in-process SMTP server that accepts and discards every message (no TLS, no auth),
 * so the worker's real SMTP path runs without a mail provider.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        count++;
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
