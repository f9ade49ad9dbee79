import createClient from "openapi-fetch";
import { SCOPE_EMPLOYEES_SYNC, TokenProvider } from "./auth/token.ts";
import { AuthError, HttpError, describeErrorBody } from "./errors.ts";
import type { paths } from "./generated/openapi.d.ts";
import { authorizedFetch } from "./http/authorized-fetch.ts";
import { parseRetryAfter } from "./http/backoff.ts";
import { retryingFetch, sleep, type FetchLike, type RetryOptions } from "./http/retrying-fetch.ts";
import type { EmployeeInput, SyncResponse, SyncStatus } from "./types.ts";

export interface InspClientOptions extends Omit<RetryOptions, "fetch"> {
  /** The service's base URL, e.g. https://inspections.example.com */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for; default employees:sync. */
  scope?: string;
  /** Longest wait between two polls of an asynchronous request (ms, default 5000). */
  maxPollIntervalMs?: number;
  /** The fetch underneath everything (default: the global one), e.g. to add a proxy. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface SyncBatchOptions {
  /** Sent as Idempotency-Key: the same key and body are applied once, a repeat gets the stored answer. */
  idempotencyKey?: string;
  /** Sent as the body's syncBatchId (echoed in the answer and the request's status). */
  syncBatchId?: string;
  /** ?dryRun=true: the server reports what would happen and writes nothing. */
  dryRun?: boolean;
  /** Prefer: respond-async, then poll the status until completed. */
  async?: boolean;
  /** Snapshot session the batch belongs to (?sessionId=). */
  sessionId?: string;
  signal?: AbortSignal;
}

export interface SyncBatchResult extends SyncResponse {
  /** The server answered from its idempotency store (Idempotent-Replayed: true): the batch had been applied before. */
  replayed: boolean;
  /** The answer came from polling the request's status (202: async mode, or the server's wait ran out). */
  polled: boolean;
}

export type InspClient = ReturnType<typeof createInspClient>;

/** Turns an answer the caller cannot use into the matching error. */
export function failure(what: string, response: Response, body: unknown): Error {
  const detail = describeErrorBody(body);
  if (response.status === 401) return new AuthError(`${what}: 401 ${detail || "access token refused"}`, 401);
  if (response.status === 403) return new AuthError(`${what}: 403 ${detail || "forbidden"} (does the client have scope ${SCOPE_EMPLOYEES_SYNC}?)`, 403);
  return new HttpError(`${what}: ${response.status} ${detail}`.trim(), response.status, body);
}

/**
 * The typed client. `api` is an openapi-fetch client over every operation of the service's
 * OpenAPI document, already authenticated and retrying; the methods below add what the
 * employee sync needs on top (idempotency, async polling).
 */
export function createInspClient(opts: InspClientOptions) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const raw: FetchLike = retryingFetch({ ...opts, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  const tokens = new TokenProvider({
    baseUrl,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    scope: opts.scope ?? SCOPE_EMPLOYEES_SYNC,
    fetch: raw,
  });
  const fetchWithToken = authorizedFetch(tokens, raw);
  const api = createClient<paths>({ baseUrl, fetch: fetchWithToken });
  const maxPoll = opts.maxPollIntervalMs ?? 5000;

  async function getSyncRequest(requestId: string, signal?: AbortSignal): Promise<SyncStatus> {
    const { data, error, response } = await api.GET("/api/v1/sync/requests/{requestId}", { params: { path: { requestId } }, signal });
    if (!data) throw failure(`GET sync request ${requestId}`, response, error);
    return data;
  }

  /** Polls until the request is completed; the first wait is the server's Retry-After, later ones grow up to maxPollIntervalMs. */
  async function waitForSyncRequest(requestId: string, o: { firstDelayMs?: number; signal?: AbortSignal } = {}): Promise<SyncResponse> {
    let delay = Math.min(o.firstDelayMs ?? 1000, maxPoll);
    for (;;) {
      await sleep(delay, o.signal);
      const status = await getSyncRequest(requestId, o.signal);
      if (status.status === "completed") {
        return {
          requestId: status.requestId,
          ...(status.syncBatchId !== undefined ? { syncBatchId: status.syncBatchId } : {}),
          results: status.results ?? [],
          errors: status.errors ?? [],
        };
      }
      delay = Math.min(maxPoll, Math.max(250, delay * 1.5));
    }
  }

  /** POST /api/v1/sync/employees with at most 500 employees; always resolves with the completed answer. */
  async function syncEmployees(employees: EmployeeInput[], o: SyncBatchOptions = {}): Promise<SyncBatchResult> {
    const query: Record<string, string> = {};
    if (o.dryRun) query.dryRun = "true";
    if (o.sessionId) query.sessionId = o.sessionId;
    const header: { "Idempotency-Key"?: string; Prefer?: string } = {};
    if (o.idempotencyKey) header["Idempotency-Key"] = o.idempotencyKey;
    if (o.async) header.Prefer = "respond-async";
    const { data, error, response } = await api.POST("/api/v1/sync/employees", {
      params: { query: query as { dryRun?: "true" | "false"; sessionId?: string }, header },
      body: { ...(o.syncBatchId !== undefined ? { syncBatchId: o.syncBatchId } : {}), employees },
      signal: o.signal,
    });
    if (!data) throw failure("POST /api/v1/sync/employees", response, error);
    const replayed = response.headers.get("idempotent-replayed") === "true";
    if (response.status === 202 || !("results" in data)) {
      const firstDelayMs = parseRetryAfter(response.headers.get("retry-after")) ?? 1000;
      const done = await waitForSyncRequest(data.requestId, { firstDelayMs, ...(o.signal ? { signal: o.signal } : {}) });
      return { ...done, replayed, polled: true };
    }
    return { ...data, replayed, polled: false };
  }

  return { baseUrl, api, tokens, fetch: fetchWithToken, syncEmployees, getSyncRequest, waitForSyncRequest };
}
