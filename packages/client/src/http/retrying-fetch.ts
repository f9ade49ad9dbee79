import { RetriesExhaustedError } from "../errors.ts";
import { DEFAULT_BACKOFF, RETRYABLE_STATUSES, isNetworkError, parseRetryAfter, retryDelay, type BackoffOptions } from "./backoff.ts";

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryInfo {
  method: string;
  url: string;
  /** 1-based number of the attempt that failed. */
  attempt: number;
  /** The answer's status, or null when the server could not be reached. */
  status: number | null;
  error?: unknown;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The wait comes from the server's Retry-After rather than the client's backoff. */
  fromRetryAfter: boolean;
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 8). */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  onRetry?: (info: RetryInfo) => void;
  /** The fetch that does the work (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  random?: () => number;
}

/** Resolves after `ms`, or rejects at once with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A fetch that sends a request again on 429, 502, 503, 504 and on network errors, waiting
 * Retry-After when the server gave one and backing off with jitter otherwise. Every other
 * answer (2xx, other 4xx, 500) is returned as it is. Only requests that are safe to repeat
 * should go through it: reads, the token request, and sync batches with an Idempotency-Key.
 */
export function retryingFetch(opts: RetryOptions = {}): FetchLike {
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 8);
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const inner = opts.fetch ?? ((r: Request) => fetch(r));
  return async (request) => {
    let lastStatus: number | null = null;
    let lastError: unknown;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfter: string | null = null;
      try {
        // A clone per attempt: a body can be read once, and the original stays unread for the next try.
        const res = await inner(request.clone());
        if (!RETRYABLE_STATUSES.has(res.status)) return res;
        lastStatus = res.status;
        lastError = undefined;
        retryAfter = res.headers.get("retry-after");
        // Free the connection: the body of an answer we do not use would hold it.
        await res.body?.cancel().catch(() => {});
      } catch (err) {
        if (request.signal.aborted || !isNetworkError(err)) throw err;
        lastStatus = null;
        lastError = err;
      }
      if (attempt === maxAttempts) break;
      const delayMs = retryDelay(attempt - 1, retryAfter, backoff, opts.random);
      const fromRetryAfter = parseRetryAfter(retryAfter) !== null;
      opts.onRetry?.({ method: request.method, url: request.url, attempt, status: lastStatus, error: lastError, delayMs, fromRetryAfter });
      await sleep(delayMs, request.signal);
    }
    const what = lastStatus === null ? `could not be reached (${describeNetworkError(lastError)})` : `kept answering ${lastStatus}`;
    throw new RetriesExhaustedError(`${request.method} ${new URL(request.url).pathname} ${what} after ${maxAttempts} attempts`, maxAttempts, lastStatus, {
      cause: lastError,
    });
  };
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
