/**
 * When to try again. Pure functions, so the schedule can be tested without waiting.
 */

export interface BackoffOptions {
  /** First delay's upper bound (ms); doubles per attempt. */
  baseMs: number;
  /** No delay is longer than this (ms). */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 30_000 };

/** Statuses that say "the same request may work later": rate limit, overload, and gateways that lost the API for a moment. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Exponential backoff with full jitter: a uniformly random delay in [0, min(cap, base * 2^attempt)).
 * Full jitter spreads clients that failed together (one overloaded API, many callers) so they
 * do not come back in lockstep. `attempt` is 0 for the first retry.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable
 * (the caller then backs off on its own). A date in the past means "now".
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The longest Retry-After honoured as given: a proxy's maintenance page asking for an hour must not stall a run for hours. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * The wait before retry number `attempt`: the server's Retry-After when it gave one (it knows
 * when its rate-limit window resets, guessing shorter only earns another 429), at most
 * MAX_RETRY_AFTER_MS, else backoff.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | null | undefined,
  opts: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  const asked = parseRetryAfter(retryAfter, now);
  return asked === null ? backoffDelay(attempt, opts, random) : Math.min(asked, MAX_RETRY_AFTER_MS);
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** A failure to reach the server or to hear its whole answer (fetch wraps the socket error in `cause`). */
export function isNetworkError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
  }
  return err instanceof TypeError && err.message === "fetch failed";
}
