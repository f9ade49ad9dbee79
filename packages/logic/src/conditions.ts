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
  optionName,
  parseBoolean,
  parseIsoDate,
  parseNumber,
  sameDate,
  scalarString,
  selectedOptions,
} from "./values.ts";

/** Ids and values of the options a choice answer selects: a condition value matches when it names one. */
function selectedNames(q: LogicQuestion, a: AnswerInput): Set<string> {
  const names = new Set<string>();
  for (const o of selectedOptions(q, a).options) names.add(o.id).add(o.value);
  return names;
}

/**
 * equals on one condition value, by the source's input kind. `chosen` gives the selected names of a
 * choice answer, computed once per condition: is_one_of tests every listed value against it.
 */
function valueEquals(kind: InputKind, a: AnswerInput, value: unknown, chosen: () => ReadonlySet<string>): boolean {
  switch (kind) {
    case "select":
    case "multi": {
      const name = optionName(value);
      return name !== undefined && chosen().has(name);
    }
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
  let names: Set<string> | undefined;
  const chosen = (): ReadonlySet<string> => (names ??= selectedNames(q, answer));
  const equals = (v: unknown): boolean => valueEquals(kind, answer, v, chosen);
  const oneOf = (): boolean => conditionList(value).some(equals);
  const selected = (): boolean => isChoiceKind(kind) && equals(value);
  switch (type) {
    case "equals":
      return equals(value);
    case "is_not_equals":
      return !equals(value);
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
