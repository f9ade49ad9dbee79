import type { Response } from "express";
import { importInspectionOp } from "@insp/contracts";
import { AppError, idempotencyKeyOf, submitImport, type ImportOutcome, type SubmitServices } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { RETRY_AFTER_SECONDS } from "../../http/errors.ts";
import { route } from "../../http/route.ts";

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
    maxStoredBytes: deps.env.MEDIA_MAX_STORED_MB_PER_ORG * 1024 * 1024,
    waitMs: deps.env.IMPORT_WAIT_SECONDS * 1000,
  };
  return route(deps, importInspectionOp, async ({ body }, req, res) => {
    const key = idempotencyKeyOf(req.header("idempotency-key"));
    const { outcome, replayed } = await submitImport(svc, principalOf(req).organizationId, body, auditOf(req), key);
    if (outcome.kind === "failed" || outcome.kind === "running" || outcome.kind === "queueUnavailable") req.log.warn({ outcome: outcome.kind }, "inspection import not completed");
    answer(res, outcome, replayed);
  });
}

/**
 * The one mapping of an import outcome to HTTP, for this request's own outcome and for one
 * replayed from an earlier request with the same Idempotency-Key alike. A refusal is thrown
 * back as its AppError, so the error middleware shapes it as it shapes every other one.
 */
function answer(res: Response, o: ImportOutcome, replayed: boolean): void {
  if (replayed) res.set("Idempotent-Replayed", "true");
  switch (o.kind) {
    case "imported":
      res.status(201).json({ id: o.id, inspectionNumber: o.inspectionNumber, message: `Inspection ${o.inspectionNumber} imported` });
      return;
    case "rejected":
      throw new AppError(o.error.kind, o.error.message, o.error.details);
    case "failed":
      res.status(500).json({ error: `Inspection import ${o.importId} failed: ${o.error}`, importId: o.importId });
      return;
    case "running":
      res
        .status(503)
        .set("Retry-After", RETRY_AFTER_SECONDS)
        .json({ error: `Inspection import ${o.importId} is still being processed; send the same request with the same Idempotency-Key again to get its result`, importId: o.importId });
      return;
    case "queueUnavailable":
      res.status(503).set("Retry-After", RETRY_AFTER_SECONDS).json({ error: "The import queue is unavailable; nothing was created, retry later" });
      return;
    case "validating":
      res.status(409).set("Retry-After", "1").json({ error: "A request with this Idempotency-Key is still being validated; retry shortly" });
      return;
  }
}
