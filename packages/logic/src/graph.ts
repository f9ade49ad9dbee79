/** Validation of a template's logic graph (used when a template is saved). */
import type { ConditionType, InputKind, LogicQuestion, LogicTemplate } from "./types.ts";
import type { ConditionNode, IndexedRule, TemplateIndex } from "./model.ts";
import { betweenBounds } from "./conditions.ts";
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

/** Condition values that do not fit the source's input kind (text operators: a text), with the reason. */
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
      if (type === "contains" || type === "not_contains" || type === "starts_with") {
        return {
          bad: values.filter((v) => {
            const t = scalarString(v);
            return t === null || t === "";
          }),
          why: "is not a text value",
        };
      }
      return { bad: values.filter((v) => scalarString(v) === null), why: "is not a text value" };
  }
}

/** Problems of one leaf condition reading `source`; `where` names the rule (and the question read when it is not the rule's source). */
function leafProblems(type: string, value: unknown, source: LogicQuestion, where: string): string[] {
  if (!isConditionType(type)) {
    const allowed = `allowed: ${CONDITION_TYPES.join(", ")}`;
    return [type === "" ? `Missing condition type ${where}; ${allowed}` : `Unknown condition type ${quote(type)} ${where}; ${allowed}`];
  }
  const kind = inputKind(source.inputType);
  if (!OPERATORS_BY_KIND[kind].includes(type)) return [`Condition ${quote(type)} cannot be used on ${typeName(source)} question ${name(source)}`];
  if (type === "is_empty" || type === "is_not_empty") return [];
  if (type === "between") {
    const bounds = betweenBounds(value);
    if (bounds === null || bounds.some(isMissing)) return [`Condition 'between' ${where} needs a list of two values [low, high]`];
    const { bad, why } = badValues(kind, type, source, bounds);
    if (bad.length > 0)
      return [
        `Condition 'between' ${where}: ${bad.length === 1 ? "value" : "values"} ${listValues(bad)} ${bad.length === 1 ? why : why.replace(/^is /, "are ")}`,
      ];
    const [low, high] = kind === "number" ? bounds.map((b) => parseNumber(b)!) : bounds.map((b) => parseIsoDate(b)!.instant);
    if (low! > high!) return [`Condition 'between' ${where}: bounds out of order, ${quote(show(bounds[0]))} is above ${quote(show(bounds[1]))}`];
    return [];
  }
  const values = type === "is_one_of" || type === "is_not_one_of" ? conditionList(value) : isMissing(value) ? [] : [value];
  if (values.length === 0) return [`Condition ${quote(type)} ${where} needs a value`];
  const { bad, why } = badValues(kind, type, source, values);
  if (bad.length > 0) {
    const label = bad.length === 1 ? "value" : "values";
    const verb = bad.length === 1 ? why : why.replace(/^is /, "are ");
    return [`Condition ${quote(type)} ${where}: ${label} ${listValues(bad)} ${verb}`];
  }
  return [];
}

/** Problems of one rule whose source and target both exist: its condition's leaves and groups. */
function ruleProblems(rule: IndexedRule, index: TemplateIndex): string[] {
  const source = index.byId.get(rule.sourceQuestionId)!;
  const target = index.byId.get(rule.targetQuestionId)!;
  const problems: string[] = [];
  const where = `in rule from ${name(source)} to ${name(target)}`;
  const shows = rule.action === "ask_questions";
  if (shows && source.id === target.id) problems.push(`Rule on question ${name(source)} targets its own source question`);
  const walk = (node: ConditionNode): void => {
    switch (node.kind) {
      case "invalid":
        problems.push(`Condition ${where}: ${node.problem}`);
        return;
      case "all":
      case "any":
        node.items.forEach(walk);
        return;
      case "not":
        walk(node.item);
        return;
      case "leaf": {
        if (node.source === null) {
          problems.push(`Condition ${where}: sourceKey ${quote(node.named ?? "")} matches no question key`);
          return;
        }
        const read = index.byId.get(node.source)!;
        if (shows && read.id === target.id && source.id !== target.id)
          problems.push(`Rule from ${name(source)} to ${name(target)} shows ${name(target)} on a condition that reads ${name(target)} itself`);
        const at = read.id === source.id ? where : `${where} (on question ${name(read)})`;
        problems.push(...leafProblems(node.type, node.value, read, at));
      }
    }
  };
  walk(rule.node);
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
  for (const rule of index.rules) problems.push(...ruleProblems(rule, index));
  const ids = index.questions.map((q) => q.id);
  const { cycles, truncated } = elementaryCycles(ids, (id) => index.successors.get(id) ?? [], MAX_REPORTED_CYCLES);
  for (const cycle of cycles) problems.push(`Logic cycle: ${cycle.map((id) => pathName(index.byId.get(id)!)).join(" -> ")}`);
  if (truncated) problems.push(`More logic cycles exist than the ${MAX_REPORTED_CYCLES} listed`);
  return problems;
}
