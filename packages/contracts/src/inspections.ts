import { IdParam, booleanQuery, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";

/** Answers per import; the body limit (INSPECTION_BODY_LIMIT_MB) bounds the media. */
export const MAX_IMPORT_ANSWERS = 5000;
/**
 * Items of an answerJson array. A choice answer lists its selected options there; no question needs
 * more, and each item is checked against the template's options.
 */
export const MAX_ANSWER_JSON_ITEMS = 1000;
/** The single list of inspection statuses (core's InspectionStatus type must stay the same union). */
export const INSPECTION_STATUSES = ["COMPLETED", "IN_PROGRESS"] as const;

export const InspectionListQuery = z.object({
  templateId: z.string().optional(),
  status: z.enum(INSPECTION_STATUSES).optional(),
  siteId: z.string().optional(),
  assetId: z.string().optional(),
  ...pageQuery,
  includeAnswers: booleanQuery(false).openapi({ type: "boolean", description: "Adds each inspection's answers (never images)." }),
});
export type InspectionListQuery = z.output<typeof InspectionListQuery>;

const nullableString = z.string().nullable().optional();

export const ImportAnswer = z
  .object({
    questionId: z.string().min(1),
    answerText: nullableString,
    answerNumber: z.number().nullable().optional(),
    answerBoolean: z.boolean().nullable().optional(),
    answerDate: nullableString.openapi({ description: "ISO 8601 date or date-time" }),
    answerJson: z
      .unknown()
      .optional()
      .refine((v) => !Array.isArray(v) || v.length <= MAX_ANSWER_JSON_ITEMS, `answerJson may hold at most ${MAX_ANSWER_JSON_ITEMS} items`)
      .openapi({ description: `Any JSON; an array holds at most ${MAX_ANSWER_JSON_ITEMS} items. A choice answer may list its options here (ids or values).` }),
    responseOptionId: nullableString,
    templateOptionId: nullableString,
    unitId: nullableString,
    unitCategory: nullableString,
    note: nullableString,
    media: z
      .array(z.string())
      .optional()
      .openapi({ description: "Images as base64 strings or data URLs (JPEG, PNG, WebP, GIF); at most MEDIA_MAX_IMAGE_MB each." }),
    mediaIds: z
      .array(z.string().max(64))
      .max(100, "mediaIds may list at most 100 images")
      .optional()
      .openapi({ description: "Extension: images uploaded before with POST /api/media, by their mediaId; after the `media` images." }),
  })
  .openapi("InspectionImportAnswer");
export type ImportAnswer = z.output<typeof ImportAnswer>;

export const ImportBody = z
  .object({
    templateId: z.string().min(1),
    conductedBy: z.string().min(1),
    siteId: z.string().nullable().optional(),
    assetId: z.string().nullable().optional(),
    assetName: z.string().nullable().optional(),
    status: z.enum(INSPECTION_STATUSES).default("COMPLETED"),
    startedAt: z.iso.datetime({ offset: true }).optional().openapi({ format: "date-time", description: "Default: completedAt, else the import time." }),
    completedAt: z.iso.datetime({ offset: true }).optional().openapi({ format: "date-time", description: "Default for COMPLETED: the import time. Not allowed for IN_PROGRESS." }),
    answers: z.array(ImportAnswer).max(MAX_IMPORT_ANSWERS),
  })
  .openapi("InspectionImportRequest");
export type ImportBody = z.output<typeof ImportBody>;

const Ref = (name: string, fields: Record<string, z.ZodType>) => z.object({ id: z.string(), ...fields }).openapi(name);

export const InspectionSummary = registry.register(
  "InspectionSummary",
  z.object({
    id: z.string(),
    inspectionNumber: z.string().openapi({ example: "INS-000123" }),
    templateId: z.string(),
    templateVersion: z.number().int(),
    assetId: z.string().optional(),
    assetName: z.string().optional(),
    siteId: z.string().optional(),
    conductedBy: z.string(),
    organizationId: z.string(),
    startedAt: isoTimestamp.nullable(),
    completedAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    status: z.enum(INSPECTION_STATUSES),
    template: Ref("InspectionTemplateRef", { title: z.string(), type: z.enum(["ASSET", "AUDIT"]) }),
    inspector: Ref("InspectionInspectorRef", { name: z.string().nullable(), email: z.string() }),
    site: Ref("InspectionSiteRef", { name: z.string(), code: z.string() }).optional().openapi({ description: "Present when the inspection has a site." }),
    asset: Ref("InspectionAssetRef", { name: z.string(), code: z.string().nullable() }).optional().openapi({ description: "Present when the inspection has an asset." }),
  }),
);

const answerValues = {
  id: z.string(),
  questionId: z.string(),
  answerText: z.string().nullable(),
  answerNumber: z.number().nullable(),
  answerBoolean: z.boolean().nullable(),
  answerDate: z.string().nullable(),
  answerJson: z.unknown(),
  responseOptionId: z.string().nullable(),
  templateOptionId: z.string().nullable(),
  unitId: z.string().nullable(),
  unitCategory: z.string().nullable(),
  note: z.string().nullable(),
};

export const InspectionListAnswer = registry.register("InspectionListAnswer", z.object(answerValues));

export const InspectionImage = registry.register(
  "InspectionImage",
  z.object({
    imgBlobSrc: z.string().openapi({ description: "data:<mime>;base64,<bytes>", example: "data:image/png;base64,iVBORw0KGgo..." }),
    imgDimension: z.string().optional().openapi({ description: "<width>x<height>, read from the image", example: "640x480" }),
  }),
);

export const InspectionImageRef = registry.register(
  "InspectionImageRef",
  z.object({
    mediaId: z.uuid(),
    url: z.string().openapi({ description: "GET it with the same credentials: /api/media/{mediaId}", example: "/api/media/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77" }),
    mimeType: z.string(),
    imgDimension: z.string().optional(),
    bytes: z.number().int(),
  }),
);

export const InspectionDetailAnswer = registry.register(
  "InspectionDetailAnswer",
  z.object({
    ...answerValues,
    question: z.object({ id: z.string(), text: z.string() }),
    images: z.array(z.union([InspectionImage, InspectionImageRef])).openapi({ description: "InspectionImage by default; InspectionImageRef with images=url." }),
  }),
);

/** GET /api/inspections/{id}: images as base64 data URLs (the spec's shape, default) or as references to /api/media/{id}. */
export const InspectionDetailQuery = z.object({
  images: z.enum(["base64", "url"], { message: "images must be base64 or url" }).default("base64"),
});

export const InspectionList = registry.register(
  "InspectionList",
  z.object({
    inspections: z.array(InspectionSummary.extend({ answers: z.array(InspectionListAnswer).optional().openapi({ description: "Only with includeAnswers=true." }) })),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

export const InspectionDetail = registry.register("InspectionDetail", InspectionSummary.extend({ answers: z.array(InspectionDetailAnswer) }));

export const ImportResponse = registry.register(
  "InspectionImportResponse",
  z.object({ id: z.string(), inspectionNumber: z.string().openapi({ example: "INS-000123" }), message: z.string() }),
);

export const ImportPending = registry.register(
  "InspectionImportPending",
  z.object({ error: z.string(), importId: z.string() }).openapi({ description: "The import was accepted but is still being processed; retry with the same Idempotency-Key." }),
);

const security: Record<string, string[]>[] = [{ apiKey: [] }, { basic: [] }];

registry.registerPath({
  method: "get",
  path: "/api/inspections",
  summary: "List inspections of the caller's organization",
  description: "Newest first (createdAt, then id, descending), so pages never overlap. Images are never included.",
  security,
  request: { query: InspectionListQuery },
  responses: { 200: { description: "A page of inspection summaries", content: { "application/json": { schema: InspectionList } } }, ...errorResponses(400, 401, 429) },
});

registry.registerPath({
  method: "get",
  path: "/api/inspections/{id}",
  summary: "One inspection with every answer and its images as base64 data URLs (or, with images=url, as references to GET /api/media/{id})",
  security,
  request: { params: IdParam, query: InspectionDetailQuery },
  responses: { 200: { description: "Inspection detail", content: { "application/json": { schema: InspectionDetail } } }, ...errorResponses(401, 404, 429) },
});

registry.registerPath({
  method: "post",
  path: "/api/inspections",
  summary: "Import an inspection",
  description:
    "Validates the answers against the template's conditional logic (every violation reported at once in details), stores the images, and creates the inspection through the import queue. " +
    "Optional `Idempotency-Key` header (extension): the same key and body within 24 hours return the first result; the same key with another body is a 422.",
  security,
  request: {
    headers: z.object({ "idempotency-key": z.string().max(255).optional() }),
    body: { content: { "application/json": { schema: ImportBody } } },
  },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: ImportResponse } } },
    ...errorResponses(400, 401, 404, 413, 422, 429, 500),
    503: { description: "Still being processed after IMPORT_WAIT_SECONDS (see Retry-After)", content: { "application/json": { schema: ImportPending } } },
  },
});

registry.registerPath({
  method: "get",
  path: "/api/media/{id}",
  summary: "The bytes of an image; extension",
  description: "Streamed with its content type, a strong ETag (the SHA-256 of the bytes), Cache-Control private and immutable, Accept-Ranges bytes: If-None-Match answers 304, a single Range answers 206 (416 when unsatisfiable). Another organization's id is a 404.",
  security,
  request: { params: IdParam },
  responses: {
    200: { description: "The image", content: { "image/*": { schema: z.string().openapi({ format: "binary" }) } } },
    206: { description: "The requested byte range" },
    304: { description: "Not modified (If-None-Match)" },
    ...errorResponses(401, 404, 416, 429),
  },
});

export const UploadedMedia = registry.register(
  "UploadedMedia",
  z.object({ mediaId: z.uuid(), url: z.string(), mimeType: z.string(), imgDimension: z.string(), bytes: z.number().int(), sha256: z.string() }),
);

registry.registerPath({
  method: "post",
  path: "/api/media",
  summary: "Upload one image as raw bytes; extension",
  description:
    "The body is the image itself (any Content-Type except JSON and forms; the type is sniffed: JPEG, PNG, WebP or GIF), streamed to the store without being held in memory, at most MEDIA_MAX_IMAGE_MB. Import answers reference it with `mediaIds`. The same bytes twice give the same mediaId.",
  security,
  request: { body: { content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } } },
  responses: { 201: { description: "Stored", content: { "application/json": { schema: UploadedMedia } } }, ...errorResponses(400, 401, 413, 415, 429) },
});
