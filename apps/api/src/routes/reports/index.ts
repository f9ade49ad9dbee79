import { pipeline } from "node:stream/promises";
import type { Request, Response, Router } from "express";
import { reportPdfOp, reportStatusOp } from "@insp/contracts";
import {
  forgetReport,
  getReport,
  MediaMissing,
  notFound,
  reportFileName,
  requestReport,
  type ReportOutcome,
  type ReportServices,
  type ReportView,
} from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { noneMatchHits } from "../../http/etag.ts";
import { RETRY_AFTER_SECONDS } from "../../http/errors.ts";
import { mount, route } from "../../http/route.ts";

const statusUrl = (r: Pick<ReportView, "id" | "inspectionId">) => `/api/inspections/${r.inspectionId}/reports/${r.id}`;
const downloadUrl = (r: Pick<ReportView, "inspectionId">) => `/api/inspections/${r.inspectionId}/report.pdf`;
/** One report row, one file: its id names the bytes. */
const reportETag = (r: Pick<ReportView, "id">) => `"report-${r.id}"`;

/**
 * PDF reports of inspections (extension; docs/reports.md): GET /api/inspections/:id/report.pdf
 * renders through the inspection-report queue and waits up to REPORT_WAIT_SECONDS (then 202 with
 * a status URL); GET /api/inspections/:id/reports/:reportId says where a rendering stands.
 * The same permission as reading the inspection.
 */
export function reportRoutes(deps: Deps): Router {
  const svc: ReportServices = {
    db: deps.db,
    queues: deps.queues,
    waiter: deps.waiter,
    waitMs: deps.env.REPORT_WAIT_SECONDS * 1000,
    maxRendering: deps.env.REPORTS_MAX_RENDERING_PER_ORG,
  };
  return mount([
    route(deps, reportPdfOp, async ({ params }, req, res) => {
      const organizationId = principalOf(req).organizationId;
      let outcome = await requestReport(svc, organizationId, params.id);
      if (outcome.kind === "ready" && !(await send(deps, req, res, outcome))) {
        // The file under a SUCCEEDED row is gone (a lost volume, a bucket emptied by hand): forget the row and render it again.
        req.log.warn({ reportId: outcome.report.id }, "stored report missing: rendering it again");
        await forgetReport(deps.db, organizationId, outcome.report.id);
        outcome = await requestReport(svc, organizationId, params.id);
        if (outcome.kind === "ready" && (await send(deps, req, res, outcome))) return;
        if (outcome.kind === "ready") throw new Error(`Report ${outcome.report.id} is missing from the media store again`);
      }
      if (outcome.kind !== "ready") answer(res, outcome);
    }),
    route(deps, reportStatusOp, async ({ params }, req, res) => {
      const r = await getReport(deps.db, principalOf(req).organizationId, params.reportId);
      if (r.inspectionId !== params.id) throw notFound(`Report ${params.reportId} not found`);
      res.json({
        id: r.id,
        inspectionId: r.inspectionId,
        status: r.status,
        cacheKey: r.cacheKey,
        statusUrl: statusUrl(r),
        downloadUrl: r.status === "SUCCEEDED" ? downloadUrl(r) : null,
        pages: r.pages,
        byteSize: r.byteSize,
        error: r.error,
        attempts: r.attempts,
        createdAt: r.createdAt,
        finishedAt: r.finishedAt,
      });
    }),
  ]);
}

/** Streams a finished report (or 304); false when its file is missing from the store. */
async function send(deps: Deps, req: Request, res: Response, o: Extract<ReportOutcome, { kind: "ready" }>): Promise<boolean> {
  const etag = reportETag(o.report);
  const headers = () => {
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", "private, no-cache");
  };
  if (noneMatchHits(req.header("if-none-match"), etag)) {
    headers();
    res.status(304).end();
    return true;
  }
  let body;
  try {
    body = await deps.media.stream(o.report.storageKey!);
  } catch (err) {
    if (err instanceof MediaMissing) return false;
    throw err;
  }
  headers();
  res.setHeader("Content-Type", "application/pdf");
  res.setHeader("Content-Disposition", `attachment; filename="${reportFileName(o.detail)}"`);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (o.report.byteSize !== null) res.setHeader("Content-Length", String(o.report.byteSize));
  try {
    await pipeline(body, res);
  } catch (err) {
    req.log.warn({ err, reportId: o.report.id }, "report stream ended early");
  }
  return true;
}

function answer(res: Response, o: Exclude<ReportOutcome, { kind: "ready" }>): void {
  const r = o.report;
  switch (o.kind) {
    case "failed":
      res
        .status(422)
        .json({ error: `The report of ${o.detail.inspectionNumber} could not be rendered: ${r.error ?? "unknown error"}`, id: r.id, statusUrl: statusUrl(r) });
      return;
    case "pending":
      res
        .status(202)
        .set("Retry-After", RETRY_AFTER_SECONDS)
        .set("Location", statusUrl(r))
        .json({
          id: r.id,
          status: r.status,
          statusUrl: statusUrl(r),
          message: `The report of ${o.detail.inspectionNumber} is being rendered; follow statusUrl or send this request again`,
        });
      return;
    case "queueUnavailable":
      res.status(503).set("Retry-After", RETRY_AFTER_SECONDS).json({ error: "The report queue is unavailable; retry later" });
      return;
  }
}
