import { IdParam, booleanQuery, errorResponses, isoTimestamp, wholeNumber } from "./common.ts";
import { MAX_IMPORT_ANSWERS } from "./inspections.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/** Templates: list, detail, create (DRAFT), and the publish/archive extensions. Spec: "Template (list item)", "Template (detail)", "POST /api/templates". */

export const TEMPLATE_TYPES = ["ASSET", "AUDIT"] as const;
export const TEMPLATE_STATUSES = ["DRAFT", "PUBLISHED", "ARCHIVED"] as const;
/** A version's own status: SUPERSEDED was published, then replaced by a later version. */
export const VERSION_STATUSES = ["DRAFT", "PUBLISHED", "SUPERSEDED"] as const;

/** The spec's two create errors, checked before schema validation so these exact messages win. */
export const TEMPLATE_MESSAGES = {
  nameAndTypeRequired: "Template name and type are required",
  createdByRequired: "createdBy (user id) is required when using an API key",
} as const;

/**
 * Size limits of one create body (extension: the spec names none). They keep a template's rows within
 * what one request should write and what the logic checks of every import should read. Core adds one
 * more: at most MAX_TEMPLATE_OPTIONS options per template, counting those copied from response types.
 */
export const TEMPLATE_LIMITS = {
  sections: 200,
  /** Sections' questions and standalone questions together; as many as one import may answer. */
  questions: MAX_IMPORT_ANSWERS,
  /** Inline options of one question. */
  optionsPerQuestion: 500,
  logicRules: 5000,
} as const;

/** A rule's order is stored as a Postgres integer (int4). */
export const RULE_ORDER_MIN = -2_147_483_648;
export const RULE_ORDER_MAX = 2_147_483_647;

const read = keyOrUser("templates:read");
const write = keyOrUser("templates:write");

// ---- requests ----

export const TemplateListQuery = z.object({
  publishedOnly: booleanQuery(true).openapi({
    type: "string",
    enum: ["true", "false"],
    default: "true",
    description: "true (default): PUBLISHED only. false: also DRAFT and ARCHIVED. Any other value is a 400.",
  }),
});

/** GET /api/templates/{id}?version=n: a version other than the current one. */
export const TemplateDetailQuery = z.object({
  version: wholeNumber("version")
    .transform(Number)
    .pipe(z.number().int().min(1, "version must be at least 1"))
    .optional()
    .openapi({ type: "integer", minimum: 1, description: "Extension: a version other than the current one (GET /api/templates/{id}/versions lists them)." }),
});

const OptionInput = z.object({
  label: z.string().trim().min(1),
  value: z.string().trim().min(1),
  requiresNote: z.boolean().optional(),
  requiresPhoto: z.boolean().optional(),
  score: z
    .number()
    .min(-1e9, "score must be between -1000000000 and 1000000000")
    .max(1e9, "score must be between -1000000000 and 1000000000")
    .nullable()
    .optional()
    .openapi({
      description:
        "Extension: points for choosing it; null: not applicable (the question leaves the inspection's score). A question's maximum is the highest score among its options (docs/scoring.md).",
    }),
  flagged: z.boolean().optional().openapi({ description: "Extension: choosing it flags the answer (default false)." }),
});

const QuestionInput = z
  .object({
    key: z.string().trim().min(1).max(255).optional().openapi({ description: "Unique within the body; needed by questions that take part in a logic rule." }),
    text: z.string().trim().min(1),
    required: z.boolean().default(false),
    responseTypeId: z
      .string()
      .nullish()
      .openapi({ description: "Organization-defined response type. Its options are copied into the template with ids of their own." }),
    hint: z.string().nullish(),
    options: z
      .array(OptionInput)
      .min(1)
      .max(TEMPLATE_LIMITS.optionsPerQuestion, `a question has at most ${TEMPLATE_LIMITS.optionsPerQuestion} options`)
      .optional()
      .openapi({
        description:
          "Extension: inline options of a choice question; they replace the response type's options. Without responseTypeId the question is a SELECT.",
      }),
  })
  .openapi("TemplateQuestionInput");

const SectionInput = z
  .object({
    title: z.string().trim().min(1),
    description: z.string().nullish(),
    questions: z.array(QuestionInput).default([]),
  })
  .openapi("TemplateSectionInput");

/**
 * A leaf `{type, value?, sourceKey?}` or a group `{all: [...]}`, `{any: [...]}`, `{not: c}`, nested. The
 * nested conditions are checked by the logic engine at save time (every problem is a detail of the 400).
 */
const ConditionInput = z
  .object({
    type: z.string().optional().openapi({
      description:
        "A leaf's comparison: equals, is_not_equals, is_selected, is_not_selected, is_one_of, is_not_one_of, is_empty, is_not_empty, greater_than, less_than, greater_than_or_equal, less_than_or_equal, between, before, after, contains, not_contains, starts_with (docs/templates.md, Logic).",
    }),
    value: z.unknown().optional().openapi({
      description:
        "Compared value; for choice questions an option value or id. A list (or comma-separated string) for is_one_of / is_not_one_of; [low, high] for between.",
    }),
    sourceKey: z.string().optional().openapi({ description: "Extension: the question this leaf reads (default: the rule's sourceKey)." }),
    all: z.array(z.unknown()).optional().openapi({ description: "Extension: holds when every condition listed holds." }),
    any: z.array(z.unknown()).optional().openapi({ description: "Extension: holds when at least one condition listed holds." }),
    not: z.unknown().optional().openapi({ description: "Extension: holds when the condition given does not." }),
  })
  .openapi("TemplateCondition", { description: "Exactly one of type, all, any, not." });

const LogicRuleInput = z
  .object({
    sourceKey: z.string(),
    targetKey: z.string().optional().openapi({ description: "Required for ask_questions; for the answer rules the default is sourceKey." }),
    condition: ConditionInput,
    actionType: z.string().default("ask_questions").openapi({
      description: "ask_questions (show the target), or the extensions require_note, require_photo, require_action, flag (act on the target's answer).",
    }),
    order: z
      .number()
      .int()
      .min(RULE_ORDER_MIN, `order must be between ${RULE_ORDER_MIN} and ${RULE_ORDER_MAX}`)
      .max(RULE_ORDER_MAX, `order must be between ${RULE_ORDER_MIN} and ${RULE_ORDER_MAX}`)
      .optional(),
  })
  .openapi("TemplateLogicRuleInput");

export const CreateTemplateBody = z
  .object({
    createdBy: z
      .string()
      .optional()
      .openapi({ description: "User id in the caller's organization. Required with an API key; with a user token the caller is the creator." }),
    name: z.string().trim().min(1),
    type: z.enum(TEMPLATE_TYPES),
    description: z.string().nullish(),
    assetTypeId: z.string().nullish(),
    sections: z.array(SectionInput).max(TEMPLATE_LIMITS.sections, `a template has at most ${TEMPLATE_LIMITS.sections} sections`).default([]),
    questions: z
      .array(QuestionInput)
      .default([])
      .openapi({ description: "Standalone questions (outside any section). Deprecated by the spec, still accepted." }),
    logicRules: z.array(LogicRuleInput).max(TEMPLATE_LIMITS.logicRules, `a template has at most ${TEMPLATE_LIMITS.logicRules} logic rules`).default([]),
  })
  .superRefine((body, ctx) => {
    const count = body.sections.reduce((n, s) => n + s.questions.length, body.questions.length);
    if (count > TEMPLATE_LIMITS.questions) {
      ctx.addIssue({
        code: "custom",
        message: `a template has at most ${TEMPLATE_LIMITS.questions} questions (in sections and standalone together); this one has ${count}`,
      });
    }
  })
  .openapi("CreateTemplateRequest", {
    description: `At most ${TEMPLATE_LIMITS.sections} sections, ${TEMPLATE_LIMITS.questions} questions in all, ${TEMPLATE_LIMITS.optionsPerQuestion} inline options per question and ${TEMPLATE_LIMITS.logicRules} logic rules; every limit past is a 400 naming it. A template's options, inline and copied from response types together, have a limit too (docs/templates.md, Size limits).`,
  });
export type CreateTemplateBody = z.output<typeof CreateTemplateBody>;

// ---- responses ----

const QuestionRef = z.object({ id: z.string(), text: z.string(), position: z.number().int() });
const Condition = z
  .union([
    z.object({ type: z.string(), value: z.unknown(), sourceKey: z.string().optional() }),
    z.object({ all: z.array(z.unknown()) }),
    z.object({ any: z.array(z.unknown()) }),
    z.object({ not: z.unknown() }),
  ])
  .openapi({ description: "A leaf {type, value} as the spec shows it, or (extension) a group as it was saved." });

export const TemplateListItem = registry.register(
  "TemplateListItem",
  z.object({
    id: z.string(),
    title: z.string(),
    initialTitle: z.string().nullable(),
    type: z.enum(TEMPLATE_TYPES),
    status: z.enum(TEMPLATE_STATUSES),
    version: z.number().int(),
    isActive: z.boolean(),
    assetTypeId: z.string().nullable(),
    assetType: z.object({ id: z.string(), name: z.string() }).optional().openapi({ description: "Present only when an asset type is set." }),
    assetTypeMetadata: z.unknown().nullable().openapi({ description: "Named by the spec without a shape; always null here." }),
    organizationId: z.string(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    draftVersion: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Extension: the draft of the next version waiting to be published (POST /api/templates/{id}/publish), if any." }),
  }),
);

export const TemplateLogicRule = registry.register(
  "TemplateLogicRule",
  z.object({
    id: z.string(),
    order: z.number().int(),
    condition: Condition,
    actionType: z.string(),
    triggeredQuestionId: z.string(),
    triggeredQuestion: QuestionRef,
  }),
);

export const TemplateTriggerRule = registry.register(
  "TemplateTriggerRule",
  z.object({ id: z.string(), order: z.number().int(), condition: Condition, questionId: z.string(), question: QuestionRef }),
);

export const TemplateQuestion = registry.register(
  "TemplateQuestion",
  z.object({
    id: z.string(),
    key: z.string().nullable(),
    text: z.string(),
    hint: z.string().nullable(),
    required: z.boolean(),
    position: z.number().int(),
    responseType: z.object({ id: z.string(), name: z.string(), inputType: z.string(), uiLabel: z.string().nullable() }).nullable(),
    options: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        value: z.string(),
        position: z.number().int(),
        requiresNote: z.boolean().openapi({ description: "Extension: an answer selecting it must carry a note." }),
        requiresPhoto: z.boolean().openapi({ description: "Extension: an answer selecting it must carry media." }),
        score: z.number().nullable().optional().openapi({ description: "Extension: points for choosing it; null: not applicable; absent: no score." }),
        flagged: z.boolean().openapi({ description: "Extension: choosing it flags the answer." }),
      }),
    ),
    logicRules: z.array(TemplateLogicRule),
    triggerRule: TemplateTriggerRule.nullable().openapi({ description: "The first of triggerRules by order; null when the question is unconditional." }),
    triggerRules: z.array(TemplateTriggerRule).openapi({ description: "Extension: every rule that shows this question; it is shown when any of them holds." }),
  }),
);

export const TemplateSection = registry.register(
  "TemplateSection",
  z.object({ id: z.string(), title: z.string(), description: z.string().nullable(), position: z.number().int(), questions: z.array(TemplateQuestion) }),
);

export const TemplateDetail = registry.register(
  "TemplateDetail",
  TemplateListItem.extend({
    version: z.number().int().openapi({ description: "The version shown: the current one, or the one named by ?version." }),
    versionStatus: z.enum(VERSION_STATUSES).openapi({ description: "Extension: the shown version's own status." }),
    currentVersion: z.number().int().openapi({ description: "Extension: the version the list and a detail without ?version show." }),
    description: z.string().nullable(),
    sections: z.array(TemplateSection),
    standaloneQuestions: z.array(TemplateQuestion),
  }),
);

export const CreateTemplateResponse = registry.register(
  "CreateTemplateResponse",
  z.object({
    success: z.literal(true),
    message: z.string().openapi({ description: "Says how many logic rules were skipped and why, when any were." }),
    template: TemplateDetail,
    skippedRules: z
      .array(z.string())
      .openapi({ description: "Extension: one message per skipped logic rule (sourceKey or targetKey matching no question key)." }),
  }),
);

export const TemplateVersionSummary = registry.register(
  "TemplateVersionSummary",
  z.object({
    version: z.number().int(),
    status: z.enum(VERSION_STATUSES),
    title: z.string(),
    createdBy: z.string().nullable(),
    createdAt: isoTimestamp,
    publishedAt: isoTimestamp.nullable(),
    supersededAt: isoTimestamp.nullable(),
  }),
);

export const TemplateVersionList = registry.register("TemplateVersionList", z.object({ versions: z.array(TemplateVersionSummary) }));

/** POST /api/templates/{id}/versions: a full create-shaped body, or nothing (a copy of the current version). */
export const CreateVersionBody = CreateTemplateBody;

// ---- paths ----

export const listTemplatesOp = defineOperation({
  method: "get",
  path: "/api/templates",
  summary: "List templates of the caller's organization",
  description: "A plain array, newest first (id as tie-break).",
  auth: read,
  request: { query: TemplateListQuery },
  responses: { 200: { description: "Templates", content: { "application/json": { schema: z.array(TemplateListItem) } } }, ...errorResponses(400, 401, 429) },
});

export const getTemplateOp = defineOperation({
  method: "get",
  path: "/api/templates/{id}",
  summary: "Template with sections, questions, options and logic rules",
  description: "The current version by default; `?version=n` (extension) shows another one (404 when the template has no such version).",
  auth: read,
  request: { params: IdParam, query: TemplateDetailQuery },
  responses: {
    200: { description: "Template detail", content: { "application/json": { schema: TemplateDetail } } },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const createTemplateOp = defineOperation({
  method: "post",
  path: "/api/templates",
  summary: "Create a template (always DRAFT, version 1)",
  description:
    'With an API key `createdBy` is required and must be a user of the caller\'s organization. With a user token the caller must be an admin and is the creator. Logic rules are validated at save time: a rule whose sourceKey or targetKey matches no key is skipped (reported in `message`); any other problem is a 400 `{error: "Invalid template logic", details}`. 409 when the organization has TEMPLATE_VERSIONS_MAX_PER_ORG template versions already (every version of every template counts).',
  auth: write,
  // Parsed by the route (parseTemplateBody): the spec's two messages come before the schema's.
  validate: { body: false },
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateTemplateBody,
          example: {
            createdBy: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
            name: "Forklift daily check",
            type: "ASSET",
            sections: [
              {
                title: "Forks",
                questions: [
                  {
                    key: "forks_ok",
                    text: "Forks free of damage?",
                    required: true,
                    options: [
                      { label: "Yes", value: "yes", score: 1 },
                      { label: "No", value: "no", score: 0, flagged: true, requiresPhoto: true },
                      { label: "Not fitted", value: "na", score: null },
                    ],
                  },
                  { key: "load_kg", text: "Rated load (kg)", responseTypeId: "f1a2b3c4-5d6e-4f7a-8b9c-0d1e2f3a4b5c" },
                  { key: "damage", text: "Describe the damage", required: true, responseTypeId: "e0f1a2b3-4c5d-4e6f-9a7b-8c9d0e1f2a3b" },
                ],
              },
            ],
            logicRules: [
              { sourceKey: "forks_ok", targetKey: "damage", condition: { type: "equals", value: "no" }, actionType: "ask_questions" },
              {
                sourceKey: "forks_ok",
                targetKey: "damage",
                condition: {
                  all: [
                    { type: "equals", value: "no" },
                    { type: "greater_than", value: 2000, sourceKey: "load_kg" },
                  ],
                },
                actionType: "require_action",
              },
              { sourceKey: "load_kg", condition: { type: "between", value: [0, 500] }, actionType: "flag" },
            ],
          },
        },
      },
    },
  },
  responses: {
    200: { description: "Created", content: { "application/json": { schema: CreateTemplateResponse } } },
    ...errorResponses(400, 401, 403, 409, 429, 500),
  },
});

export const listVersionsOp = defineOperation({
  method: "get",
  path: "/api/templates/{id}/versions",
  summary: "Every version of a template with its status and times; extension",
  auth: read,
  request: { params: IdParam },
  responses: {
    200: { description: "Versions, oldest first", content: { "application/json": { schema: TemplateVersionList } } },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const createVersionOp = defineOperation({
  method: "post",
  path: "/api/templates/{id}/versions",
  summary: "Create the next version as a DRAFT; extension",
  description:
    "With a body in the create shape: the new version's content (validated like a create; `createdBy` optional). Without a body (or `{}`): a copy of the current version, every id kept. " +
    "A question with the same `key` as in the current version keeps its id, an option of a kept question with the same `value` keeps its id, a section with the same title keeps its id; everything else gets a new id. " +
    "Publish it with POST /api/templates/{id}/publish: it becomes the current version and new inspections use it; existing inspections keep theirs. One draft at a time: 409 when a draft exists, when version 1 is still a draft, or when the template is archived; 409 too when the organization has TEMPLATE_VERSIONS_MAX_PER_ORG versions already. API key or admin user.",
  auth: write,
  validate: { body: false },
  request: {
    params: IdParam,
    body: {
      required: false,
      content: {
        "application/json": {
          schema: CreateVersionBody,
          example: {
            name: "Forklift daily check",
            type: "ASSET",
            description: "Version 2: hydraulic hoses checked too",
            sections: [
              {
                title: "Forks",
                questions: [
                  {
                    key: "forks_ok",
                    text: "Forks free of damage and cracks?",
                    required: true,
                    options: [
                      { label: "Yes", value: "yes" },
                      { label: "No", value: "no", requiresPhoto: true },
                    ],
                  },
                  { key: "damage", text: "Describe the damage", required: true, responseTypeId: "e0f1a2b3-4c5d-4e6f-9a7b-8c9d0e1f2a3b" },
                ],
              },
              {
                title: "Hydraulics",
                questions: [
                  {
                    key: "hoses_ok",
                    text: "Hydraulic hoses free of leaks?",
                    required: true,
                    options: [
                      { label: "Yes", value: "yes" },
                      { label: "No", value: "no", requiresNote: true },
                    ],
                  },
                ],
              },
            ],
            logicRules: [{ sourceKey: "forks_ok", targetKey: "damage", condition: { type: "equals", value: "no" }, actionType: "ask_questions" }],
          },
        },
      },
    },
  },
  responses: {
    201: { description: "Created", content: { "application/json": { schema: CreateTemplateResponse } } },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

const statusOp = (action: "publish" | "archive", text: string) =>
  defineOperation({
    method: "post",
    path: `/api/templates/{id}/${action}`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a template; extension`,
    description: `${text} API key or admin user. Returns the template detail.`,
    auth: write,
    request: { params: IdParam },
    responses: {
      200: { description: "Template detail", content: { "application/json": { schema: TemplateDetail } } },
      ...errorResponses(401, 403, 404, 409, 429),
    },
  });
export const publishTemplateOp = statusOp(
  "publish",
  "The draft version becomes the current, PUBLISHED version (version 1 of a new template, or a version made with POST /versions; the version it replaces is SUPERSEDED). Already PUBLISHED without a draft: unchanged. An ARCHIVED template cannot be published: 409.",
);
export const archiveTemplateOp = statusOp("archive", "DRAFT or PUBLISHED -> ARCHIVED with isActive false (already ARCHIVED: unchanged).");
