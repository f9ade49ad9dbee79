import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";
import { assetTypes, responseTypes } from "./directory.ts";

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
    /** DRAFT, PUBLISHED, ARCHIVED */
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

export const templateSections = pgTable(
  "template_sections",
  {
    id: id(),
    organizationId: orgId(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    position: integer("position").notNull(),
  },
  (t) => [index("template_sections_template_idx").on(t.templateId, t.position)],
);

export const templateQuestions = pgTable(
  "template_questions",
  {
    id: id(),
    organizationId: orgId(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    /** null: a standalone question (deprecated by the spec, still served). */
    sectionId: uuid("section_id").references(() => templateSections.id, { onDelete: "cascade" }),
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
    index("template_questions_template_idx").on(t.templateId, t.sectionId, t.position),
    uniqueIndex("template_questions_template_key_key").on(t.templateId, t.key),
  ],
);

/** Options copied from the response type (or given inline) with ids of their own. */
export const templateQuestionOptions = pgTable(
  "template_question_options",
  {
    id: id(),
    organizationId: orgId(),
    questionId: uuid("question_id")
      .notNull()
      .references(() => templateQuestions.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    value: text("value").notNull(),
    position: integer("position").notNull(),
    requiresNote: boolean("requires_note").notNull().default(false),
    requiresPhoto: boolean("requires_photo").notNull().default(false),
  },
  (t) => [index("template_question_options_question_idx").on(t.questionId, t.position)],
);

export const templateLogicRules = pgTable(
  "template_logic_rules",
  {
    id: id(),
    organizationId: orgId(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    sourceQuestionId: uuid("source_question_id")
      .notNull()
      .references(() => templateQuestions.id, { onDelete: "cascade" }),
    targetQuestionId: uuid("target_question_id")
      .notNull()
      .references(() => templateQuestions.id, { onDelete: "cascade" }),
    conditionType: text("condition_type").notNull(),
    conditionValue: jsonb("condition_value"),
    actionType: text("action_type").notNull().default("ask_questions"),
    order: integer("order").notNull().default(0),
  },
  (t) => [index("template_logic_rules_template_idx").on(t.templateId)],
);
