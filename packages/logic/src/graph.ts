/** Validation of a template's logic graph (used when a template is saved). */
import type { ConditionType, InputKind, LogicQuestion, LogicRule, LogicTemplate } from "./types.ts";
import { CHOICE_VALUE_OPERATORS, CONDITION_TYPES, OPERATORS_BY_KIND, isConditionType } from "./types.ts";
import { elementaryCycles } from "./cycles.ts";
import { indexTemplate, questionRef, quote } from "./model.ts";
import { conditionList, inputKind, isChoiceKind, optionName, parseBoolean, parseIsoDate, parseNumber, scalarString, show } from "./values.ts";

/** At most this many cycles are listed; one more message says when there are more. */
export const MAX_REPORTED_CYCLES = 50;

const name = (q: LogicQuestion): string => quote(questionRef(q));
/** In a cycle path a key is written bare, a keyless question by its quoted text. */
const pathName = (q: LogicQuestion): string => q.key ?? quote(questionRef(q));
const typeName = (q: LogicQuestion): string => q.inputType.trim().toUpperCase() || "TEXT";

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => quote(show(v))).join(", ");
}

/**
 * Option ids and values of a question, built once per question (indexTemplate makes fresh question
 * objects per call): a long is_one_of list is checked against a set, not by scanning the options.
 */
const namesOf = new WeakMap<LogicQuestion, Set<string>>();
function optionNames(q: LogicQuestion): Set<string> {
  let names = namesOf.get(q);
  if (names === undefined) {
    names = new Set<string>();
    for (const o of q.options) names.add(o.id).add(o.value);
    namesOf.set(q, names);
  }
  return names;
}

/** Condition values that do not fit the source's input kind, with the reason. */
function badValues(kind: InputKind, type: ConditionType, source: LogicQuestion, values: readonly unknown[]): { bad: unknown[]; why: string } {
  if (isChoiceKind(kind)) {
    const names = optionNames(source);
    const named = (v: unknown) => {
      const name = optionName(v);
      return name !== undefined && names.has(name);
    };
    const bad = CHOICE_VALUE_OPERATORS.includes(type) ? values.filter((v) => !named(v)) : [];
    const one = bad.length === 1;
    return { bad, why: `${one ? "matches" : "match"} no option value or id of question ${name(source)}` };
  }
  switch (kind) {
    case "number":
      return { bad: values.filter((v) => parseNumber(v) === null), why: "is not a number" };
    case "date":
      return { bad: values.filter((v) => parseIsoDate(v) === null), why: "is not an ISO 8601 date or date-time" };
    case "boolean":
      return { bad: values.filter((v) => parseBoolean(v, true) === null), why: "is not true, false, yes or no" };
    default:
      return { bad: values.filter((v) => scalarString(v) === null), why: "is not a text value" };
  }
}

/** Problems of one rule whose source and target both exist. */
function ruleProblems(rule: LogicRule, source: LogicQuestion, target: LogicQuestion): string[] {
  const problems: string[] = [];
  const where = `in rule from ${name(source)} to ${name(target)}`;
  if (source.id === target.id) problems.push(`Rule on question ${name(source)} targets its own source question`);
  const type = rule.condition.type;
  if (!isConditionType(type)) {
    const allowed = `allowed: ${CONDITION_TYPES.join(", ")}`;
    problems.push(type === "" ? `Missing condition type ${where}; ${allowed}` : `Unknown condition type ${quote(type)} ${where}; ${allowed}`);
    return problems;
  }
  const kind = inputKind(source.inputType);
  if (!OPERATORS_BY_KIND[kind].includes(type)) {
    problems.push(`Condition ${quote(type)} cannot be used on ${typeName(source)} question ${name(source)}`);
    return problems;
  }
  if (type === "is_empty" || type === "is_not_empty") return problems;
  const value = rule.condition.value;
  const values = type === "is_one_of" || type === "is_not_one_of" ? conditionList(value) : isMissing(value) ? [] : [value];
  if (values.length === 0) {
    problems.push(`Condition ${quote(type)} ${where} needs a value`);
    return problems;
  }
  const { bad, why } = badValues(kind, type, source, values);
  if (bad.length > 0) {
    const label = bad.length === 1 ? "value" : "values";
    const verb = bad.length === 1 ? why : why.replace(/^is /, "are ");
    problems.push(`Condition ${quote(type)} ${where}: ${label} ${listValues(bad)} ${verb}`);
  }
  return problems;
}

/** Problems of a template's logic graph, one readable message per problem; [] when valid. */
export function validateLogicGraph(t: LogicTemplate): string[] {
  const index = indexTemplate(t);
  const problems: string[] = [];
  for (const id of index.duplicateIds) problems.push(`Duplicate question id ${quote(id)}`);
  const keyCounts = new Map<string, number>();
  for (const q of index.questions) if (q.key !== null && q.key !== undefined) keyCounts.set(q.key, (keyCounts.get(q.key) ?? 0) + 1);
  for (const [key, count] of keyCounts) if (count > 1) problems.push(`Duplicate question key ${quote(key)}`);
  for (const rule of index.rules) {
    problems.push(...ruleProblems(rule, index.byId.get(rule.sourceQuestionId)!, index.byId.get(rule.targetQuestionId)!));
  }
  const ids = index.questions.map((q) => q.id);
  const { cycles, truncated } = elementaryCycles(ids, (id) => index.successors.get(id) ?? [], MAX_REPORTED_CYCLES);
  for (const cycle of cycles) problems.push(`Logic cycle: ${cycle.map((id) => pathName(index.byId.get(id)!)).join(" -> ")}`);
  if (truncated) problems.push(`More logic cycles exist than the ${MAX_REPORTED_CYCLES} listed`);
  return problems;
}
