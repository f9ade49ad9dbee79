/** Evaluation of one rule condition against the source question's answer. */
import type { ConditionNode } from "./model.ts";
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
    case "after":
      return (type === "greater_than" || kind === "date") && compare(kind, answer, value) === 1;
    case "less_than":
    case "before":
      return (type === "less_than" || kind === "date") && compare(kind, answer, value) === -1;
    case "greater_than_or_equal": {
      const c = compare(kind, answer, value);
      return c === 0 || c === 1;
    }
    case "less_than_or_equal": {
      const c = compare(kind, answer, value);
      return c === 0 || c === -1;
    }
    case "between": {
      const bounds = betweenBounds(value);
      if (bounds === null) return false;
      const low = compare(kind, answer, bounds[0]);
      const high = compare(kind, answer, bounds[1]);
      return (low === 0 || low === 1) && (high === 0 || high === -1);
    }
    case "contains":
      return textIncludes(kind, answer, value, "contains");
    case "not_contains":
      return kind === "text" && !textIncludes(kind, answer, value, "contains");
    case "starts_with":
      return textIncludes(kind, answer, value, "starts");
    default:
      return false;
  }
}

/** The [low, high] of a between condition; null when it is not a list of two. */
export function betweenBounds(value: unknown): [unknown, unknown] | null {
  return Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : null;
}

/** Case-insensitive containment (or prefix) of a text condition value in a TEXT answer. */
function textIncludes(kind: InputKind, a: AnswerInput, value: unknown, how: "contains" | "starts"): boolean {
  const want = scalarString(value);
  if (kind !== "text" || want === null || typeof a.answerText !== "string") return false;
  const text = a.answerText.toLowerCase();
  const needle = want.toLowerCase();
  return how === "contains" ? text.includes(needle) : text.startsWith(needle);
}

/**
 * Whether a parsed condition holds. `answerOf` gives the answer to a question as the rule may read it
 * (undefined: not answered, or hidden: a hidden question's answer counts as none). A leaf that names
 * no question of the template, and a malformed condition, never hold; `not` holds where its
 * condition does not, whatever the reason.
 */
export function nodeHolds(node: ConditionNode, byId: ReadonlyMap<string, LogicQuestion>, answerOf: (questionId: string) => AnswerInput | undefined): boolean {
  switch (node.kind) {
    case "leaf": {
      if (node.source === null) return false;
      const condition: Condition = node.hasValue ? { type: node.type, value: node.value } : { type: node.type };
      return conditionHolds(condition, byId.get(node.source)!, answerOf(node.source));
    }
    case "all":
      return node.items.every((item) => nodeHolds(item, byId, answerOf));
    case "any":
      return node.items.some((item) => nodeHolds(item, byId, answerOf));
    case "not":
      return !nodeHolds(node.item, byId, answerOf);
    case "invalid":
      return false;
  }
}
