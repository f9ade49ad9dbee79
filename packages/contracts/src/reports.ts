import { ErrorBody, errorResponses, IdParam, isoTimestamp } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** GET /api/inspections/{id}/reports/{reportId}: the inspection and one of its reports. */
export const ReportParams = z.object({ id: z.string().openapi({ format: "uuid" }), reportId: z.string().openapi({ format: "uuid" }) });

export const ReportStatusBody = registry.register(
  "InspectionReport",
  z
    .object({
      id: z.uuid(),
      inspectionId: z.uuid(),
      status: z.enum(["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"]),
      cacheKey: z
        .string()
        .openapi({ description: "The inspection's revision and a fingerprint of everything else the report prints", example: "r3-5f0c2a9e1b7d" }),
      statusUrl: z.string().openapi({ example: "/api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/reports/7d7c2f3a-9f1e-4c55-8a43-0f8f2b1d7711" }),
      downloadUrl: z.string().nullable().openapi({
        description: "GET it for the PDF once SUCCEEDED (while it is the inspection's current report); null before",
        example: "/api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/report.pdf",
      }),
      pages: z.number().int().nullable(),
      byteSize: z.number().int().nullable(),
      error: z.string().nullable().openapi({ description: "FAILED: why the report could not be rendered" }),
      attempts: z.number().int(),
      createdAt: isoTimestamp,
      finishedAt: isoTimestamp.nullable(),
    })
    .openapi({ description: "A PDF report of an inspection and where its rendering stands." }),
);

export const ReportPending = registry.register(
  "InspectionReportPending",
  z
    .object({
      id: z.uuid(),
      status: z.enum(["QUEUED", "RUNNING"]),
      statusUrl: z.string().openapi({ example: "/api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/reports/7d7c2f3a-9f1e-4c55-8a43-0f8f2b1d7711" }),
      message: z.string(),
    })
    .openapi({ description: "The report is still being rendered after REPORT_WAIT_SECONDS: follow statusUrl, or send the same GET again after Retry-After." }),
);

export const ReportFailed = registry.register(
  "InspectionReportFailed",
  z.object({
    error: z.string().openapi({ example: "The report of INS-000042 could not be rendered: an image of the inspection is missing from the media store" }),
    id: z.uuid(),
    statusUrl: z.string(),
  }),
);

const read = keyOrUser("inspections:read");

export const reportPdfOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}/report.pdf",
  summary: "The inspection as a PDF report; extension",
  description:
    "The report of the inspection as it is now: header (template, inspection number, site, asset, inspector, dates, location, review state), score and flags, every answer in template order with its note, images and corrective actions, page numbers. " +
    "Reports are cached by the inspection's revision and a fingerprint of everything else they print: an unchanged inspection is answered from the stored file at once, with the same ETag (If-None-Match answers 304). " +
    "Otherwise the report is rendered by a worker; the request waits up to REPORT_WAIT_SECONDS for it, then answers 202 with a status URL. Concurrent requests share one rendering. An organization has at most REPORTS_MAX_RENDERING_PER_ORG reports QUEUED or RUNNING (default 10): a report that would be one more answers 429 with Retry-After.",
  auth: read,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The PDF, with Content-Disposition naming it `<inspection number>-<template title>.pdf` and an ETag",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    202: {
      description: "Still rendering after REPORT_WAIT_SECONDS (see Retry-After and statusUrl)",
      content: { "application/json": { schema: ReportPending } },
    },
    304: { description: "Not modified (If-None-Match)" },
    ...errorResponses(401, 403, 404, 429),
    422: { description: "The report could not be rendered; `error` says why", content: { "application/json": { schema: ReportFailed } } },
    503: { description: "The report queue is unavailable (see Retry-After)", content: { "application/json": { schema: ErrorBody } } },
  },
});

export const reportStatusOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}/reports/{reportId}",
  summary: "Where a PDF report's rendering stands; extension",
  description:
    "QUEUED or RUNNING while a worker renders it, then SUCCEEDED (with `downloadUrl`, pages and size) or FAILED (with `error`). A report replaced by a newer one of the same inspection is deleted: 404.",
  auth: read,
  request: { params: ReportParams },
  responses: { 200: { description: "The report", content: { "application/json": { schema: ReportStatusBody } } }, ...errorResponses(401, 403, 404, 429) },
});
