import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { assets, sites } from "./directory.ts";
import { organizations } from "./organizations.ts";
import { templateQuestions, templates } from "./templates.ts";

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("inspections_org_number_key").on(t.organizationId, t.inspectionNumber),
    index("inspections_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("inspections_org_template_created_idx").on(t.organizationId, t.templateId, t.createdAt, t.id),
    index("inspections_org_site_created_idx").on(t.organizationId, t.siteId, t.createdAt, t.id),
    index("inspections_org_status_created_idx").on(t.organizationId, t.status, t.createdAt, t.id),
    index("inspections_org_asset_created_idx").on(t.organizationId, t.assetId, t.createdAt, t.id),
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
    questionId: uuid("question_id")
      .notNull()
      .references(() => templateQuestions.id),
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
    position: integer("position").notNull().default(0),
  },
  (t) => [index("inspection_answers_inspection_idx").on(t.inspectionId, t.position)],
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
  },
  (t) => [uniqueIndex("media_org_sha256_key").on(t.organizationId, t.sha256)],
);

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
  (t) => [primaryKey({ columns: [t.answerId, t.position] })],
);

/** Stored answers of requests sent with an Idempotency-Key (24 hours). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    organizationId: orgId(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
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
