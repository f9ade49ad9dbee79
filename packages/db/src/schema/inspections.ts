import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { assets, sites } from "./directory.ts";
import { organizations } from "./organizations.ts";
import { templateVersions, templates } from "./templates.ts";

export const inspections = pgTable(
  "inspections",
  {
    id: id(),
    organizationId: orgId(),
    inspectionNumber: text("inspection_number").notNull(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id),
    templateVersion: integer("template_version").notNull(),
    assetId: uuid("asset_id").references(() => assets.id, { onDelete: "set null" }),
    assetName: text("asset_name"),
    siteId: uuid("site_id").references(() => sites.id, { onDelete: "set null" }),
    conductedBy: uuid("conducted_by")
      .notNull()
      .references(() => users.id),
    /** COMPLETED or IN_PROGRESS */
    status: text("status").notNull(),
    startedAt: ts("started_at"),
    completedAt: ts("completed_at"),
    /** Bumped by every accepted PATCH; the detail's ETag. Revision 1 is the import. */
    revision: integer("revision").notNull().default(1),
    /** Computed from the answers at import and at every PATCH (docs/scoring.md). */
    score: doublePrecision("score").notNull().default(0),
    maxScore: doublePrecision("max_score").notNull().default(0),
    /** score / maxScore * 100, two decimals; null when maxScore is 0. */
    scorePercentage: doublePrecision("score_percentage"),
    flaggedCount: integer("flagged_count").notNull().default(0),
    /** RECEIVED (on import), HAS_ISSUES, APPROVED, REJECTED (docs/review.md). */
    reviewState: text("review_state").notNull().default("RECEIVED"),
    /** Where it took place (WGS 84 degrees), when the client says. */
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    locationAccuracyMeters: doublePrecision("location_accuracy_meters"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // An inspection is rendered and validated against the template version it was made with.
    foreignKey({
      name: "inspections_template_version_fk",
      columns: [t.templateId, t.templateVersion],
      foreignColumns: [templateVersions.templateId, templateVersions.version],
    }),
    uniqueIndex("inspections_org_number_key").on(t.organizationId, t.inspectionNumber),
    index("inspections_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("inspections_org_template_created_idx").on(t.organizationId, t.templateId, t.createdAt, t.id),
    index("inspections_org_site_created_idx").on(t.organizationId, t.siteId, t.createdAt, t.id),
    index("inspections_org_status_created_idx").on(t.organizationId, t.status, t.createdAt, t.id),
    index("inspections_org_asset_created_idx").on(t.organizationId, t.assetId, t.createdAt, t.id),
    // flagged=true pages read only flagged inspections; flagged=false and score ranges filter rows.
    index("inspections_org_flagged_created_idx")
      .on(t.organizationId, t.createdAt, t.id)
      .where(sql`flagged_count > 0`),
    index("inspections_org_score_idx").on(t.organizationId, t.scorePercentage),
    index("inspections_org_review_created_idx").on(t.organizationId, t.reviewState, t.createdAt, t.id),
    index("inspections_org_location_idx")
      .on(t.organizationId, t.longitude, t.latitude)
      .where(sql`longitude is not null`),
  ],
);

/** Per-organization counter behind inspectionNumber; incremented inside the import transaction. */
export const inspectionCounters = pgTable("inspection_counters", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  lastNumber: bigint("last_number", { mode: "number" }).notNull().default(0),
});

export const inspectionAnswers = pgTable(
  "inspection_answers",
  {
    id: id(),
    organizationId: orgId(),
    inspectionId: uuid("inspection_id")
      .notNull()
      .references(() => inspections.id, { onDelete: "cascade" }),
    /**
     * A question of the inspection's template version. No foreign key: question ids are shared by
     * the versions that keep a question, so they are unique only with the version; the logic
     * engine checks every answer against the version before it is written.
     */
    questionId: uuid("question_id").notNull(),
    answerText: text("answer_text"),
    answerNumber: doublePrecision("answer_number"),
    answerBoolean: boolean("answer_boolean"),
    answerDate: text("answer_date"),
    answerJson: jsonb("answer_json"),
    responseOptionId: text("response_option_id"),
    templateOptionId: text("template_option_id"),
    unitId: text("unit_id"),
    unitCategory: text("unit_category"),
    note: text("note"),
    /** A flagged option was chosen, or a `flag` rule held (at the revision that wrote it). */
    flagged: boolean("flagged").notNull().default(false),
    position: integer("position").notNull().default(0),
    /** The first revision holding this answer; a PATCH that changes or removes it sets revisionTo. */
    revisionFrom: integer("revision_from").notNull().default(1),
    /** The first revision without it; null while it is current. */
    revisionTo: integer("revision_to"),
  },
  (t) => [index("inspection_answers_inspection_idx").on(t.inspectionId, t.position)],
);

/**
 * One row per revision of an inspection: revision 1 is the import, each accepted PATCH adds one.
 * The answers of revision n are the rows with revisionFrom <= n < revisionTo (or revisionTo null).
 */
export const inspectionRevisions = pgTable(
  "inspection_revisions",
  {
    organizationId: orgId(),
    inspectionId: uuid("inspection_id")
      .notNull()
      .references(() => inspections.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    status: text("status").notNull(),
    completedAt: ts("completed_at"),
    /** api_key, user, ... and its id (the audit log's actor). */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    requestId: text("request_id"),
    /** {added, changed, removed}: question ids; {status: {from, to}} when the status moved. */
    changes: jsonb("changes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.inspectionId, t.revision] })],
);

/** Decoded media, deduplicated by content hash per organization; bytes live in the media store. */
export const media = pgTable(
  "media",
  {
    id: id(),
    organizationId: orgId(),
    sha256: text("sha256").notNull(),
    mimeType: text("mime_type").notNull(),
    width: integer("width"),
    height: integer("height"),
    byteSize: integer("byte_size").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: createdAt(),
    /**
     * Set by every upload of the same bytes and every request that references it; the orphan
     * sweep deletes only media unreferenced for longer than its grace period since then.
     */
    lastUsedAt: ts("last_used_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("media_org_sha256_key").on(t.organizationId, t.sha256),
    index("media_last_used_idx").on(t.lastUsedAt),
    // MEDIA_MAX_STORED_MB_PER_ORG sums an organization's sizes at every upload: from the index alone.
    index("media_org_size_idx").on(t.organizationId, t.byteSize),
  ],
);

/**
 * Bytes whose media rows the orphan sweep deleted, until the store has deleted them too: written
 * in the statement that deletes the rows, so a crash or a store failure leaves a record the next
 * sweep finishes, never bytes nobody knows about.
 */
export const mediaTrash = pgTable("media_trash", {
  storageKey: text("storage_key").primaryKey(),
  organizationId: orgId(),
  createdAt: createdAt(),
});

export const answerMedia = pgTable(
  "answer_media",
  {
    answerId: uuid("answer_id")
      .notNull()
      .references(() => inspectionAnswers.id, { onDelete: "cascade" }),
    mediaId: uuid("media_id")
      .notNull()
      .references(() => media.id),
    organizationId: orgId(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.answerId, t.position] }), index("answer_media_media_idx").on(t.mediaId)],
);

/**
 * Requests sent with an Idempotency-Key (24 hours): pending while the request runs, then its
 * domain outcome (core/idempotency.ts). Each route turns an outcome into HTTP, so no status is
 * stored, except in rows recorded before outcomes were (migration 0012).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    organizationId: orgId(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /**
     * Rows recorded before outcomes (and by the previous release during a rolling update): the
     * HTTP status of the answer. Never written now; dropped a release later, when no such row is
     * younger than 24 hours.
     */
    responseStatus: integer("response_status"),
    /**
     * What the running request noted so a repeat can attach to it ({importId}, {requestId}); kept
     * once it is done, so the previous release, which reads this column as an answer or progress,
     * still attaches to the same work. In rows with a responseStatus: the HTTP body.
     */
    progress: jsonb("response_body"),
    /** The request's final domain outcome, replayed to every repeat with the same key and body. */
    outcome: jsonb("outcome"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.scope, t.key] })],
);

/**
 * One POST /api/inspections after validation: the API stores the decoded media, writes this row
 * (payload without base64: media are referenced by media ids) and enqueues a job carrying only
 * {organizationId, importId}. The worker creates the inspection and writes the outcome here in the
 * same transaction, so this row is the source of truth the API waits on.
 */
export const inspectionImports = pgTable(
  "inspection_imports",
  {
    id: id(),
    organizationId: orgId(),
    /** PENDING, DONE, FAILED */
    status: text("status").notNull().default("PENDING"),
    payload: jsonb("payload").notNull(),
    inspectionId: uuid("inspection_id").references(() => inspections.id, { onDelete: "set null" }),
    /** DONE: {id, inspectionNumber} */
    result: jsonb("result"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** Who sent it, for the audit entry the worker writes: {actorType, actorId, requestId}. */
    audit: jsonb("audit"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("inspection_imports_status_created_idx").on(t.status, t.createdAt)],
);

/**
 * Comments on an inspection (docs/review.md): a reviewer's or anyone's (kind "comment"), the one
 * a review carries (kind "review", with the state it set), and the service's own (kind "system",
 * e.g. an APPROVED inspection changed by a PATCH). Newest last.
 */
export const inspectionComments = pgTable(
  "inspection_comments",
  {
    id: id(),
    organizationId: orgId(),
    inspectionId: uuid("inspection_id")
      .notNull()
      .references(() => inspections.id, { onDelete: "cascade" }),
    /** comment, review, system */
    kind: text("kind").notNull(),
    /** For kind review: the state it set. */
    reviewState: text("review_state"),
    body: text("body").notNull(),
    /** user, api_key, oauth_client, system, ... and its id (the audit log's actor). */
    authorType: text("author_type").notNull(),
    authorId: text("author_id"),
    createdAt: createdAt(),
  },
  (t) => [index("inspection_comments_org_inspection_idx").on(t.organizationId, t.inspectionId, t.createdAt, t.id)],
);

/**
 * PDF reports of inspections (docs/reports.md), one per inspection and what it shows: `cacheKey`
 * is the inspection's revision and the fingerprint of everything else the report prints, so an
 * unchanged inspection is served the stored file and any change makes a new one.
 */
export const inspectionReports = pgTable(
  "inspection_reports",
  {
    id: id(),
    organizationId: orgId(),
    inspectionId: uuid("inspection_id")
      .notNull()
      .references(() => inspections.id, { onDelete: "cascade" }),
    cacheKey: text("cache_key").notNull(),
    /** QUEUED, RUNNING, SUCCEEDED, FAILED */
    status: text("status").notNull().default("QUEUED"),
    storageKey: text("storage_key"),
    byteSize: bigint("byte_size", { mode: "number" }),
    pages: integer("pages"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    uniqueIndex("inspection_reports_org_inspection_key").on(t.organizationId, t.inspectionId, t.cacheKey),
    index("inspection_reports_created_idx").on(t.createdAt),
    // REPORTS_MAX_RENDERING_PER_ORG counts QUEUED and RUNNING reports.
    index("inspection_reports_org_active_idx")
      .on(t.organizationId, t.status)
      .where(sql`status in ('QUEUED', 'RUNNING')`),
  ],
);
