import { randomUUID } from "node:crypto";
import { ACTION_TYPES, inputKind, validateLogicGraph, type LogicTemplate, type RuleCondition } from "@insp/logic";
import { AppError, badRequest } from "../errors.ts";
import type { CreateTemplateInput, QuestionInput, TemplateOption } from "./types.ts";

/**
 * Turns a create body into the rows of a new template, in memory and with their final ids,
 * and validates it before anything is written (pure: response types are passed in).
 */

export interface ResponseTypeInfo {
  id: string;
  name: string;
  inputType: string;
  /** Archived (PATCH /api/response-types/{id}): templates saved before keep it; a new save may not name it. */
  archived?: boolean;
  options: { id: string; label: string; value: string; position: number; requiresNote: boolean; requiresPhoto: boolean }[];
}

/** An option as it will be stored: the same shape the detail serves. */
type PlannedOption = TemplateOption;

interface PlannedQuestion {
  id: string;
  sectionId: string | null;
  key: string | null;
  text: string;
  hint: string | null;
  required: boolean;
  position: number;
  responseTypeId: string | null;
  inputType: string;
  options: PlannedOption[];
}

interface PlannedRule {
  id: string;
  sourceQuestionId: string;
  targetQuestionId: string;
  conditionType: string;
  conditionValue: unknown;
  actionType: string;
  order: number;
}

export interface TemplatePlan {
  sections: { id: string; title: string; description: string | null; position: number }[];
  questions: PlannedQuestion[];
  rules: PlannedRule[];
  /** One message per skipped rule (spec rule 5), e.g. "sourceKey 'x' matches no question key". */
  skipped: { index: number; reason: string }[];
}

const SUPPORTED_ACTION_TYPES = ACTION_TYPES;

/** conditionType of a rule whose condition is a group, or a leaf reading another question: conditionValue holds it as saved. */
export const GROUP_CONDITION = "group";

/**
 * Ids of the version a new version is made from, so that what is kept keeps its id: a question
 * with the same key, an option of a kept question with the same value, a section with the same
 * title (the first one not yet taken, in order). Everything else gets a new id; rules always do.
 */
export interface KeptIds {
  questionByKey: ReadonlyMap<string, string>;
  /** `optionKey(questionId, value)` -> option id */
  optionByValue: ReadonlyMap<string, string>;
  sectionsByTitle: ReadonlyMap<string, readonly string[]>;
}

export const optionKey = (questionId: string, value: string) => `${questionId}\u0000${value}`;

/**
 * Options of one template, inline and copied from response types together. The request's own limits
 * (sections, questions, inline options per question, rules) are the contract's TEMPLATE_LIMITS; this
 * one needs the response types, so it is checked here.
 */
const MAX_TEMPLATE_OPTIONS = 20_000;

const q = (s: string) => `'${s}'`;

/**
 * The plan of a template, in four phases: every question located with its section, the
 * response types checked, the questions with their options, then the rules bound to them and
 * the whole logic checked. Ids are taken in that order (kept ones first, else `newId`).
 */
export function planTemplate(
  input: CreateTemplateInput,
  responseTypes: ReadonlyMap<string, ResponseTypeInfo>,
  newId: () => string = randomUUID,
  kept?: KeptIds,
): TemplatePlan {
  const ids = idKeeper(kept, newId);
  const { sections, located } = locateQuestions(input, ids);
  checkResponseTypes(located, responseTypes);
  const { questions, copiedIds } = planQuestions(located, responseTypes, ids);
  const { rules, skipped, logicProblems } = planRules(input.logicRules, questions, copiedIds, newId);
  logicProblems.push(...validateLogicGraph(logicGraph(questions, rules)));
  if (logicProblems.length > 0) throw badRequest("Invalid template logic", logicProblems);
  return { sections, questions, rules, skipped };
}

type Located = { at: string; sectionId: string | null; position: number; input: QuestionInput };
type IdKeeper = ReturnType<typeof idKeeper>;

/** Ids of a new version: the kept ones of the version it replaces where they match (KeptIds), else new ones. */
function idKeeper(kept: KeptIds | undefined, newId: () => string) {
  const sectionsTaken = new Map<string, number>();
  const keysTaken = new Set<string>();
  return {
    /** The n-th section with this title takes the n-th kept one. */
    section(title: string): string {
      const n = sectionsTaken.get(title) ?? 0;
      sectionsTaken.set(title, n + 1);
      return kept?.sectionsByTitle.get(title)?.[n] ?? newId();
    },
    question(key: string | undefined): string {
      // A duplicate key is reported by the logic check; it gets an id of its own.
      if (key === undefined || keysTaken.has(key)) return newId();
      keysTaken.add(key);
      return kept?.questionByKey.get(key) ?? newId();
    },
    /** The kept id of a question's option by value, once per question (a repeated value gets a new id). */
    optionIds(questionId: string): (value: string) => string {
      const used = new Set<string>();
      return (value: string) => {
        const id = used.has(value) ? undefined : kept?.optionByValue.get(optionKey(questionId, value));
        used.add(value);
        return id ?? newId();
      };
    },
  };
}

/** Sections with their ids, and every question with where it is: section questions first, then the top-level ones. */
function locateQuestions(input: CreateTemplateInput, ids: IdKeeper): { sections: TemplatePlan["sections"]; located: Located[] } {
  const located: Located[] = [];
  const sections = input.sections.map((s, i) => {
    const id = ids.section(s.title);
    s.questions.forEach((qi, p) => located.push({ at: `sections[${i}].questions[${p}]`, sectionId: id, position: p, input: qi }));
    return { id, title: s.title, description: s.description ?? null, position: i };
  });
  input.questions.forEach((qi, p) => located.push({ at: `questions[${p}]`, sectionId: null, position: p, input: qi }));
  return { sections, located };
}

function checkResponseTypes(located: Located[], responseTypes: ReadonlyMap<string, ResponseTypeInfo>): void {
  const unknown = located.filter((l) => l.input.responseTypeId && !responseTypes.has(l.input.responseTypeId));
  if (unknown.length === 0) {
    const archived = located.filter((l) => l.input.responseTypeId && responseTypes.get(l.input.responseTypeId)?.archived);
    if (archived.length)
      throw new AppError(
        "invalid",
        `Archived responseTypeId: ${[...new Set(archived.map((l) => q(l.input.responseTypeId!)))].join(", ")}`,
        archived.map((l) => `${l.at}.responseTypeId: ${q(l.input.responseTypeId!)} is archived; choose another response type or restore it`),
      );
    return;
  }
  const ids = [...new Set(unknown.map((l) => l.input.responseTypeId!))];
  throw new AppError(
    "invalid",
    `Unknown responseTypeId: ${ids.map(q).join(", ")}`,
    unknown.map((l) => `${l.at}.responseTypeId: ${q(l.input.responseTypeId!)} is not a response type of your organization`),
  );
}

/**
 * Each question with its options: inline ones (choice questions only, values unique), or copies
 * of its response type's. `copiedIds`, per question, maps a response-type option id to its copy's,
 * so rules may name either.
 */
function planQuestions(
  located: Located[],
  responseTypes: ReadonlyMap<string, ResponseTypeInfo>,
  ids: IdKeeper,
): { questions: PlannedQuestion[]; copiedIds: Map<string, Map<string, string>> } {
  const optionProblems: string[] = [];
  const copiedIds = new Map<string, Map<string, string>>();
  const questions: PlannedQuestion[] = located.map((l) => {
    const rt = l.input.responseTypeId ? responseTypes.get(l.input.responseTypeId)! : null;
    const inputType = rt?.inputType ?? (l.input.options ? "SELECT" : "TEXT");
    const id = ids.question(l.input.key);
    const optionId = ids.optionIds(id);
    let options: PlannedOption[];
    if (l.input.options) {
      optionProblems.push(...inlineOptionProblems(l, rt, inputType));
      options = l.input.options.map((o, i) => ({
        id: optionId(o.value),
        label: o.label,
        value: o.value,
        position: i,
        requiresNote: o.requiresNote ?? false,
        requiresPhoto: o.requiresPhoto ?? false,
        ...(o.score !== undefined ? { score: o.score } : {}),
        flagged: o.flagged ?? false,
      }));
    } else {
      const copies = new Map<string, string>();
      options = (rt?.options ?? []).map((o) => {
        const copy = { ...o, id: optionId(o.value), flagged: false };
        copies.set(o.id, copy.id);
        return copy;
      });
      copiedIds.set(id, copies);
    }
    const { key, text, hint, required } = l.input;
    return {
      id,
      sectionId: l.sectionId,
      key: key ?? null,
      text,
      hint: hint ?? null,
      required,
      position: l.position,
      responseTypeId: rt?.id ?? null,
      inputType,
      options,
    };
  });
  if (optionProblems.length > 0) throw badRequest("Invalid question options", optionProblems);
  const optionCount = questions.reduce((n, question) => n + question.options.length, 0);
  if (optionCount > MAX_TEMPLATE_OPTIONS) {
    throw badRequest("Template too large", [
      `a template has at most ${MAX_TEMPLATE_OPTIONS} options (inline and copied from response types together); this one has ${optionCount}`,
    ]);
  }
  return { questions, copiedIds };
}

/** Inline options are for choice questions only, with values unique within the question. */
function inlineOptionProblems(l: Located, rt: ResponseTypeInfo | null, inputType: string): string[] {
  const problems: string[] = [];
  const kind = inputKind(inputType);
  if (kind !== "select" && kind !== "multi")
    problems.push(`${l.at}.options: options are only allowed on choice questions; response type ${q(rt!.name)} is ${inputType}`);
  const seen = new Set<string>();
  for (const o of l.input.options ?? []) {
    if (seen.has(o.value)) problems.push(`${l.at}.options: duplicate option value ${q(o.value)}`);
    seen.add(o.value);
  }
  return problems;
}

/**
 * The rules bound to their questions by key (the first question with a key: duplicate keys are
 * reported by validateLogicGraph). A rule naming no question is skipped with the reason; one that
 * cannot be right whatever the questions are is a problem.
 */
function planRules(
  logicRules: CreateTemplateInput["logicRules"],
  questions: PlannedQuestion[],
  copiedIds: ReadonlyMap<string, ReadonlyMap<string, string>>,
  newId: () => string,
): { rules: PlannedRule[]; skipped: TemplatePlan["skipped"]; logicProblems: string[] } {
  const byKey = new Map<string, PlannedQuestion>();
  for (const question of questions) if (question.key !== null && !byKey.has(question.key)) byKey.set(question.key, question);
  const rules: PlannedRule[] = [];
  const skipped: TemplatePlan["skipped"] = [];
  const logicProblems: string[] = [];
  const perSource = new Map<string, number>();
  logicRules.forEach((r, index) => {
    const asks = r.actionType === "ask_questions";
    // The answer rules act on their source's own answer unless they name another question.
    const targetKey = r.targetKey ?? (asks ? undefined : r.sourceKey);
    if (targetKey === undefined) {
      logicProblems.push(`logicRules[${index}]: targetKey is required for ask_questions rules (the question the rule shows)`);
      return;
    }
    const source = byKey.get(r.sourceKey);
    const target = byKey.get(targetKey);
    if (!source || !target) {
      const reason =
        !source && !target
          ? `sourceKey ${q(r.sourceKey)} and targetKey ${q(targetKey)} match no question key`
          : !source
            ? `sourceKey ${q(r.sourceKey)} matches no question key`
            : `targetKey ${q(targetKey)} matches no question key`;
      skipped.push({ index, reason });
      return;
    }
    if (!(SUPPORTED_ACTION_TYPES as readonly string[]).includes(r.actionType)) {
      logicProblems.push(
        `Unsupported actionType ${q(r.actionType)} in rule from ${q(r.sourceKey)} to ${q(targetKey)}; supported: ${SUPPORTED_ACTION_TYPES.join(", ")}`,
      );
    }
    const nth = perSource.get(source.id) ?? 0;
    perSource.set(source.id, nth + 1);
    const condition = savedCondition(r.condition, source.id, (key) => byKey.get(key)?.id, copiedIds);
    const isLeaf = "type" in condition && condition.sourceKey === undefined;
    rules.push({
      id: newId(),
      sourceQuestionId: source.id,
      targetQuestionId: target.id,
      conditionType: isLeaf ? condition.type : GROUP_CONDITION,
      conditionValue: isLeaf ? condition.value : condition,
      actionType: r.actionType,
      order: r.order ?? nth,
    });
  });
  return { rules, skipped, logicProblems };
}

/** The planned questions and rules as the logic engine reads them. */
function logicGraph(questions: PlannedQuestion[], rules: PlannedRule[]): LogicTemplate {
  return {
    questions: questions.map((x) => ({ id: x.id, key: x.key, text: x.text, inputType: x.inputType, required: x.required, options: x.options })),
    rules: rules.map((r) => ({
      id: r.id,
      sourceQuestionId: r.sourceQuestionId,
      targetQuestionId: r.targetQuestionId,
      condition: storedCondition(r.conditionType, r.conditionValue),
      actionType: r.actionType,
    })),
  };
}

/** A rule's condition for the logic engine from its stored columns (a group is kept whole in conditionValue). */
export function storedCondition(conditionType: string, conditionValue: unknown): RuleCondition {
  if (conditionType === GROUP_CONDITION) return conditionValue as RuleCondition;
  return conditionValue === null || conditionValue === undefined ? { type: conditionType } : { type: conditionType, value: conditionValue };
}

type SavedCondition = { type: string; value?: unknown; sourceKey?: string } | { all: unknown[] } | { any: unknown[] } | { not: unknown };

/**
 * A condition as it is stored and shown: only the known keys of each leaf and group kept (anything
 * else in a body is dropped, as the schema drops it at the top), a leaf's value naming a copied
 * response-type option rewritten to its copy's id (remapOptionIds), and malformed parts kept as
 * they are for the logic engine to report.
 */
function savedCondition(
  c: unknown,
  ruleSource: string,
  idOfKey: (key: string) => string | undefined,
  copiedIds: ReadonlyMap<string, ReadonlyMap<string, string>>,
  depth = 0,
): SavedCondition {
  if (c === null || typeof c !== "object" || Array.isArray(c) || depth > 64) return c as SavedCondition;
  const o = c as Record<string, unknown>;
  const forms = ["type", "all", "any", "not"].filter((k) => Object.hasOwn(o, k));
  if (forms.length !== 1) return o as SavedCondition;
  const nested = (x: unknown) => savedCondition(x, ruleSource, idOfKey, copiedIds, depth + 1);
  if (forms[0] === "all" || forms[0] === "any")
    return (Array.isArray(o[forms[0]]) ? { [forms[0]]: (o[forms[0]] as unknown[]).map(nested) } : o) as SavedCondition;
  if (forms[0] === "not") return { not: nested(o.not) };
  const sourceKey = typeof o.sourceKey === "string" ? o.sourceKey : undefined;
  const reads = sourceKey === undefined ? ruleSource : idOfKey(sourceKey);
  const leaf: { type: string; value?: unknown; sourceKey?: string } = { type: o.type as string };
  if (Object.hasOwn(o, "value")) leaf.value = remapOptionIds(o.value, reads === undefined ? undefined : copiedIds.get(reads));
  if (o.sourceKey !== undefined) leaf.sourceKey = o.sourceKey as string;
  return leaf;
}

/**
 * A client cannot know the ids of options copied at save time, only those of the response
 * type: a condition naming a response-type option id is rewritten to the id of its copy.
 */
export function remapOptionIds(value: unknown, ids: ReadonlyMap<string, string> | undefined): unknown {
  if (!ids || ids.size === 0) return value;
  const one = (v: unknown) => (typeof v === "string" && ids.has(v.trim()) ? ids.get(v.trim())! : v);
  if (Array.isArray(value)) return value.map(one);
  if (typeof value === "string" && value.includes(",")) {
    const parts = value.split(",").map((s) => s.trim());
    return parts.some((p) => ids.has(p)) ? parts.map(one).join(",") : value;
  }
  return one(value);
}

/** "Template created as DRAFT", plus how many rules were skipped and why. */
export function createdMessage(skipped: TemplatePlan["skipped"]): string {
  if (skipped.length === 0) return "Template created as DRAFT";
  const n = skipped.length;
  return `Template created as DRAFT; ${n} logic rule${n === 1 ? "" : "s"} skipped: ${skipped.map((s) => s.reason).join("; ")}`;
}
