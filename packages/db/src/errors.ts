/** Error codes of Postgres and of the driver, looked up through Drizzle's wrapping. */

/** Walks `err` and its `cause` chain (Drizzle wraps driver errors in `cause`). */
function* causes(err: unknown): Generator<Record<string, unknown>> {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === "object"; i++) {
    yield e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
}

/** SQLSTATE of a driver error, which Drizzle wraps in `cause`. */
export function pgErrorCode(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const code = e.code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Unique violation, deadlock, serialization failure, connection trouble: worth retrying or mapping. */
export const PG = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  deadlock: "40P01",
  serializationFailure: "40001",
} as const;

/** postgres.js's own codes and the socket errors of a server that is gone or not there yet. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * The database could not be reached or dropped the connection: a socket error or one of
 * postgres.js's connection codes, or the server's own 57P01-57P03 (terminated by an
 * administrator, crashed, starting up or shutting down) and 53300 (too many connections).
 * Nothing is wrong with the work itself: the caller may try again once the server is back
 * (a failover, a restart, a proxy timeout). SQLSTATE class 08 is left out on purpose: the
 * server sends it for protocol errors, which waiting does not fix.
 */
export function isConnectionError(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = e.code;
    if (typeof code !== "string") continue;
    if (CONNECTION_CODES.has(code)) return true;
    if (code === "57P01" || code === "57P02" || code === "57P03" || code === "53300") return true;
  }
  return false;
}

/**
 * For polling loops that read their answer from Postgres: a check that cannot reach the
 * database answers "not yet" (the loop keeps its own deadline) instead of failing the wait,
 * so a request waiting on jobs rides out a short outage. Other errors still throw.
 */
export const notYetWhileUnreachable =
  (check: () => Promise<boolean>): (() => Promise<boolean>) =>
  () =>
    check().catch((err: unknown) => {
      if (isConnectionError(err)) return false;
      throw err;
    });

/**
 * Runs `fn` again while the database is unreachable, with backoff (250 ms doubling, at most
 * 2 s apart), for about `budgetMs`; then throws the last error. For small idempotent writes
 * that must not be lost with a dropped connection (giving an Idempotency-Key back, recording
 * that a mail went out). Other errors throw at once.
 */
export async function retryWhileUnreachable<T>(fn: () => Promise<T>, budgetMs = 10_000): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await fn();
    } catch (err) {
      if (!isConnectionError(err) || Date.now() + delay > deadline) throw err;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
