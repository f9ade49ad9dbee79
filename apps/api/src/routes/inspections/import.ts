import { ImportBody } from "@insp/contracts";
import { idempotencyKeyOf, submitImport, type SubmitServices } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

/**
 * POST /api/inspections: validates and stores the media here, the worker creates the inspection;
 * this request waits for it up to IMPORT_WAIT_SECONDS (201, 500 on failure, 503 while still running).
 */
export function importInspectionRoute(deps: Deps) {
  const svc: SubmitServices = {
    db: deps.db,
    store: deps.media,
    queues: deps.queues,
    waiter: deps.waiter,
    maxImageBytes: deps.env.MEDIA_MAX_IMAGE_MB * 1024 * 1024,
    waitMs: deps.env.IMPORT_WAIT_SECONDS * 1000,
  };
  return handle({ body: ImportBody }, async ({ body }, req, res) => {
    const key = idempotencyKeyOf(req.header("idempotency-key"));
    const outcome = await submitImport(svc, principalOf(req).organizationId, body, auditOf(req), key);
    if (outcome.status >= 500) req.log.warn({ status: outcome.status, error: outcome.body.error }, "inspection import not completed");
    res.status(outcome.status).set(outcome.headers ?? {}).json(outcome.body);
  });
}
