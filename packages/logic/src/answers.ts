/** Checks of an inspection's answers against its template (used when an inspection is imported). */
import type { AnswerInput, LogicQuestion, LogicTemplate } from "./types.ts";
import type { TemplateIndex } from "./model.ts";
import type { Visibility } from "./visibility.ts";
import { indexTemplate, questionLabel, quote } from "./model.ts";
import { computeVisibility } from "./visibility.ts";
import { answerNumeric, hasValue, inputKind, parseBoolean, parseIsoDate, selectedOptions, show } from "./values.ts";

const name = (q: LogicQuestion): string => quote(questionLabel(q));

/** Message when the answer's value does not fit the question's input type, else null. */
export function checkAnswerValue(q: LogicQuestion, a: AnswerInput): string | null {
  if (q === null || typeof q !== "object" || a === null || typeof a !== "object") return null;
  const question: LogicQuestion = { ...q, options: Array.isArray(q.options) ? q.options : [] };
  const label = name(question);
  if (a.answerDate !== null && a.answerDate !== undefined && parseIsoDate(a.answerDate) === null) {
    return `Answer to ${label}: answerDate ${quote(show(a.answerDate))} is not an ISO 8601 date or date-time`;
  }
  const kind = inputKind(question.inputType);
  switch (kind) {
    case "select":
    case "multi": {
      const { options, unresolved } = selectedOptions(question, a);
      if (unresolved.length === 1) return `Answer to ${label}: option ${quote(unresolved[0]!)} is not an option of this question`;
      if (unresolved.length > 1) return `Answer to ${label}: options ${unresolved.map(quote).join(", ")} are not options of this question`;
      if (kind === "select" && options.length > 1) {
        return `Answer to ${label}: only one option may be selected, got ${options.length} (${options.map((o) => quote(o.value)).join(", ")})`;
      }
      return null;
    }
    case "number":
      return answerNumeric(a) === null ? `Answer to ${label} must be a number` : null;
    case "date":
      if (a.answerDate !== null && a.answerDate !== undefined) return null;
      return parseIsoDate(a.answerText) === null ? `Answer to ${label} must be an ISO 8601 date or date-time` : null;
    case "boolean":
      if (typeof a.answerBoolean === "boolean") return null;
      return parseBoolean(a.answerText, false) === null ? `Answer to ${label} must be true or false` : null;
    case "text":
      return null;
  }
}

/** Why a hidden question is hidden, as the tail of a "is not shown" message. */
function hiddenReason(
  q: LogicQuestion,
  index: TemplateIndex,
  vis: Visibility,
  valid: ReadonlyMap<string, AnswerInput>,
  given: ReadonlyMap<string, AnswerInput>,
): string {
  if (vis.onCycle.has(q.id)) return "it is part of a logic cycle";
  const sourceIds = new Set((index.rulesByTarget.get(q.id) ?? []).map((r) => r.sourceQuestionId));
  const sources = index.questions.filter((s) => sourceIds.has(s.id));
  const shown = sources.filter((s) => vis.visible.has(s.id));
  if (shown.length === 1) {
    const parent = shown[0]!;
    const note = valid.has(parent.id) ? "" : given.has(parent.id) ? " (its answer is not valid)" : " (it is not answered)";
    return `its trigger condition is not met by the answer to ${name(parent)}${note}`;
  }
  if (shown.length > 1) return `none of its trigger conditions is met by the answers to ${shown.map(name).join(", ")}`;
  if (sources.length === 1) return `its parent question ${name(sources[0]!)} is not shown`;
  return `its parent questions ${sources.map(name).join(", ")} are not shown`;
}

/**
 * Every violation of an inspection's answers, one message each, naming the question by its text; [] when valid.
 * Messages come grouped in this order: unknown questions, duplicates, answers without value, value checks,
 * answers to hidden questions, missing required answers (when opts.requireRequired).
 */
export function validateAnswers(t: LogicTemplate, answers: AnswerInput[], opts: { requireRequired: boolean }): string[] {
  const index = indexTemplate(t);
  const list: unknown[] = Array.isArray(answers) ? answers : [];
  const malformed: string[] = [];
  const unknown: string[] = [];
  const known: { q: LogicQuestion; a: AnswerInput }[] = [];
  list.forEach((raw, i) => {
    if (raw === null || typeof raw !== "object") return void malformed.push(`Answer #${i + 1} is not an object`);
    const a = raw as AnswerInput;
    if (typeof a.questionId !== "string") return void malformed.push(`Answer #${i + 1} has no questionId`);
    const q = index.byId.get(a.questionId);
    if (q === undefined) return void unknown.push(`Question ${quote(a.questionId)} is not part of this template`);
    known.push({ q, a });
  });

  const count = new Map<string, number>();
  for (const { q } of known) count.set(q.id, (count.get(q.id) ?? 0) + 1);
  const duplicates = index.questions.filter((q) => (count.get(q.id) ?? 0) > 1).map((q) => `Question ${name(q)} is answered more than once`);

  const noValue: string[] = [];
  const badValue: string[] = [];
  const withValue = new Map<string, AnswerInput>();
  const valid = new Map<string, AnswerInput>();
  for (const { q, a } of known) {
    if (!hasValue(a)) {
      noValue.push(`Answer to ${name(q)} has no value`);
      continue;
    }
    if (!withValue.has(q.id)) withValue.set(q.id, a);
    const problem = checkAnswerValue(q, a);
    if (problem !== null) badValue.push(problem);
    else if (!valid.has(q.id)) valid.set(q.id, a);
  }

  const vis = computeVisibility(index, valid);
  const hidden = index.questions
    .filter((q) => withValue.has(q.id) && !vis.visible.has(q.id))
    .map((q) => `Question ${name(q)} is not shown: ${hiddenReason(q, index, vis, valid, withValue)}`);
  const missing =
    opts?.requireRequired === true
      ? index.questions.filter((q) => q.required && vis.visible.has(q.id) && !withValue.has(q.id)).map((q) => `Required question ${name(q)} is not answered`)
      : [];

  const all = [...malformed, ...unknown, ...duplicates, ...noValue, ...badValue, ...hidden, ...missing];
  return [...new Set(all)];
}
