/** A sanitised, indexed view of a template shared by graph validation, visibility and answer checks. */
import type { LogicOption, LogicQuestion, LogicRule, LogicTemplate } from "./types.ts";
import { scalarString, show } from "./values.ts";

export interface TemplateIndex {
  /** Questions with a string id, first occurrence per id, in template order. */
  questions: LogicQuestion[];
  byId: Map<string, LogicQuestion>;
  /** Ids that occur on more than one question. */
  duplicateIds: string[];
  /** Rules whose source and target are both questions of the template (others are skipped). */
  rules: LogicRule[];
  rulesByTarget: Map<string, LogicRule[]>;
  /** Distinct successors per question id (rule source -> rule target), in rule order. */
  successors: Map<string, string[]>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object";
}

function sanitizeOption(o: unknown): LogicOption | null {
  if (!isObject(o) || typeof o.id !== "string") return null;
  // Never String() of an object: it throws when the object's toString is not callable ({"toString": 1}).
  const value = typeof o.value === "string" ? o.value : o.value === null || o.value === undefined ? "" : (scalarString(o.value) ?? show(o.value));
  return { id: o.id, value, label: typeof o.label === "string" ? o.label : value };
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
  const rules: LogicRule[] = [];
  const rulesByTarget = new Map<string, LogicRule[]>();
  const successors = new Map<string, string[]>();
  for (const raw of rawRules) {
    if (!isObject(raw)) continue;
    const source = raw.sourceQuestionId;
    const target = raw.targetQuestionId;
    if (typeof source !== "string" || typeof target !== "string" || !byId.has(source) || !byId.has(target)) continue;
    const condition = isObject(raw.condition) ? { type: typeof raw.condition.type === "string" ? raw.condition.type : "", value: raw.condition.value } : { type: "" };
    const rule: LogicRule = { id: typeof raw.id === "string" ? raw.id : "", sourceQuestionId: source, targetQuestionId: target, condition };
    rules.push(rule);
    const forTarget = rulesByTarget.get(target) ?? [];
    forTarget.push(rule);
    rulesByTarget.set(target, forTarget);
    const next = successors.get(source) ?? [];
    if (!next.includes(target)) next.push(target);
    successors.set(source, next);
  }
  return { questions, byId, duplicateIds, rules, rulesByTarget, successors };
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
