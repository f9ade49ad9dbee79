/** Evaluation of one rule condition against the source question's answer. */
import type { AnswerInput, Condition, InputKind, LogicQuestion } from "./types.ts";
import { isConditionType } from "./types.ts";
import {
  answerBooleanValue,
  answerDateValue,
  answerNumeric,
  conditionList,
  hasValue,
  inputKind,
  isChoiceKind,
  optionMatches,
  parseBoolean,
  parseIsoDate,
  parseNumber,
  sameDate,
  scalarString,
  selectedOptions,
} from "./values.ts";

/** equals on one condition value, by the source's input kind. */
function valueEquals(kind: InputKind, q: LogicQuestion, a: AnswerInput, value: unknown): boolean {
  switch (kind) {
    case "select":
    case "multi":
      return selectedOptions(q, a).options.some((o) => optionMatches(o, value));
    case "number": {
      const want = parseNumber(value);
      const got = answerNumeric(a);
      return want !== null && got !== null && want === got;
    }
    case "boolean": {
      const want = parseBoolean(value, true);
      const got = answerBooleanValue(a);
      return want !== null && got !== null && want === got;
    }
    case "date": {
      const want = parseIsoDate(value);
      const got = answerDateValue(a);
      return want !== null && got !== null && sameDate(want, got);
    }
    case "text": {
      const want = scalarString(value);
      return want !== null && typeof a.answerText === "string" && a.answerText === want;
    }
  }
}

/** Sign of (answer - condition value) for NUMBER and DATE sources; null when not comparable. */
function compare(kind: InputKind, a: AnswerInput, value: unknown): number | null {
  if (kind === "number") {
    const want = parseNumber(value);
    const got = answerNumeric(a);
    return want === null || got === null ? null : Math.sign(got - want);
  }
  if (kind === "date") {
    const want = parseIsoDate(value);
    const got = answerDateValue(a);
    return want === null || got === null ? null : Math.sign(got.instant - want.instant);
  }
  return null;
}

/**
 * Whether one condition holds for the source question's answer (undefined = not answered).
 * On an unanswered source only `is_empty` holds. On an answered source every negative operator
 * is the exact complement of its positive one. Unknown condition types never hold.
 */
export function conditionHolds(condition: Condition, source: LogicQuestion, answer: AnswerInput | undefined): boolean {
  const type: unknown = condition !== null && typeof condition === "object" ? condition.type : undefined;
  const answered = hasValue(answer);
  if (type === "is_empty") return !answered;
  if (type === "is_not_empty") return answered;
  if (!answered || answer === undefined || !isConditionType(type)) return false;
  const kind = inputKind(source?.inputType);
  const q: LogicQuestion = { ...source, options: Array.isArray(source?.options) ? source.options : [] };
  const value = condition.value;
  const oneOf = (): boolean => conditionList(value).some((item) => valueEquals(kind, q, answer, item));
  const selected = (): boolean => isChoiceKind(kind) && valueEquals(kind, q, answer, value);
  switch (type) {
    case "equals":
      return valueEquals(kind, q, answer, value);
    case "is_not_equals":
      return !valueEquals(kind, q, answer, value);
    case "is_selected":
      return selected();
    case "is_not_selected":
      return !selected();
    case "is_one_of":
      return oneOf();
    case "is_not_one_of":
      return !oneOf();
    case "greater_than":
      return compare(kind, answer, value) === 1;
    case "less_than":
      return compare(kind, answer, value) === -1;
    default:
      return false;
  }
}
