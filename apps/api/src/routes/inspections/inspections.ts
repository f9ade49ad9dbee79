import type { Response } from "express";
import { getInspectionOp, importInspectionOp, listInspectionsOp, patchInspectionOp } from "@insp/contracts";
import {
  AppError,
  currentValidator,
  detailValidator,
  getInspectionDetail,
  idempotencyKeyOf,
  listInspections,
  patchInspection,
  submitImport,
  type ImportOutcome,
  type PrepareServices,
  type SubmitServices,
} from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { RETRY_AFTER_SECONDS } from "../../http/errors.ts";
import { ifMatchRevisions, noneMatchHits, requireIfMatch, revisionETag } from "../../http/etag.ts";
import { sendWithInlineImages } from "../../http/inline-json.ts";
import { route } from "../../http/route.ts";

export const inspectionListRoute = (deps: Deps) =>
  route(deps, listInspectionsOp, async ({ query }, req, res) => {
    res.json(await listInspections(deps.db, principalOf(req).organizationId, query));
  });

/** GET /api/inspections/:id with its revision's ETag; If-None-Match with it: 304 without reading the answers. */
export const inspectionDetailRoute = (deps: Deps) =>
  route(deps, getInspectionOp, async ({ params, query }, req, res) => {
    const organizationId = principalOf(req).organizationId;
    const inm = req.header("if-none-match");
    if (inm) {
      const etag = revisionETag(await currentValidator(deps.db, organizationId, params.id), query.images);
      if (noneMatchHits(inm, etag)) {
        res.setHeader("ETag", etag);
        res.status(304).end();
        return;
      }
    }
    const detail = await getInspectionDetail(deps.db, organizationId, params.id, { images: query.images });
    res.setHeader("ETag", revisionETag(await detailValidator(deps.db, organizationId, detail), query.images));
    await sendWithInlineImages(req, res, deps.media, detail);
  });

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
    if (outcome.kind === "failed" || outcome.kind === "running" || outcome.kind === "queueUnavailable")
      req.log.warn({ outcome: outcome.kind }, "inspection import not completed");
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
        .json({
          error: `Inspection import ${o.importId} is still being processed; send the same request with the same Idempotency-Key again to get its result`,
          importId: o.importId,
        });
      return;
    case "queueUnavailable":
      res.status(503).set("Retry-After", RETRY_AFTER_SECONDS).json({ error: "The import queue is unavailable; nothing was created, retry later" });
      return;
    case "validating":
      res.status(409).set("Retry-After", "1").json({ error: "A request with this Idempotency-Key is still being validated; retry shortly" });
      return;
  }
}

/**
 * PATCH /api/inspections/:id (extension): behind requireIfMatch (428). Answers the detail after
 * the change, with its new ETag.
 */
export function patchInspectionRoute(deps: Deps) {
  const svc: PrepareServices = {
    db: deps.db,
    store: deps.media,
    maxImageBytes: deps.env.MEDIA_MAX_IMAGE_MB * 1024 * 1024,
    maxStoredBytes: deps.env.MEDIA_MAX_STORED_MB_PER_ORG * 1024 * 1024,
  };
  return route(deps, patchInspectionOp, [requireIfMatch(getInspectionOp.path)], async ({ params, query, body }, req, res) => {
    const organizationId = principalOf(req).organizationId;
    await patchInspection(svc, organizationId, params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req));
    const detail = await getInspectionDetail(deps.db, organizationId, params.id, { images: query.images });
    res.setHeader("ETag", revisionETag(await detailValidator(deps.db, organizationId, detail), query.images));
    await sendWithInlineImages(req, res, deps.media, detail);
  });
}
