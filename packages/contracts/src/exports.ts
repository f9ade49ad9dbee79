import { BBox, INSPECTION_STATUSES, REVIEW_STATES } from "./inspections.ts";
import { IdParam, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** Export formats and statuses (docs/exports.md); core's ExportFormat / ExportStatus are the same unions. */
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export const EXPORT_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;

const percent = (name: string) =>
  z
    .number({ message: `${name} must be a number` })
    .optional()
    .openapi({
      description: `Only inspections whose scorePercentage is ${name.startsWith("min") ? "at least" : "at most"} this (inspections without a score never match).`,
    });

const instant = (name: string, what: string) =>
  z
    .string()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)),
      `${name} must be an ISO 8601 date or date-time`,
    )
    .transform((s) => new Date(s).toISOString())
    .optional()
    .openapi({ type: "string", format: "date-time", description: what });

/** The list's filters (GET /api/inspections) as a JSON object, and a creation window. */
export const ExportFilter = z
  .object({
    templateId: z.string().optional().openapi({ format: "uuid", description: "Only this template's inspections (any version). Needed for includeAnswers." }),
    status: z.enum(INSPECTION_STATUSES).optional(),
    siteId: z.string().optional().openapi({ format: "uuid" }),
    assetId: z.string().optional().openapi({ format: "uuid" }),
    reviewState: z.enum(REVIEW_STATES, { message: `reviewState must be one of ${REVIEW_STATES.join(", ")}` }).optional(),
    flagged: z
      .boolean({ message: "flagged must be true or false" })
      .optional()
      .openapi({ description: "true: inspections with at least one flagged answer; false: without." }),
    minScorePercentage: percent("minScorePercentage"),
    maxScorePercentage: percent("maxScorePercentage"),
    bbox: BBox.optional(),
    createdSince: instant("createdSince", "Only inspections received (createdAt) at or after this instant."),
    createdUntil: instant("createdUntil", "Only inspections received (createdAt) before this instant."),
  })
  .strict()
  .openapi("ExportFilter");

export const CreateExportBody = z
  .object({
    format: z.enum(EXPORT_FORMATS, { message: `format must be one of ${EXPORT_FORMATS.join(", ")}` }),
    filter: ExportFilter.default({}),
    includeAnswers: z
      .boolean({ message: "includeAnswers must be true or false" })
      .default(false)
      .openapi({ description: "One column per question of the template (filter.templateId is then required)." }),
  })
  .strict()
  .openapi("CreateExportBody");
export type CreateExportBody = z.output<typeof CreateExportBody>;

export const ExportListQuery = z.object({
  status: z.enum(EXPORT_STATUSES, { message: `status must be one of ${EXPORT_STATUSES.join(", ")}` }).optional(),
  ...pageQuery,
});
export type ExportListQuery = z.output<typeof ExportListQuery>;

const StoredFilter = z
  .object({
    templateId: z.string().optional(),
    status: z.string().optional(),
    siteId: z.string().optional(),
    assetId: z.string().optional(),
    reviewState: z.string().optional(),
    flagged: z.boolean().optional(),
    minScorePercentage: z.number().optional(),
    maxScorePercentage: z.number().optional(),
    bbox: z.object({ minLon: z.number(), minLat: z.number(), maxLon: z.number(), maxLat: z.number() }).optional(),
    createdSince: isoTimestamp.optional(),
    createdUntil: isoTimestamp.optional(),
  })
  .openapi({ description: "The filter as the export applies it (bbox as its four numbers, instants in UTC)." });

export const ExportView = registry.register(
  "InspectionExport",
  z.object({
    id: z.uuid(),
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(EXPORT_STATUSES),
    filter: StoredFilter,
    includeAnswers: z.boolean(),
    rowsWritten: z.number().int().openapi({ description: "Inspections written so far (every page of a few hundred)." }),
    fileName: z.string().nullable().openapi({ example: "inspections-2026-11-25.csv" }),
    byteSize: z.number().int().nullable().openapi({ description: "The file's size; null until SUCCEEDED." }),
    error: z.string().nullable().openapi({ description: "Why it FAILED." }),
    createdBy: z.object({ type: z.string(), id: z.string().nullable() }),
    createdAt: isoTimestamp,
    startedAt: isoTimestamp.nullable(),
    finishedAt: isoTimestamp.nullable(),
    expiresAt: isoTimestamp.nullable().openapi({ description: "When the retention sweep deletes the export (file and status); set when it SUCCEEDED." }),
    statusUrl: z.string().openapi({ example: "/api/exports/4d3c2b1a-0f9e-4d8c-b7a6-958473625140" }),
    downloadUrl: z.string().nullable().openapi({ description: "Set once SUCCEEDED.", example: "/api/exports/4d3c2b1a-0f9e-4d8c-b7a6-958473625140/download" }),
  }),
);

export const ExportAccepted = registry.register("InspectionExportAccepted", z.object({ id: z.uuid(), status: z.enum(EXPORT_STATUSES), statusUrl: z.string() }));

export const ExportList = registry.register(
  "InspectionExportList",
  z.object({
    exports: z.array(ExportView),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

const read = keyOrUser("inspections:read");
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export const createExportOp = defineOperation({
  method: "post",
  path: "/api/exports",
  summary: "Export inspections as CSV or XLSX; extension",
  description:
    "Queues an export of the inspections the filter selects (the filters of GET /api/inspections, plus createdSince/createdUntil), oldest first. API keys need inspections:read; every user of the organization may export. " +
    "Answers 202 with the export's status URL; a worker writes the file. At most EXPORTS_MAX_RUNNING_PER_ORG exports per organization may be QUEUED or RUNNING at once: past it, 429.",
  auth: read,
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateExportBody,
          example: {
            format: "csv",
            filter: {
              templateId: "0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77",
              status: "COMPLETED",
              flagged: true,
              createdSince: "2026-11-01T00:00:00Z",
              createdUntil: "2026-12-01T00:00:00Z",
            },
            includeAnswers: true,
          },
        },
      },
    },
  },
  responses: { 202: json(ExportAccepted, "Queued"), ...errorResponses(400, 401, 403, 429) },
});

export const listExportsOp = defineOperation({
  method: "get",
  path: "/api/exports",
  summary: "List the organization's exports; extension",
  description: "Newest first. Finished exports are deleted EXPORT_RETENTION_HOURS after they finished.",
  auth: read,
  request: { query: ExportListQuery },
  responses: { 200: json(ExportList, "A page of exports"), ...errorResponses(400, 401, 403, 429) },
});

export const getExportOp = defineOperation({
  method: "get",
  path: "/api/exports/{id}",
  summary: "An export's status; extension",
  description: "QUEUED, RUNNING (rowsWritten grows a page at a time), SUCCEEDED (with downloadUrl, byteSize and expiresAt), FAILED (with error) or CANCELLED.",
  auth: read,
  request: { params: IdParam },
  responses: { 200: json(ExportView, "The export"), ...errorResponses(401, 403, 404, 429) },
});

export const downloadExportOp = defineOperation({
  method: "get",
  path: "/api/exports/{id}/download",
  summary: "Download an export's file; extension",
  description: "Only once SUCCEEDED (409 before). `Content-Disposition: attachment` names the file, such as inspections-2026-11-25.csv.",
  auth: read,
  request: { params: IdParam },
  responses: {
    200: {
      description: "The file",
      content: {
        "text/csv": { schema: z.string().openapi({ format: "binary" }) },
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    ...errorResponses(401, 403, 404, 409, 429),
  },
});

export const cancelExportOp = defineOperation({
  method: "delete",
  path: "/api/exports/{id}",
  summary: "Cancel an export; extension",
  description:
    "A QUEUED or RUNNING export becomes CANCELLED; its worker stops at its next page and removes what it wrote. A finished export (SUCCEEDED or FAILED) is a 409; cancelling a cancelled one answers it again.",
  auth: read,
  request: { params: IdParam },
  responses: { 200: json(ExportView, "The cancelled export"), ...errorResponses(401, 403, 404, 409, 429) },
});
