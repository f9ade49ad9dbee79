/** What an inspection's answers add up to: its score, its flagged answers, and what the answer rules still ask for. */
import type { AnswerInput, LogicQuestion, LogicTemplate } from "./types.ts";
import { nodeHolds } from "./conditions.ts";
import { indexTemplate, questionLabel, quote, type IndexedRule } from "./model.ts";
import { checkAnswerValue } from "./answers.ts";
import { computeVisibility } from "./visibility.ts";
import { hasValue, selectedOptions } from "./values.ts";

export interface InspectionOutcome {
  /** Sum of the visible scored questions' scores. */
  score: number;
  /** Sum of their maximums (an unanswered one counts with 0 of its maximum). */
  maxScore: number;
  /** score / maxScore * 100 rounded to two decimals; null when maxScore is 0. */
  scorePercentage: number | null;
  /** Question ids whose answer is flagged (a flagged option chosen, or a flag rule holds). */
  flagged: Set<string>;
  /** One message per note, photo or corrective action an answer rule asks for and the answers lack. */
  missing: string[];
}

const name = (q: LogicQuestion): string => quote(questionLabel(q));
/** Sums of decimal scores without binary noise (0.1 + 0.2 is 0.3). */
const tidy = (n: number): number => Math.round(n * 1e6) / 1e6;

/** The highest score among a question's options; null when none carries a number (the question is not scored). */
export function maxScoreOf(q: LogicQuestion): number | null {
  let max: number | null = null;
  for (const o of q.options) if (typeof o.score === "number" && (max === null || o.score > max)) max = o.score;
  return max;
}

/**
 * A scored question's points for an answer: the highest score among the chosen options (one for a
 * single choice); 0 when the chosen options carry no score; null (out of the score) when every
 * chosen option is "not applicable".
 */
function pointsOf(q: LogicQuestion, a: AnswerInput): number | null {
  const chosen = selectedOptions(q, a).options;
  const numbers = chosen.map((o) => o.score).filter((s): s is number => typeof s === "number");
  if (numbers.length > 0) return Math.max(...numbers);
  if (chosen.length > 0 && chosen.every((o) => o.score === null)) return null;
  return 0;
}

const NEEDS: Readonly<Record<string, { what: string; has: (a: AnswerInput) => boolean }>> = {
  require_note: { what: "a note", has: (a) => typeof a.note === "string" && a.note.trim() !== "" },
  require_photo: { what: "a photo", has: (a) => (a.imageCount ?? 0) > 0 },
  require_action: { what: "a corrective action", has: (a) => (a.actionCount ?? 0) > 0 },
};

/**
 * Score, flags and the answer rules' demands of a set of answers (pure; never throws). Reads the
 * valid answers only (a known question, a value that fits, the first per question), as visibility
 * does: validateAnswers reports the others. Hidden questions count for nothing.
 */
export function evaluateInspection(t: LogicTemplate, answers: readonly AnswerInput[]): InspectionOutcome {
  const index = indexTemplate(t);
  const valid = new Map<string, AnswerInput>();
  for (const a of Array.isArray(answers) ? answers : []) {
    if (a === null || typeof a !== "object" || typeof a.questionId !== "string") continue;
    const q = index.byId.get(a.questionId);
    if (q === undefined || valid.has(q.id) || !hasValue(a) || checkAnswerValue(q, a) !== null) continue;
    valid.set(q.id, a);
  }
  const { visible } = computeVisibility(index, valid);
  const answerOf = (id: string) => (visible.has(id) ? valid.get(id) : undefined);

  let score = 0;
  let maxScore = 0;
  const flagged = new Set<string>();
  for (const q of index.questions) {
    if (!visible.has(q.id)) continue;
    const a = valid.get(q.id);
    if (a !== undefined && selectedOptions(q, a).options.some((o) => o.flagged === true)) flagged.add(q.id);
    const max = maxScoreOf(q);
    if (max === null) continue;
    const points = a === undefined ? 0 : pointsOf(q, a);
    if (points === null) continue;
    score += points;
    maxScore += max;
  }

  const missing: string[] = [];
  const holds = (r: IndexedRule) => visible.has(r.sourceQuestionId) && visible.has(r.targetQuestionId) && nodeHolds(r.node, index.byId, answerOf);
  for (const r of index.answerRules) {
    if (!holds(r)) continue;
    const target = index.byId.get(r.targetQuestionId)!;
    const a = valid.get(target.id);
    if (r.action === "flag") {
      if (a !== undefined) flagged.add(target.id);
      continue;
    }
    const need = NEEDS[r.action];
    if (need === undefined || (a !== undefined && need.has(a))) continue;
    const why = `a logic rule on ${name(index.byId.get(r.sourceQuestionId)!)} holds`;
    missing.push(
      a === undefined
        ? `Question ${name(target)} is not answered but requires ${need.what} (${why})`
        : `Answer to ${name(target)} requires ${need.what} (${why})`,
    );
  }

  score = tidy(score);
  maxScore = tidy(maxScore);
  const scorePercentage = maxScore === 0 ? null : Math.round((score / maxScore) * 10_000) / 100;
  return { score, maxScore, scorePercentage, flagged, missing: [...new Set(missing)] };
}
