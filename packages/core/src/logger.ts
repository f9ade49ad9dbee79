import { pino, type Logger } from "pino";

/** Paths pino replaces with "[redacted]": secrets never reach the logs. */
const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "*.password",
  "*.currentPassword",
  "*.newPassword",
  "*.temporaryPassword",
  "*.client_secret",
  "*.clientSecret",
  "*.apiKey",
  "*.access_token",
  "*.accessToken",
  "*.token",
  "*.secret",
];

/** Error fields that name what failed, never what was sent (Postgres's and the driver's). */
const SAFE_FIELDS = ["code", "severity", "routine", "schema_name", "table_name", "column_name", "constraint_name", "errno", "syscall"] as const;
const MAX_MESSAGE = 500;

/**
 * The message of an error without request content. Drizzle's query errors read
 * `Failed query: <sql>\nparams: <every parameter>`: the statement is kept (shortened),
 * the parameters are dropped. Postgres quotes the offending value in some messages
 * (`invalid input syntax for type uuid: "…"`): the value is dropped.
 */
export function scrubMessage(message: string): string {
  let m = message;
  const params = m.indexOf("\nparams:");
  if (params >= 0) m = m.slice(0, params);
  m = m.replace(/(for type [\w ]+|for enum [\w ]+): ".*"$/s, '$1: "[value removed]"');
  return m.length > MAX_MESSAGE ? `${m.slice(0, MAX_MESSAGE)}… [${m.length - MAX_MESSAGE} more characters]` : m;
}

type SerializedError = { type: string; message: string; stack?: string; cause?: SerializedError } & Partial<Record<(typeof SAFE_FIELDS)[number], unknown>>;

/**
 * The `err` serializer of every logger: type, scrubbed message, stack frames and the
 * safe fields above, down the `cause` chain. Everything else an error carries (the
 * driver's `parameters`, `query` and `args`, Postgres's `detail` and `where`, which
 * quote row values, Drizzle's `params`) stays out of the log: request content is never
 * logged.
 */
export function serializeError(err: unknown, depth = 0): SerializedError | unknown {
  if (!err || typeof err !== "object") return typeof err === "string" ? scrubMessage(err) : err;
  const e = err as Record<string, unknown> & { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
  const message = scrubMessage(typeof e.message === "string" ? e.message : "");
  // An error pino-http has already turned into a plain object carries its class in `type`.
  const type = typeof e.type === "string" ? e.type : typeof e.name === "string" ? e.name : (e.constructor?.name ?? "Error");
  const out: SerializedError = { type, message };
  for (const f of SAFE_FIELDS) if (typeof e[f] === "string" || typeof e[f] === "number") out[f] = e[f];
  if (typeof e.stack === "string") {
    // The stack starts with the (unscrubbed) message: keep only the frames.
    const frames = e.stack.split("\n").filter((l) => /^\s+at /.test(l));
    out.stack = [`${out.type}: ${message}`, ...frames.slice(0, 20)].join("\n");
  }
  if (e.cause !== undefined && depth < 4) out.cause = serializeError(e.cause, depth + 1) as SerializedError;
  return out;
}

/** Serializers every logger (and the API's request logger) uses. */
const logSerializers = { err: serializeError, error: serializeError, cause: serializeError };

export function createLogger(name: string, level: string): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, serializers: logSerializers });
}
export type { Logger };
