import { AnswerActionInput, ActionView } from "./actions.ts";
import { IdParam, booleanQuery, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** Answers per import; the body limit (INSPECTION_BODY_LIMIT_MB) bounds the media. */
export const MAX_IMPORT_ANSWERS = 5000;
/**
 * Items of an answerJson array. A choice answer lists its selected options there; no question needs
 * more, and each item is checked against the template's options.
 */
export const MAX_ANSWER_JSON_ITEMS = 1000;
/** Review states (docs/review.md); core's ReviewState type must stay the same union. */
export const REVIEW_STATES = ["RECEIVED", "HAS_ISSUES", "APPROVED", "REJECTED"] as const;
/** Characters of one comment. */
export const MAX_COMMENT_LENGTH = 10_000;
/** The single list of inspection statuses (core's InspectionStatus type must stay the same union). */
export const INSPECTION_STATUSES = ["COMPLETED", "IN_PROGRESS"] as const;

/** Corrective actions one answer may raise in an import or a PATCH. */
export const MAX_ANSWER_ACTIONS = 20;

const percentQuery = (name: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, `${name} must be a number`)
    .transform(Number)
    .optional()
    .openapi({
      type: "number",
      description: `Extension: only inspections whose scorePercentage is ${name.startsWith("min") ? "at least" : "at most"} this (inspections without a score never match).`,
    });

/** minLon,minLat,maxLon,maxLat in degrees (WGS 84); minLon > maxLon crosses the antimeridian. */
export const BBox = z
  .string()
  .transform((s, ctx) => {
    const parts = s.split(",").map((p) => p.trim());
    const nums = parts.map((p) => (/^-?\d+(\.\d+)?$/.test(p) ? Number(p) : Number.NaN));
    if (parts.length !== 4 || nums.some((n) => Number.isNaN(n))) {
      ctx.addIssue({ code: "custom", message: "bbox must be four numbers: minLon,minLat,maxLon,maxLat" });
      return z.NEVER;
    }
    const [minLon, minLat, maxLon, maxLat] = nums as [number, number, number, number];
    if ([minLon, maxLon].some((x) => x < -180 || x > 180) || [minLat, maxLat].some((y) => y < -90 || y > 90)) {
      ctx.addIssue({ code: "custom", message: "bbox longitudes must be between -180 and 180 and latitudes between -90 and 90" });
      return z.NEVER;
    }
    if (minLat > maxLat) {
      ctx.addIssue({ code: "custom", message: "bbox minLat must not be above maxLat" });
      return z.NEVER;
    }
    return { minLon, minLat, maxLon, maxLat };
  })
  .openapi({
    type: "string",
    example: "13.08,52.33,13.76,52.68",
    description:
      "Extension: minLon,minLat,maxLon,maxLat (WGS 84 degrees, edges included); only inspections with a location inside. minLon above maxLon crosses the antimeridian.",
  });

export const InspectionListQuery = z.object({
  templateId: z.string().optional(),
  status: z.enum(INSPECTION_STATUSES).optional(),
  siteId: z.string().optional(),
  assetId: z.string().optional(),
  reviewState: z
    .enum(REVIEW_STATES, { message: `reviewState must be one of ${REVIEW_STATES.join(", ")}` })
    .optional()
    .openapi({ description: "Extension: only inspections in this review state." }),
  flagged: z
    .enum(["true", "false"], { message: "flagged must be true or false" })
    .transform((v) => v === "true")
    .optional()
    .openapi({ type: "boolean", description: "Extension: true: inspections with at least one flagged answer; false: without." }),
  minScorePercentage: percentQuery("minScorePercentage"),
  maxScorePercentage: percentQuery("maxScorePercentage"),
  bbox: BBox.optional(),
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
      .refine((ids) => new Set(ids).size === ids.length, "mediaIds must not list an image twice")
      .optional()
      .openapi({ description: "Extension: images uploaded before with POST /api/media, by their mediaId; after the `media` images." }),
    actions: z.array(AnswerActionInput).max(MAX_ANSWER_ACTIONS, `an answer may raise at most ${MAX_ANSWER_ACTIONS} corrective actions`).optional().openapi({
      description:
        "Extension: corrective actions this answer raises, created with the inspection (in a PATCH: added to those it has). They satisfy require_action rules.",
    }),
  })
  .openapi("InspectionImportAnswer");

const coordinate = (name: string, limit: number) =>
  z
    .number({ message: `${name} must be a number` })
    .min(-limit, `${name} must be between -${limit} and ${limit}`)
    .max(limit, `${name} must be between -${limit} and ${limit}`);

/** Where an inspection took place, in WGS 84 degrees. */
export const InspectionLocation = z
  .object({
    latitude: coordinate("location.latitude", 90),
    longitude: coordinate("location.longitude", 180),
    accuracyMeters: z.number().min(0, "location.accuracyMeters must not be negative").max(1e7, "location.accuracyMeters must be at most 10000000").optional(),
  })
  .openapi("InspectionLocation", { example: { latitude: 52.5163, longitude: 13.3777, accuracyMeters: 12 } });
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
    completedAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ format: "date-time", description: "Default for COMPLETED: the import time. Not allowed for IN_PROGRESS." }),
    answers: z.array(ImportAnswer).max(MAX_IMPORT_ANSWERS),
    location: InspectionLocation.nullable().optional().openapi({ description: "Extension: where it took place." }),
    occurrenceId: z.string().max(64, "occurrenceId must be an id").optional().openapi({
      format: "uuid",
      description:
        "Extension: the OPEN or LATE occurrence of a schedule this inspection does (docs/schedules.md). IN_PROGRESS marks it started, COMPLETED completes it; its template, and its site or asset when it has one, must match (400 naming occurrenceId).",
    }),
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
    asset: Ref("InspectionAssetRef", { name: z.string(), code: z.string().nullable() })
      .optional()
      .openapi({ description: "Present when the inspection has an asset." }),
    score: z.number().openapi({ description: "Extension: points of the visible scored questions (docs/scoring.md)." }),
    maxScore: z.number().openapi({ description: "Extension: their maximums; an unanswered one counts with 0 points." }),
    scorePercentage: z.number().nullable().openapi({ description: "Extension: score / maxScore * 100, two decimals; null when maxScore is 0." }),
    flaggedCount: z.number().int().openapi({ description: "Extension: answers flagged by a flagged option or a flag rule." }),
    reviewState: z.enum(REVIEW_STATES).openapi({ description: "Extension: RECEIVED on import; set by POST /api/inspections/{id}/review (docs/review.md)." }),
    location: InspectionLocation.nullable().openapi({ description: "Extension: where it took place; null when not given." }),
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
  flagged: z.boolean().openapi({ description: "Extension: a flagged option was chosen, or a flag rule holds (as of the inspection's latest revision)." }),
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
    url: z
      .string()
      .openapi({ description: "GET it with the same credentials: /api/media/{mediaId}", example: "/api/media/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77" }),
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
    actions: z.array(ActionView).openapi({ description: "Extension: the corrective actions raised on this answer's question." }),
  }),
);

/** GET /api/inspections/{id}: images as base64 data URLs (the spec's shape, default) or as references to /api/media/{id}. */
export const InspectionDetailQuery = z.object({
  images: z.enum(["base64", "url"], { message: "images must be base64 or url" }).default("base64"),
});

export const InspectionList = registry.register(
  "InspectionList",
  z.object({
    inspections: z.array(
      InspectionSummary.extend({ answers: z.array(InspectionListAnswer).optional().openapi({ description: "Only with includeAnswers=true." }) }),
    ),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

export const InspectionDetail = registry.register(
  "InspectionDetail",
  InspectionSummary.extend({
    revision: z.number().int().openapi({ description: "Extension: 1 for the import, one more for every accepted PATCH. The ETag header names it." }),
    answers: z.array(InspectionDetailAnswer),
  }),
);

/** Answers one PATCH may give or remove. */
export const MAX_PATCH_ANSWERS = MAX_IMPORT_ANSWERS;

export const PatchInspectionBody = z
  .strictObject({
    status: z.enum(INSPECTION_STATUSES).optional().openapi({
      description:
        "IN_PROGRESS -> COMPLETED completes it (every visible required question must then be answered). A COMPLETED inspection never goes back (409).",
    }),
    completedAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ format: "date-time", description: "Default when completing: now. Not allowed while IN_PROGRESS." }),
    answers: z
      .array(ImportAnswer)
      .max(MAX_PATCH_ANSWERS)
      .optional()
      .openapi({ description: "Each replaces the answer to its question (value, note and images: list the mediaIds to keep), or adds one." }),
    removeAnswers: z.array(z.string().min(1).max(64)).max(MAX_PATCH_ANSWERS).optional().openapi({ description: "Question ids whose answer is removed." }),
    location: InspectionLocation.nullable().optional().openapi({ description: "Extension: where it took place; null removes it." }),
    occurrenceId: z.string().max(64, "occurrenceId must be an id").optional().openapi({
      format: "uuid",
      description:
        "Extension: the OPEN or LATE occurrence of a schedule this inspection does (docs/schedules.md). IN_PROGRESS marks it started, COMPLETED completes it; its template, and its site or asset when it has one, must match (400 naming occurrenceId).",
    }),
  })
  // Only when the keys are otherwise right: an unknown key is its own message.
  .refine((b) => Object.keys(b).length > 0, {
    message: "give at least one of status, completedAt, answers, removeAnswers, location",
    when: (p) => p.issues.length === 0,
  })
  .openapi("InspectionPatchRequest");
export type PatchInspectionBody = z.output<typeof PatchInspectionBody>;

export const RevisionParam = z.object({
  id: z.string().openapi({ format: "uuid" }),
  revision: z
    .string()
    .regex(/^\d{1,9}$/, "revision must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1, "revision must be at least 1")),
});

export const InspectionRevision = registry.register(
  "InspectionRevision",
  z.object({
    revision: z.number().int(),
    createdAt: isoTimestamp,
    status: z.enum(INSPECTION_STATUSES),
    completedAt: isoTimestamp.nullable(),
    actor: z.object({ type: z.string().openapi({ description: "api_key, user, ..." }), id: z.string().nullable() }),
    requestId: z.string().nullable().openapi({ description: "The X-Request-Id of the request that made it." }),
    changes: z.object({
      added: z.array(z.string()).openapi({ description: "Question ids answered for the first time." }),
      changed: z.array(z.string()).openapi({ description: "Question ids whose answer (value, note or images) changed." }),
      removed: z.array(z.string()).openapi({ description: "Question ids whose answer was removed." }),
      status: z.object({ from: z.string(), to: z.string() }).optional(),
    }),
  }),
);

export const InspectionRevisionList = registry.register("InspectionRevisionList", z.object({ revisions: z.array(InspectionRevision) }));

export const ImportResponse = registry.register(
  "InspectionImportResponse",
  z.object({ id: z.string(), inspectionNumber: z.string().openapi({ example: "INS-000123" }), message: z.string() }),
);

export const ImportPending = registry.register(
  "InspectionImportPending",
  z
    .object({ error: z.string(), importId: z.string() })
    .openapi({ description: "The import was accepted but is still being processed; retry with the same Idempotency-Key." }),
);

const read = keyOrUser("inspections:read");
const write = keyOrUser("inspections:write");

export const listInspectionsOp = defineOperation({
  method: "get",
  path: "/api/inspections",
  summary: "List inspections of the caller's organization",
  description: "Newest first (createdAt, then id, descending), so pages never overlap. Images are never included.",
  auth: read,
  request: { query: InspectionListQuery },
  responses: {
    200: { description: "A page of inspection summaries", content: { "application/json": { schema: InspectionList } } },
    ...errorResponses(400, 401, 429),
  },
});

export const getInspectionOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}",
  summary: "One inspection with every answer and its images as base64 data URLs (or, with images=url, as references to GET /api/media/{id})",
  description:
    "Answers are rendered against the inspection's own template version. The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.",
  auth: read,
  request: { params: IdParam, query: InspectionDetailQuery },
  responses: {
    200: { description: "Inspection detail", content: { "application/json": { schema: InspectionDetail } } },
    304: { description: "Not modified (If-None-Match)" },
    ...errorResponses(401, 404, 429),
  },
});

export const patchInspectionOp = defineOperation({
  method: "patch",
  path: "/api/inspections/{id}",
  summary: "Continue or correct an inspection; extension",
  description:
    "Needs `If-Match` with the ETag of GET /api/inspections/{id} (428 without it; 412 when the inspection has changed since). Adds, changes or removes answers and their images and may complete it; " +
    'the answers it ends with are validated like an import against the inspection\'s own template version (400 `{error: "Inspection validation failed", details}`). Each accepted change is a new revision; a request that changes nothing makes none. ' +
    "Answers with the new detail (and its ETag); `?images=` as for GET.",
  auth: write,
  body: "inspection",
  request: {
    params: IdParam,
    query: InspectionDetailQuery,
    headers: z.object({ "if-match": z.string().openapi({ example: '"r3"' }) }),
    body: {
      content: {
        "application/json": {
          schema: PatchInspectionBody,
          example: {
            status: "COMPLETED",
            answers: [{ questionId: "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e", answerText: "Leak fixed on site" }],
            removeAnswers: ["c8d9e0f1-2a3b-4c4d-9e5f-6a7b8c9d0e1f"],
            location: { latitude: 52.5163, longitude: 13.3777 },
          },
        },
      },
    },
  },
  responses: {
    200: { description: "The inspection after the change", content: { "application/json": { schema: InspectionDetail } } },
    ...errorResponses(400, 401, 404, 409, 412, 413, 428, 429),
  },
});

export const listRevisionsOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}/revisions",
  summary: "Every revision of an inspection: who changed what, when; extension",
  auth: read,
  request: { params: IdParam },
  responses: {
    200: { description: "Revisions, oldest first", content: { "application/json": { schema: InspectionRevisionList } } },
    ...errorResponses(401, 404, 429),
  },
});

export const getRevisionOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}/revisions/{revision}",
  summary: "An inspection as it was at one revision; extension",
  auth: read,
  request: { params: RevisionParam, query: InspectionDetailQuery },
  responses: {
    200: { description: "Inspection detail at that revision", content: { "application/json": { schema: InspectionDetail } } },
    ...errorResponses(400, 401, 404, 429),
  },
});

export const importInspectionOp = defineOperation({
  method: "post",
  path: "/api/inspections",
  summary: "Import an inspection",
  description:
    "Validates the answers against the template's conditional logic (every violation reported at once in details), stores the images, and creates the inspection through the import queue. " +
    "Optional `Idempotency-Key` header (extension): the same key and body within 24 hours return the first result; the same key with another body is a 422. " +
    "Images that would take the organization's stored media past MEDIA_MAX_STORED_MB_PER_ORG (default 10 GiB; counted as sent) answer 413 and nothing is stored.",
  auth: write,
  body: "inspection",
  request: {
    headers: z.object({ "idempotency-key": z.string().max(255).optional() }),
    body: {
      content: {
        "application/json": {
          schema: ImportBody,
          example: {
            templateId: "8d3b1f9e-4c2a-4e6b-9f1d-2a3b4c5d6e7f",
            conductedBy: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
            siteId: "5f0c6a8e-2b1d-4c3e-9a7f-0d1e2f3a4b5c",
            status: "COMPLETED",
            completedAt: "2026-03-01T10:30:00Z",
            answers: [
              { questionId: "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e", answerText: "No leaks found" },
              {
                questionId: "c8d9e0f1-2a3b-4c4d-9e5f-6a7b8c9d0e1f",
                templateOptionId: "d9e0f1a2-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
                note: "Rust on the left fork",
                media: ["data:image/png;base64,iVBORw0KGgo..."],
                actions: [
                  { title: "Replace the left fork", priority: "HIGH", assigneeId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", dueAt: "2026-03-08T17:00:00Z" },
                ],
              },
            ],
            location: { latitude: 52.5163, longitude: 13.3777, accuracyMeters: 12 },
          },
        },
      },
    },
  },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: ImportResponse } } },
    ...errorResponses(400, 401, 404, 413, 422, 429, 500),
    503: { description: "Still being processed after IMPORT_WAIT_SECONDS (see Retry-After)", content: { "application/json": { schema: ImportPending } } },
  },
});

export const getMediaOp = defineOperation({
  method: "get",
  path: "/api/media/{id}",
  summary: "The bytes of an image; extension",
  description:
    "Streamed with its content type, a strong ETag (the SHA-256 of the bytes), Cache-Control private and immutable, Accept-Ranges bytes: If-None-Match answers 304, a single Range answers 206 (416 when unsatisfiable). Another organization's id is a 404.",
  auth: keyOrUser("media:read"),
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

export const uploadMediaOp = defineOperation({
  method: "post",
  path: "/api/media",
  summary: "Upload one image as raw bytes; extension",
  description:
    "The body is the image itself (any Content-Type except JSON and forms; the type is sniffed: JPEG, PNG, WebP or GIF), streamed to the store without being held in memory, at most MEDIA_MAX_IMAGE_MB. Import answers reference it with `mediaIds`. The same bytes twice give the same mediaId. New bytes that would take the organization's stored media past MEDIA_MAX_STORED_MB_PER_ORG (default 10 GiB) answer 413 and are not stored.",
  auth: keyOrUser("media:write"),
  request: {
    body: {
      content: {
        "application/octet-stream": {
          schema: z.string().openapi({ format: "binary" }),
          examples: {
            jpeg: {
              summary: "A JPEG photo: the file's bytes as they are, with its type (curl --data-binary @photo.jpg -H 'Content-Type: image/jpeg')",
              value: "<the bytes of photo.jpg>",
            },
          },
        },
      },
    },
  },
  responses: { 201: { description: "Stored", content: { "application/json": { schema: UploadedMedia } } }, ...errorResponses(400, 401, 413, 415, 429) },
});

// ---- review and comments (docs/review.md) ----

const commentText = z.string({ message: "must be a string" }).max(MAX_COMMENT_LENGTH, `a comment has at most ${MAX_COMMENT_LENGTH} characters`);

export const ReviewBody = z
  .strictObject({
    state: z.enum(REVIEW_STATES, { message: `state must be one of ${REVIEW_STATES.join(", ")}` }),
    comment: commentText.optional().openapi({ description: "Required (not blank) for HAS_ISSUES and REJECTED." }),
  })
  .superRefine((b, ctx) => {
    if ((b.state === "HAS_ISSUES" || b.state === "REJECTED") && !b.comment?.trim()) {
      ctx.addIssue({ code: "custom", path: ["comment"], message: `a review that sets ${b.state} needs a comment saying why` });
    }
  })
  .openapi("InspectionReviewRequest");
export type ReviewBody = z.output<typeof ReviewBody>;

export const CommentBody = z.strictObject({ body: commentText.refine((s) => s.trim() !== "", "body must not be blank") }).openapi("InspectionCommentRequest");

export const InspectionComment = registry.register(
  "InspectionComment",
  z.object({
    id: z.string(),
    kind: z
      .enum(["comment", "review", "system"])
      .openapi({ description: "comment: anyone's; review: the comment a review carried; system: the service's own (an approved inspection changed)." }),
    reviewState: z.enum(REVIEW_STATES).nullable().openapi({ description: "The state a review (or a system comment) set; null for a plain comment." }),
    body: z.string(),
    author: z.object({
      type: z.string().openapi({ description: "user, api_key, ... or system" }),
      id: z.string().nullable(),
      name: z.string().nullable().openapi({ description: "A user's name." }),
    }),
    createdAt: isoTimestamp,
  }),
);

export const InspectionCommentList = registry.register(
  "InspectionCommentList",
  z.object({
    comments: z.array(InspectionComment),
    pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
  }),
);

export const InspectionReviewResponse = registry.register(
  "InspectionReviewResponse",
  z.object({
    inspectionId: z.string(),
    reviewState: z.enum(REVIEW_STATES),
    previousState: z.enum(REVIEW_STATES),
    comment: InspectionComment.nullable(),
  }),
);

export const CommentListQuery = z.object({ ...pageQuery });

export const reviewInspectionOp = defineOperation({
  method: "post",
  path: "/api/inspections/{id}/review",
  summary: "Review an inspection: set its review state; extension",
  description:
    "RECEIVED (every import), HAS_ISSUES, APPROVED, REJECTED, from any state to any other. HAS_ISSUES and REJECTED need a comment, kept as the inspection's comment of kind review. API keys allowed to write inspections and admin users; other users get 403, and so does a user reviewing an inspection they conducted. Sends the webhook inspection.reviewed and writes an audit entry. A PATCH of an APPROVED inspection sets it back to RECEIVED (docs/review.md).",
  auth: write,
  request: {
    params: IdParam,
    body: {
      content: { "application/json": { schema: ReviewBody, example: { state: "HAS_ISSUES", comment: "Photo of the left fork is missing; please add it." } } },
    },
  },
  responses: {
    200: { description: "The review", content: { "application/json": { schema: InspectionReviewResponse } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const listCommentsOp = defineOperation({
  method: "get",
  path: "/api/inspections/{id}/comments",
  summary: "Comments on an inspection, oldest first (newest last); extension",
  auth: read,
  request: { params: IdParam, query: CommentListQuery },
  responses: {
    200: { description: "A page of comments", content: { "application/json": { schema: InspectionCommentList } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const addCommentOp = defineOperation({
  method: "post",
  path: "/api/inspections/{id}/comments",
  summary: "Comment on an inspection; extension",
  description: `Up to ${MAX_COMMENT_LENGTH} characters; the author (user or API key) and the time are kept. API keys allowed to write inspections and every user of the organization.`,
  auth: write,
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: CommentBody, example: { body: "Checked with the site manager: the guard was replaced on Monday." } } } },
  },
  responses: {
    201: { description: "The comment", content: { "application/json": { schema: InspectionComment } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});
