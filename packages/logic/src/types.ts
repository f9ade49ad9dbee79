/** Public data shapes of the logic engine and the operator tables. */

export const CONDITION_TYPES = [
  "equals",
  "is_selected",
  "is_not_selected",
  "is_not_equals",
  "is_empty",
  "is_not_empty",
  "is_one_of",
  "is_not_one_of",
  "greater_than",
  "less_than",
  "greater_than_or_equal",
  "less_than_or_equal",
  "between",
  "contains",
  "not_contains",
  "starts_with",
  "before",
  "after",
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];

/**
 * A leaf condition. `type` is checked, it may be unknown at save time. A leaf reads the answer to the
 * rule's source question unless it names another one (by id, or by key as a template body does).
 */
export interface Condition {
  type: string;
  value?: unknown;
  sourceQuestionId?: string;
  sourceKey?: string;
}

/** A rule's condition: a leaf, or a group of conditions (nested as deep as needed). */
export type RuleCondition = Condition | { all: RuleCondition[] } | { any: RuleCondition[] } | { not: RuleCondition };

/** What a rule does when its condition holds. ask_questions (the default) shows its target; the others act on the target's answer. */
export const ACTION_TYPES = ["ask_questions", "require_note", "require_photo", "require_action", "flag"] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const isActionType = (x: unknown): x is ActionType => typeof x === "string" && (ACTION_TYPES as readonly string[]).includes(x);

export interface LogicOption {
  id: string;
  value: string;
  label: string;
  /** Points for choosing it: a number; null: not applicable (its question leaves the score); absent: no score. */
  score?: number | null;
  /** Choosing it flags the answer. */
  flagged?: boolean;
}

export interface LogicQuestion {
  id: string;
  key?: string | null;
  text: string;
  inputType: string;
  required: boolean;
  options: LogicOption[];
}

export interface LogicRule {
  id: string;
  sourceQuestionId: string;
  targetQuestionId: string;
  condition: RuleCondition;
  /** ask_questions when absent. */
  actionType?: string;
}

export interface LogicTemplate {
  questions: LogicQuestion[];
  rules: LogicRule[];
}

export interface AnswerInput {
  questionId: string;
  answerText?: string | null;
  answerNumber?: number | null;
  answerBoolean?: boolean | null;
  answerDate?: string | null;
  answerJson?: unknown;
  responseOptionId?: string | null;
  templateOptionId?: string | null;
  unitId?: string | null;
  unitCategory?: string | null;
  /** For the answer rules: require_note reads the note, require_photo and require_action the counts. */
  note?: string | null;
  imageCount?: number;
  actionCount?: number;
}

/** How a question's input type is treated by the engine. */
export type InputKind = "select" | "multi" | "text" | "number" | "date" | "boolean";

/** Operators a rule may use, by the input kind of its source question. */
export const OPERATORS_BY_KIND: Readonly<Record<InputKind, readonly ConditionType[]>> = {
  select: ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of", "is_empty", "is_not_empty"],
  multi: ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of", "is_empty", "is_not_empty"],
  text: ["equals", "is_not_equals", "is_one_of", "is_not_one_of", "contains", "not_contains", "starts_with", "is_empty", "is_not_empty"],
  number: [
    "equals",
    "is_not_equals",
    "is_one_of",
    "is_not_one_of",
    "greater_than",
    "less_than",
    "greater_than_or_equal",
    "less_than_or_equal",
    "between",
    "is_empty",
    "is_not_empty",
  ],
  date: [
    "equals",
    "is_not_equals",
    "greater_than",
    "less_than",
    "greater_than_or_equal",
    "less_than_or_equal",
    "between",
    "before",
    "after",
    "is_empty",
    "is_not_empty",
  ],
  boolean: ["equals", "is_not_equals", "is_empty", "is_not_empty"],
};

/** Operators that compare against the option values/ids of a choice source. */
export const CHOICE_VALUE_OPERATORS: readonly ConditionType[] = ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of"];

export function isConditionType(x: unknown): x is ConditionType {
  return typeof x === "string" && (CONDITION_TYPES as readonly string[]).includes(x);
}
