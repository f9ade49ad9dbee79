/** Small builders for logic-engine tests. */
import type { AnswerInput, LogicOption, LogicQuestion, LogicRule, LogicTemplate } from "../src/index.ts";

export function opts(...values: string[]): LogicOption[] {
  return values.map((v) => ({ id: `opt-${v}`, value: v, label: v.toUpperCase() }));
}

export function question(id: string, inputType: string, extra: Partial<LogicQuestion> = {}): LogicQuestion {
  return { id, key: id, text: `Question ${id}?`, inputType, required: false, options: [], ...extra };
}

let ruleCounter = 0;
export function rule(source: string, target: string, type: string, value?: unknown): LogicRule {
  ruleCounter += 1;
  return { id: `r${ruleCounter}`, sourceQuestionId: source, targetQuestionId: target, condition: value === undefined ? { type } : { type, value } };
}

export function template(questions: LogicQuestion[], rules: LogicRule[] = []): LogicTemplate {
  return { questions, rules };
}

export function answer(questionId: string, fields: Omit<AnswerInput, "questionId"> = {}): AnswerInput {
  return { questionId, ...fields };
}

export function answerMap(...answers: AnswerInput[]): Map<string, AnswerInput> {
  return new Map(answers.map((a) => [a.questionId, a]));
}
