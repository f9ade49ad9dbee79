/**
 * What can go wrong, in the domain's words, and the one HTTP status this contract answers for
 * each. Domain code throws a kind (AppError in @insp/core); the API's error handlers turn it
 * into the status, so no status code is chosen below the routes.
 */
export const ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  /** A write based on a version that is no longer current (If-Match). */
  stale: 412,
  too_large: 413,
  unsupported_media_type: 415,
  /** An Idempotency-Key sent again with another body. */
  idempotency_mismatch: 422,
  precondition_required: 428,
  /** A request that would do more than one request may (WEBHOOK_REPLAY_MAX_DELIVERIES): narrow it. */
  over_limit: 422,
  /** A per-organization limit of work in progress (EXPORTS_MAX_RUNNING_PER_ORG, ...); retry when some has finished. */
  too_many: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;
