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
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];

/** A rule condition. `type` is checked, it may be unknown at save time. */
export interface Condition {
  type: string;
  value?: unknown;
}

export interface LogicOption {
  id: string;
  value: string;
  label: string;
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
  condition: Condition;
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
}

/** How a question's input type is treated by the engine. */
export type InputKind = "select" | "multi" | "text" | "number" | "date" | "boolean";

/** Operators a rule may use, by the input kind of its source question. */
export const OPERATORS_BY_KIND: Readonly<Record<InputKind, readonly ConditionType[]>> = {
  select: ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of", "is_empty", "is_not_empty"],
  multi: ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of", "is_empty", "is_not_empty"],
  text: ["equals", "is_not_equals", "is_one_of", "is_not_one_of", "is_empty", "is_not_empty"],
  number: ["equals", "is_not_equals", "is_one_of", "is_not_one_of", "greater_than", "less_than", "is_empty", "is_not_empty"],
  date: ["equals", "is_not_equals", "greater_than", "less_than", "is_empty", "is_not_empty"],
  boolean: ["equals", "is_not_equals", "is_empty", "is_not_empty"],
};

/** Operators that compare against the option values/ids of a choice source. */
export const CHOICE_VALUE_OPERATORS: readonly ConditionType[] = [
  "equals",
  "is_not_equals",
  "is_selected",
  "is_not_selected",
  "is_one_of",
  "is_not_one_of",
];

export function isConditionType(x: unknown): x is ConditionType {
  return typeof x === "string" && (CONDITION_TYPES as readonly string[]).includes(x);
}
