/** Shapes of templates as the API serves them (spec: "Template (list item)", "Template (detail)"). */

export type TemplateType = "ASSET" | "AUDIT";
export type TemplateStatus = "DRAFT" | "PUBLISHED" | "ARCHIVED";
/** A version's own status: SUPERSEDED was published, then replaced by a later version. */
export type VersionStatus = "DRAFT" | "PUBLISHED" | "SUPERSEDED";

export interface TemplateListItem {
  id: string;
  title: string;
  initialTitle: string | null;
  type: TemplateType;
  status: TemplateStatus;
  version: number;
  isActive: boolean;
  assetTypeId: string | null;
  /** Present only when an asset type is set. */
  assetType?: { id: string; name: string };
  assetTypeMetadata: unknown;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
  /** The draft version waiting to be published, if any (extension). */
  draftVersion: number | null;
}

export interface QuestionRef {
  id: string;
  text: string;
  position: number;
}

/** A leaf {type, value} as the spec shows it, or a group ({all}, {any}, {not}, leaves with sourceKey) as saved. */
export type RuleCondition = { type: string; value: unknown; sourceKey?: string } | { all: unknown[] } | { any: unknown[] } | { not: unknown };

interface TemplateLogicRule {
  id: string;
  order: number;
  condition: RuleCondition;
  actionType: string;
  triggeredQuestionId: string;
  triggeredQuestion: QuestionRef;
}

export interface TemplateTriggerRule {
  id: string;
  order: number;
  condition: RuleCondition;
  questionId: string;
  question: QuestionRef;
}

export interface TemplateOption {
  id: string;
  label: string;
  value: string;
  position: number;
  requiresNote: boolean;
  requiresPhoto: boolean;
  /** Points for choosing it; null: not applicable; absent: no score (docs/scoring.md). */
  score?: number | null;
  flagged: boolean;
}

export interface TemplateQuestion {
  id: string;
  key: string | null;
  text: string;
  hint: string | null;
  required: boolean;
  position: number;
  responseType: { id: string; name: string; inputType: string; uiLabel: string | null } | null;
  options: TemplateOption[];
  logicRules: TemplateLogicRule[];
  /** The first of triggerRules (by order, then id); null when unconditional. */
  triggerRule: TemplateTriggerRule | null;
  /** Every rule that shows this question: shown when any holds (extension). */
  triggerRules: TemplateTriggerRule[];
}

interface TemplateSection {
  id: string;
  title: string;
  description: string | null;
  position: number;
  questions: TemplateQuestion[];
}

export interface TemplateDetail extends TemplateListItem {
  /** The shown version's own status (extension). */
  versionStatus: VersionStatus;
  /** The version the list and a detail without ?version show (extension). */
  currentVersion: number;
  description: string | null;
  sections: TemplateSection[];
  standaloneQuestions: TemplateQuestion[];
}

/** One entry of GET /api/templates/{id}/versions. */
export interface TemplateVersionSummary {
  version: number;
  status: VersionStatus;
  title: string;
  createdBy: string | null;
  createdAt: string;
  publishedAt: string | null;
  supersededAt: string | null;
}

/** Input of createTemplate, as validated by the contract (CreateTemplateBody) minus createdBy. */
export interface QuestionInput {
  key?: string | undefined;
  text: string;
  required: boolean;
  responseTypeId?: string | null | undefined;
  hint?: string | null | undefined;
  options?:
    | {
        label: string;
        value: string;
        requiresNote?: boolean | undefined;
        requiresPhoto?: boolean | undefined;
        score?: number | null | undefined;
        flagged?: boolean | undefined;
      }[]
    | undefined;
}

export interface CreateTemplateInput {
  name: string;
  type: TemplateType;
  description?: string | null | undefined;
  assetTypeId?: string | null | undefined;
  sections: { title: string; description?: string | null | undefined; questions: QuestionInput[] }[];
  questions: QuestionInput[];
  logicRules: {
    sourceKey: string;
    /** Required for ask_questions; the answer rules default to sourceKey. */
    targetKey?: string | undefined;
    condition: {
      type?: string | undefined;
      value?: unknown;
      sourceKey?: string | undefined;
      all?: unknown[] | undefined;
      any?: unknown[] | undefined;
      not?: unknown;
    };
    actionType: string;
    order?: number | undefined;
  }[];
}
