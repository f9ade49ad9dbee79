import { sql } from "drizzle-orm";
import { boolean, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { assetTypes, responseTypes } from "./directory.ts";

/**
 * A template's identity and its current version's face: the list and the detail read this row.
 * `version` is the current version (the published one, or version 1 while it is still a draft);
 * title, description, type and asset type are copied from that version when it is published.
 */
export const templates = pgTable(
  "templates",
  {
    id: id(),
    organizationId: orgId(),
    title: text("title").notNull(),
    initialTitle: text("initial_title"),
    description: text("description"),
    /** ASSET or AUDIT */
    type: text("type").notNull(),
    /** DRAFT (never published), PUBLISHED, ARCHIVED */
    status: text("status").notNull().default("DRAFT"),
    version: integer("version").notNull().default(1),
    isActive: boolean("is_active").notNull().default(true),
    assetTypeId: uuid("asset_type_id").references(() => assetTypes.id, { onDelete: "set null" }),
    assetTypeMetadata: jsonb("asset_type_metadata"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    publishedAt: ts("published_at"),
    archivedAt: ts("archived_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_org_status_created_idx").on(t.organizationId, t.status, t.createdAt, t.id)],
);

/**
 * Every version of a template. A version's content (sections, questions, options, rules) is
 * written once, when the version is created, and never changes after it is published.
 */
export const templateVersions = pgTable(
  "template_versions",
  {
    organizationId: orgId(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** DRAFT, PUBLISHED (the current one), SUPERSEDED (published, then replaced by a later version) */
    status: text("status").notNull().default("DRAFT"),
    title: text("title").notNull(),
    description: text("description"),
    type: text("type").notNull(),
    assetTypeId: uuid("asset_type_id").references(() => assetTypes.id, { onDelete: "set null" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    publishedAt: ts("published_at"),
    supersededAt: ts("superseded_at"),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version] }),
    // One draft at a time per template, whatever the number of concurrent requests.
    uniqueIndex("template_versions_one_draft_key")
      .on(t.templateId)
      .where(sql`status = 'DRAFT'`),
  ],
);

/** Id columns of a version's content: unique within (template, version), kept across versions where docs/templates.md (Versions) says. */
const contentId = () => uuid("id").notNull().defaultRandom();

export const templateSections = pgTable(
  "template_sections",
  {
    id: contentId(),
    organizationId: orgId(),
    templateId: uuid("template_id").notNull(),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version, t.id] }),
    foreignKey({
      name: "template_sections_version_fk",
      columns: [t.templateId, t.version],
      foreignColumns: [templateVersions.templateId, templateVersions.version],
    }).onDelete("cascade"),
  ],
);

export const templateQuestions = pgTable(
  "template_questions",
  {
    id: contentId(),
    organizationId: orgId(),
    templateId: uuid("template_id").notNull(),
    version: integer("version").notNull(),
    /** null: a standalone question (deprecated by the spec, still served). */
    sectionId: uuid("section_id"),
    key: text("key"),
    text: text("text").notNull(),
    hint: text("hint"),
    required: boolean("required").notNull().default(false),
    position: integer("position").notNull(),
    responseTypeId: uuid("response_type_id").references(() => responseTypes.id, { onDelete: "set null" }),
    /** Copied from the response type at save time, so the template does not change when it does. */
    inputType: text("input_type").notNull().default("TEXT"),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version, t.id] }),
    foreignKey({
      name: "template_questions_version_fk",
      columns: [t.templateId, t.version],
      foreignColumns: [templateVersions.templateId, templateVersions.version],
    }).onDelete("cascade"),
    foreignKey({
      name: "template_questions_section_fk",
      columns: [t.templateId, t.version, t.sectionId],
      foreignColumns: [templateSections.templateId, templateSections.version, templateSections.id],
    }).onDelete("cascade"),
    uniqueIndex("template_questions_version_key_key").on(t.templateId, t.version, t.key),
  ],
);

/** Options copied from the response type (or given inline) with ids of their own. */
export const templateQuestionOptions = pgTable(
  "template_question_options",
  {
    id: contentId(),
    organizationId: orgId(),
    templateId: uuid("template_id").notNull(),
    version: integer("version").notNull(),
    questionId: uuid("question_id").notNull(),
    label: text("label").notNull(),
    value: text("value").notNull(),
    position: integer("position").notNull(),
    requiresNote: boolean("requires_note").notNull().default(false),
    requiresPhoto: boolean("requires_photo").notNull().default(false),
    /** Points for choosing it; null with scoreNotApplicable false: the option carries no score. */
    score: doublePrecision("score"),
    /** Choosing it leaves its question out of the inspection's score ("not applicable"). */
    scoreNotApplicable: boolean("score_not_applicable").notNull().default(false),
    /** Choosing it flags the answer. */
    flagged: boolean("flagged").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version, t.id] }),
    foreignKey({
      name: "template_question_options_question_fk",
      columns: [t.templateId, t.version, t.questionId],
      foreignColumns: [templateQuestions.templateId, templateQuestions.version, templateQuestions.id],
    }).onDelete("cascade"),
  ],
);

export const templateLogicRules = pgTable(
  "template_logic_rules",
  {
    id: contentId(),
    organizationId: orgId(),
    templateId: uuid("template_id").notNull(),
    version: integer("version").notNull(),
    sourceQuestionId: uuid("source_question_id").notNull(),
    /** The question the rule acts on; for the answer rules (require_note, ...) given no targetKey, the source. */
    targetQuestionId: uuid("target_question_id").notNull(),
    /** A leaf's type (equals, ...), or "group" with the group ({all}, {any}, {not}) as saved in conditionValue. */
    conditionType: text("condition_type").notNull(),
    conditionValue: jsonb("condition_value"),
    actionType: text("action_type").notNull().default("ask_questions"),
    order: integer("order").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version, t.id] }),
    foreignKey({
      name: "template_logic_rules_source_fk",
      columns: [t.templateId, t.version, t.sourceQuestionId],
      foreignColumns: [templateQuestions.templateId, templateQuestions.version, templateQuestions.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "template_logic_rules_target_fk",
      columns: [t.templateId, t.version, t.targetQuestionId],
      foreignColumns: [templateQuestions.templateId, templateQuestions.version, templateQuestions.id],
    }).onDelete("cascade"),
  ],
);
