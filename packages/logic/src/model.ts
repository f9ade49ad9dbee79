/** A sanitised, indexed view of a template shared by graph validation, visibility and answer checks. */
import type { LogicOption, LogicQuestion, LogicRule, LogicTemplate } from "./types.ts";
import { scalarString, show } from "./values.ts";

/** Deepest nesting of condition groups, and most leaves, one rule's condition may have. */
export const MAX_CONDITION_DEPTH = 16;
export const MAX_CONDITION_LEAVES = 200;

/**
 * A rule's condition, parsed: each leaf knows the question it reads (null: it names no question of
 * the template, so it never holds and validateLogicGraph reports it); a malformed shape is `invalid`.
 */
export type ConditionNode =
  | { kind: "leaf"; type: string; value: unknown; hasValue: boolean; source: string | null; named: string | null }
  | { kind: "all" | "any"; items: ConditionNode[] }
  | { kind: "not"; item: ConditionNode }
  | { kind: "invalid"; problem: string };

/** A rule whose source and target are questions of the template, with its condition parsed. */
export interface IndexedRule extends LogicRule {
  node: ConditionNode;
  action: string;
  /** Distinct questions the condition reads (the leaves' sources), known ones only. */
  reads: string[];
}

export interface TemplateIndex {
  /** Questions with a string id, first occurrence per id, in template order. */
  questions: LogicQuestion[];
  byId: Map<string, LogicQuestion>;
  /** Ids that occur on more than one question. */
  duplicateIds: string[];
  /** Rules whose source and target are both questions of the template (others are skipped), every action. */
  rules: IndexedRule[];
  /** ask_questions rules by target: they decide visibility. */
  rulesByTarget: Map<string, IndexedRule[]>;
  /** The other rules (require_note, require_photo, require_action, flag, and unknown actions, which do nothing). */
  answerRules: IndexedRule[];
  /** Distinct successors per question id (rule source and every question its condition reads -> the shown question), in rule order. */
  successors: Map<string, string[]>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object";
}

function sanitizeOption(o: unknown): LogicOption | null {
  if (!isObject(o) || typeof o.id !== "string") return null;
  // Never String() of an object: it throws when the object's toString is not callable ({"toString": 1}).
  const value = typeof o.value === "string" ? o.value : o.value === null || o.value === undefined ? "" : (scalarString(o.value) ?? show(o.value));
  const score = typeof o.score === "number" && Number.isFinite(o.score) ? o.score : o.score === null ? null : undefined;
  return { id: o.id, value, label: typeof o.label === "string" ? o.label : value, ...(score !== undefined ? { score } : {}), flagged: o.flagged === true };
}

function sanitizeQuestion(q: unknown): LogicQuestion | null {
  if (!isObject(q) || typeof q.id !== "string") return null;
  const options = Array.isArray(q.options) ? q.options.map(sanitizeOption).filter((o): o is LogicOption => o !== null) : [];
  return {
    id: q.id,
    key: typeof q.key === "string" && q.key !== "" ? q.key : null,
    text: typeof q.text === "string" ? q.text : "",
    inputType: typeof q.inputType === "string" ? q.inputType : "",
    required: q.required === true,
    options,
  };
}

export function indexTemplate(t: LogicTemplate): TemplateIndex {
  const rawQuestions: unknown[] = isObject(t) && Array.isArray(t.questions) ? t.questions : [];
  const rawRules: unknown[] = isObject(t) && Array.isArray(t.rules) ? t.rules : [];
  const questions: LogicQuestion[] = [];
  const byId = new Map<string, LogicQuestion>();
  const duplicateIds: string[] = [];
  for (const raw of rawQuestions) {
    const q = sanitizeQuestion(raw);
    if (q === null) continue;
    if (byId.has(q.id)) {
      if (!duplicateIds.includes(q.id)) duplicateIds.push(q.id);
      continue;
    }
    byId.set(q.id, q);
    questions.push(q);
  }
  const byKey = new Map<string, string>();
  for (const q of questions) if (q.key !== null && q.key !== undefined && !byKey.has(q.key)) byKey.set(q.key, q.id);
  const rules: IndexedRule[] = [];
  const answerRules: IndexedRule[] = [];
  const rulesByTarget = new Map<string, IndexedRule[]>();
  const successors = new Map<string, string[]>();
  const edge = (source: string, target: string) => {
    const next = successors.get(source) ?? [];
    if (!next.includes(target)) next.push(target);
    successors.set(source, next);
  };
  for (const raw of rawRules) {
    if (!isObject(raw)) continue;
    const source = raw.sourceQuestionId;
    const target = raw.targetQuestionId;
    if (typeof source !== "string" || typeof target !== "string" || !byId.has(source) || !byId.has(target)) continue;
    const node = parseCondition(raw.condition, source, byId, byKey);
    const action = raw.actionType === undefined || raw.actionType === null ? "ask_questions" : typeof raw.actionType === "string" ? raw.actionType : "";
    const reads = new Set<string>([source]);
    leavesOf(node, (leaf) => {
      if (leaf.source !== null) reads.add(leaf.source);
    });
    const rule: IndexedRule = {
      id: typeof raw.id === "string" ? raw.id : "",
      sourceQuestionId: source,
      targetQuestionId: target,
      condition: raw.condition as LogicRule["condition"],
      actionType: action,
      node,
      action,
      reads: [...reads],
    };
    rules.push(rule);
    if (action !== "ask_questions") {
      answerRules.push(rule);
      continue;
    }
    const forTarget = rulesByTarget.get(target) ?? [];
    forTarget.push(rule);
    rulesByTarget.set(target, forTarget);
    for (const from of rule.reads) edge(from, target);
  }
  return { questions, byId, duplicateIds, rules, rulesByTarget, answerRules, successors };
}

/** How a question is named in graph messages: its key, else its text (else its id). */
export function questionRef(q: LogicQuestion): string {
  return q.key ?? (q.text !== "" ? q.text : q.id);
}

/** The question's text, falling back to key then id, for inspection messages. */
export function questionLabel(q: LogicQuestion): string {
  return q.text !== "" ? q.text : (q.key ?? q.id);
}

export function quote(s: string): string {
  return `'${s}'`;
}

/** Calls `visit` on every leaf of a condition. */
function leavesOf(node: ConditionNode, visit: (leaf: Extract<ConditionNode, { kind: "leaf" }>) => void): void {
  if (node.kind === "leaf") visit(node);
  else if (node.kind === "all" || node.kind === "any") for (const item of node.items) leavesOf(item, visit);
  else if (node.kind === "not") leavesOf(node.item, visit);
}

/**
 * Parses a rule's condition: a leaf `{type, value?, sourceKey? | sourceQuestionId?}` (reading the rule's
 * source unless it names another question), or `{all: [...]}`, `{any: [...]}`, `{not: c}`. Never throws.
 */
export function parseCondition(raw: unknown, ruleSource: string, byId: ReadonlyMap<string, LogicQuestion>, byKey: ReadonlyMap<string, string>): ConditionNode {
  let leaves = 0;
  const parse = (c: unknown, depth: number): ConditionNode => {
    // At the top, anything without a form is a leaf without a type ("Missing condition type").
    const bare = !isObject(c) || Array.isArray(c) || !["type", "all", "any", "not"].some((k) => Object.hasOwn(c, k));
    if (bare && depth === 1)
      return {
        kind: "leaf",
        type: "",
        value: isObject(c) ? c.value : undefined,
        hasValue: isObject(c) && Object.hasOwn(c, "value"),
        source: ruleSource,
        named: null,
      };
    if (!isObject(c) || Array.isArray(c)) return { kind: "invalid", problem: `a condition must be an object, got ${show(c)}` };
    if (depth > MAX_CONDITION_DEPTH) return { kind: "invalid", problem: `conditions may be nested at most ${MAX_CONDITION_DEPTH} deep` };
    const forms = (["type", "all", "any", "not"] as const).filter((k) => Object.hasOwn(c, k));
    if (forms.length !== 1) {
      return {
        kind: "invalid",
        problem:
          forms.length === 0
            ? "a condition needs a type, or one of all, any, not"
            : `a condition has exactly one of type, all, any, not; got ${forms.join(", ")}`,
      };
    }
    const form = forms[0]!;
    if (form === "all" || form === "any") {
      const items = c[form];
      if (!Array.isArray(items) || items.length === 0) return { kind: "invalid", problem: `'${form}' needs a list of at least one condition` };
      return { kind: form, items: items.map((item) => parse(item, depth + 1)) };
    }
    if (form === "not") return { kind: "not", item: parse(c.not, depth + 1) };
    if (++leaves > MAX_CONDITION_LEAVES) return { kind: "invalid", problem: `a rule's condition has at most ${MAX_CONDITION_LEAVES} leaves` };
    const type = typeof c.type === "string" ? c.type : "";
    let source: string | null = ruleSource;
    let named: string | null = null;
    if (c.sourceQuestionId !== undefined) {
      named = typeof c.sourceQuestionId === "string" ? c.sourceQuestionId : show(c.sourceQuestionId);
      source = typeof c.sourceQuestionId === "string" && byId.has(c.sourceQuestionId) ? c.sourceQuestionId : null;
    } else if (c.sourceKey !== undefined) {
      named = typeof c.sourceKey === "string" ? c.sourceKey : show(c.sourceKey);
      source = typeof c.sourceKey === "string" ? (byKey.get(c.sourceKey) ?? null) : null;
    }
    return { kind: "leaf", type, value: c.value, hasValue: Object.hasOwn(c, "value"), source, named };
  };
  return parse(raw, 1);
}
