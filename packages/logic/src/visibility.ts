/** Which questions are shown for a set of answers. */
import type { AnswerInput, LogicTemplate } from "./types.ts";
import type { TemplateIndex } from "./model.ts";
import { nodeHolds } from "./conditions.ts";
import { nodesOnCycles } from "./cycles.ts";
import { indexTemplate } from "./model.ts";

export interface Visibility {
  visible: Set<string>;
  /** Questions on a rule cycle (always hidden). */
  onCycle: Set<string>;
}

/**
 * Visibility over an indexed template. A rule shows its target when its source is shown and its
 * condition holds, where a leaf reading a hidden question sees no answer. Questions on a cycle are hidden; the rest of the graph is
 * acyclic and is walked in topological order, so the result does not depend on rule or question order.
 */
export function computeVisibility(index: TemplateIndex, answers: ReadonlyMap<string, AnswerInput>): Visibility {
  const next = (id: string): readonly string[] => index.successors.get(id) ?? [];
  const onCycle = nodesOnCycles(
    index.questions.map((q) => q.id),
    next,
  );
  const pending = new Map<string, number>();
  for (const q of index.questions) if (!onCycle.has(q.id)) pending.set(q.id, 0);
  for (const [source, targets] of index.successors) {
    if (onCycle.has(source)) continue;
    for (const target of targets) if (pending.has(target)) pending.set(target, pending.get(target)! + 1);
  }
  const queue = [...pending].filter(([, n]) => n === 0).map(([id]) => id);
  const visible = new Set<string>();
  // Every question a rule reads comes before the question it shows: its visibility is final here.
  const answerOf = (q: string) => (visible.has(q) ? answers.get(q) : undefined);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    const rules = index.rulesByTarget.get(id) ?? [];
    const shown = rules.length === 0 || rules.some((r) => visible.has(r.sourceQuestionId) && nodeHolds(r.node, index.byId, answerOf));
    if (shown) visible.add(id);
    for (const target of next(id)) {
      const left = pending.get(target);
      if (left === undefined) continue;
      pending.set(target, left - 1);
      if (left === 1) queue.push(target);
    }
  }
  return { visible, onCycle };
}

/** Ids of the visible questions for these answers. */
export function visibleQuestions(t: LogicTemplate, answers: ReadonlyMap<string, AnswerInput>): Set<string> {
  const map: ReadonlyMap<string, AnswerInput> =
    answers !== null && typeof answers === "object" && typeof answers.get === "function" ? answers : new Map<string, AnswerInput>();
  return computeVisibility(indexTemplate(t), map).visible;
}
