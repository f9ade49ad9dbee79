/** @insp/client: a typed client of the Inspection Service's employee sync, and the pieces insp-sync is built from. */
export { createInspClient, type InspClient, type InspClientOptions, type SyncBatchOptions, type SyncBatchResult } from "./client.ts";
export { TokenProvider, SCOPE_EMPLOYEES_SYNC } from "./auth/token.ts";
export { AuthError, HttpError, RetriesExhaustedError } from "./errors.ts";
export { retryingFetch, type RetryInfo, type RetryOptions } from "./http/retrying-fetch.ts";
export { backoffDelay, parseRetryAfter, retryDelay, DEFAULT_BACKOFF, type BackoffOptions } from "./http/backoff.ts";
export { syncAll, type SyncAllOptions, type SyncSummary } from "./sync/sync-all.ts";
export { MAX_BATCH_SIZE, type Batch } from "./sync/batches.ts";
export type { BatchOutcome } from "./sync/outcome.ts";
export { sessionsApi, type SessionsApi } from "./sessions/client.ts";
export type * from "./sessions/types.ts";
export { readRecords, formatFromPath, type InputFormat, type InputRecord } from "./input/index.ts";
export { parseMapping, type Mapping } from "./mapping/schema.ts";
export { mapRecord } from "./mapping/apply.ts";
export { idempotencyKey, newRunId } from "./state/state-file.ts";
export type * from "./types.ts";
export type { paths, components } from "./generated/openapi.d.ts";
