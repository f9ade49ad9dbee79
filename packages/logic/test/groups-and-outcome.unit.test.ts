import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { conditionHolds, evaluateInspection, validateAnswers, validateLogicGraph, visibleQuestions } from "../src/index.ts";
import type { AnswerInput, Condition, LogicOption, LogicQuestion, LogicRule, RuleCondition } from "../src/index.ts";
import { answer, answerMap, opts, question, rule, template } from "./fixtures.ts";

const text = question("t", "TEXT");
const num = question("n", "NUMBER");
const date = question("d", "DATE");
const holds = (q: LogicQuestion, type: string, value: unknown, a: Omit<AnswerInput, "questionId">) =>
  conditionHolds({ type, value } as Condition, q, answer(q.id, a));

describe("new comparisons", () => {
  it("greater_than_or_equal, less_than_or_equal and between (inclusive) on numbers and dates", () => {
    expect(holds(num, "greater_than_or_equal", 3, { answerNumber: 3 })).toBe(true);
    expect(holds(num, "greater_than_or_equal", 3, { answerNumber: 2.9 })).toBe(false);
    expect(holds(num, "less_than_or_equal", "3", { answerText: "3" })).toBe(true);
    expect(holds(num, "less_than_or_equal", 3, { answerNumber: 3.1 })).toBe(false);
    expect(holds(num, "between", [1, 5], { answerNumber: 1 })).toBe(true);
    expect(holds(num, "between", [1, 5], { answerNumber: 5 })).toBe(true);
    expect(holds(num, "between", [1, 5], { answerNumber: 5.01 })).toBe(false);
    expect(holds(num, "between", [1], { answerNumber: 1 })).toBe(false);
    expect(holds(date, "between", ["2024-01-01", "2024-01-31"], { answerDate: "2024-01-31" })).toBe(true);
    expect(holds(date, "between", ["2024-01-01", "2024-01-31"], { answerDate: "2024-02-01" })).toBe(false);
    expect(holds(date, "greater_than_or_equal", "2024-01-01T00:00:00Z", { answerDate: "2024-01-01" })).toBe(true);
  });

  it("before and after are strict, on dates and date-times only", () => {
    expect(holds(date, "before", "2024-03-01", { answerDate: "2024-02-29" })).toBe(true);
    expect(holds(date, "before", "2024-03-01", { answerDate: "2024-03-01" })).toBe(false);
    expect(holds(date, "after", "2024-03-01T10:00:00+02:00", { answerDate: "2024-03-01T08:00:01Z" })).toBe(true);
    expect(holds(date, "after", "2024-03-01T10:00:00+02:00", { answerDate: "2024-03-01T08:00:00Z" })).toBe(false);
    expect(holds(num, "after", 1, { answerNumber: 5 })).toBe(false);
  });

  it("contains, not_contains and starts_with are case-insensitive on text; not_contains is the complement when answered", () => {
    expect(holds(text, "contains", "LEAK", { answerText: "small leak at the valve" })).toBe(true);
    expect(holds(text, "not_contains", "LEAK", { answerText: "small leak at the valve" })).toBe(false);
    expect(holds(text, "not_contains", "rust", { answerText: "small leak" })).toBe(true);
    expect(holds(text, "starts_with", "Small", { answerText: "small leak" })).toBe(true);
    expect(holds(text, "starts_with", "leak", { answerText: "small leak" })).toBe(false);
    expect(conditionHolds({ type: "not_contains", value: "x" }, text, undefined)).toBe(false);
    expect(holds(num, "contains", "1", { answerNumber: 12 })).toBe(false);
  });
});

const a = question("a", "SELECT", { options: opts("yes", "no") });
const b = question("b", "NUMBER");
const c = question("c", "TEXT");
const target = question("x", "TEXT");

describe("groups", () => {
  const show = (condition: RuleCondition): LogicRule => ({ id: "g", sourceQuestionId: "a", targetQuestionId: "x", condition });
  const visibleWith = (condition: RuleCondition, ...answers: AnswerInput[]) =>
    visibleQuestions(template([a, b, c, target], [show(condition)]), answerMap(...answers)).has("x");
  const aNoAndBOver3: RuleCondition = {
    all: [
      { type: "equals", value: "no" },
      { type: "greater_than", value: 3, sourceKey: "b" },
    ],
  };

  it("all: shows a question when A is no and B is over 3", () => {
    expect(visibleWith(aNoAndBOver3, answer("a", { answerText: "no" }), answer("b", { answerNumber: 4 }))).toBe(true);
    expect(visibleWith(aNoAndBOver3, answer("a", { answerText: "no" }), answer("b", { answerNumber: 3 }))).toBe(false);
    expect(visibleWith(aNoAndBOver3, answer("a", { answerText: "yes" }), answer("b", { answerNumber: 9 }))).toBe(false);
  });

  it("any, not and nesting", () => {
    const cond: RuleCondition = {
      any: [
        { type: "equals", value: "no" },
        {
          not: {
            all: [
              { type: "is_not_empty", sourceKey: "c" },
              { type: "less_than", value: 10, sourceKey: "b" },
            ],
          },
        },
      ],
    };
    expect(visibleWith(cond, answer("a", { answerText: "yes" }), answer("c", { answerText: "hi" }), answer("b", { answerNumber: 5 }))).toBe(false);
    expect(visibleWith(cond, answer("a", { answerText: "yes" }), answer("c", { answerText: "hi" }), answer("b", { answerNumber: 50 }))).toBe(true);
    expect(visibleWith(cond, answer("a", { answerText: "no" }), answer("b", { answerNumber: 5 }))).toBe(true);
  });

  it("a leaf reading a hidden question sees no answer", () => {
    const cHidden: LogicRule = rule("a", "c", "equals", "no");
    const t = template(
      [a, b, c, target],
      [cHidden, { id: "g", sourceQuestionId: "a", targetQuestionId: "x", condition: { all: [{ type: "is_not_empty", sourceKey: "c" }] } }],
    );
    const answers = answerMap(answer("a", { answerText: "yes" }), answer("c", { answerText: "stale" }));
    expect(visibleQuestions(t, answers).has("x")).toBe(false);
    const notEmpty = template(
      [a, b, c, target],
      [cHidden, { id: "g", sourceQuestionId: "a", targetQuestionId: "x", condition: { type: "is_empty", sourceKey: "c" } }],
    );
    expect(visibleQuestions(notEmpty, answers).has("x")).toBe(true);
  });

  it("save-time checks: unknown leaf keys, operators that do not fit, between out of order, malformed groups, cycles through leaves", () => {
    const check = (condition: RuleCondition, extra: LogicRule[] = []) => validateLogicGraph(template([a, b, c, target], [show(condition), ...extra]));
    expect(check(aNoAndBOver3)).toEqual([]);
    expect(
      check({
        all: [
          { type: "equals", value: "no" },
          { type: "equals", value: 1, sourceKey: "nope" },
        ],
      }),
    ).toEqual(["Condition in rule from 'a' to 'x': sourceKey 'nope' matches no question key"]);
    expect(check({ any: [{ type: "contains", value: "x", sourceKey: "b" }] })).toEqual(["Condition 'contains' cannot be used on NUMBER question 'b'"]);
    expect(check({ type: "between", value: [5, 1], sourceKey: "b" })).toEqual([
      "Condition 'between' in rule from 'a' to 'x' (on question 'b'): bounds out of order, '5' is above '1'",
    ]);
    expect(check({ type: "between", value: 5, sourceKey: "b" })[0]).toMatch(/needs a list of two values/);
    expect(check({ type: "before", value: "soon", sourceKey: "b" })).toEqual(["Condition 'before' cannot be used on NUMBER question 'b'"]);
    expect(check({ all: [] })).toEqual(["Condition in rule from 'a' to 'x': 'all' needs a list of at least one condition"]);
    expect(check({ all: [{ type: "equals", value: "no", any: [] } as never] })[0]).toMatch(/exactly one of type, all, any, not/);
    expect(check({ not: "x" as never })[0]).toMatch(/a condition must be an object/);
    // x reads c, c shown by x: a cycle through a leaf
    const cycle = check({ all: [{ type: "is_not_empty", sourceKey: "c" }] }, [rule("x", "c", "is_not_empty")]);
    expect(cycle).toContain("Logic cycle: c -> x -> c");
    expect(check({ any: [{ type: "is_not_empty", sourceKey: "x" }] })).toEqual(["Rule from 'a' to 'x' shows 'x' on a condition that reads 'x' itself"]);
  });

  it("property: group forms agree with the flat form where both can express a rule", () => {
    const leafArb = fc.record({
      type: fc.constantFrom("equals", "is_not_equals", "is_empty", "is_not_empty", "is_one_of"),
      value: fc.constantFrom("yes", "no", "opt-no", ["yes", "no"]),
    });
    const answerArb = fc.option(fc.constantFrom("yes", "no", "opt-yes", "maybe", "  "), { nil: undefined });
    fc.assert(
      fc.property(leafArb, leafArb, answerArb, (c1, c2, text) => {
        const answers = text === undefined ? answerMap() : answerMap(answer("a", { answerText: text }));
        const vis = (rules: LogicRule[]) => visibleQuestions(template([a, target], rules), answers).has("x");
        const flat1 = vis([{ id: "1", sourceQuestionId: "a", targetQuestionId: "x", condition: c1 }]);
        const flatBoth = vis([
          { id: "1", sourceQuestionId: "a", targetQuestionId: "x", condition: c1 },
          { id: "2", sourceQuestionId: "a", targetQuestionId: "x", condition: c2 },
        ]);
        const grouped = (condition: RuleCondition) => vis([{ id: "g", sourceQuestionId: "a", targetQuestionId: "x", condition }]);
        expect(grouped({ all: [c1] })).toBe(flat1);
        expect(grouped({ any: [c1] })).toBe(flat1);
        expect(grouped({ not: { not: c1 } })).toBe(flat1);
        expect(grouped({ ...c1, sourceKey: "a" })).toBe(flat1);
        // two flat rules on one target are an OR
        expect(grouped({ any: [c1, c2] })).toBe(flatBoth);
        expect(grouped({ not: { all: [{ not: c1 }, { not: c2 }] } })).toBe(flatBoth);
      }),
      { numRuns: 1000 },
    );
  });
});

const scored = (...entries: [string, number | null | undefined, boolean?][]): LogicOption[] =>
  entries.map(([value, score, flagged]) => ({
    id: `opt-${value}`,
    value,
    label: value,
    ...(score !== undefined ? { score } : {}),
    ...(flagged ? { flagged } : {}),
  }));

describe("evaluateInspection", () => {
  const q1 = question("q1", "SELECT", { options: scored(["good", 2], ["poor", 0, true], ["na", null]) });
  const q2 = question("q2", "SELECT", { options: scored(["yes", 1], ["no", 0]) });
  const q3 = question("q3", "MULTI_SELECT", { options: scored(["a", 1], ["b", 3], ["c", undefined]) });
  const plain = question("q4", "TEXT");
  const hiddenScored = question("q5", "SELECT", { options: scored(["yes", 10], ["no", 0]) });
  const t = template([q1, q2, q3, plain, hiddenScored], [rule("q2", "q5", "equals", "no")]);

  it("sums the chosen scores over the visible scored questions; unanswered counts 0 of its maximum", () => {
    const out = evaluateInspection(t, [answer("q1", { answerText: "good" }), answer("q2", { answerText: "yes" }), answer("q4", { answerText: "hi" })]);
    // q1 2/2, q2 1/1, q3 unanswered 0/3, q5 hidden
    expect(out).toMatchObject({ score: 3, maxScore: 6, scorePercentage: 50 });
    expect(out.flagged.size).toBe(0);
  });

  it("not applicable leaves a question out of both; multi-select takes its best chosen option; unscored options count 0", () => {
    const out = evaluateInspection(t, [
      answer("q1", { answerText: "na" }),
      answer("q2", { answerText: "no" }),
      answer("q3", { answerJson: ["a", "b"] }),
      answer("q5", { answerText: "yes" }),
    ]);
    // q1 out, q2 0/1, q3 3/3, q5 visible 10/10
    expect(out).toMatchObject({ score: 13, maxScore: 14, scorePercentage: 92.86 });
    expect(evaluateInspection(t, [answer("q3", { answerJson: ["c"] })])).toMatchObject({ score: 0, maxScore: 6, scorePercentage: 0 });
  });

  it("a template without scores gives 0 of 0 and a null percentage; decimals add up exactly", () => {
    expect(evaluateInspection(template([plain]), [answer("q4", { answerText: "x" })])).toMatchObject({ score: 0, maxScore: 0, scorePercentage: null });
    const d = question("d1", "SELECT", { options: scored(["x", 0.1]) });
    const e = question("d2", "SELECT", { options: scored(["x", 0.2]) });
    expect(evaluateInspection(template([d, e]), [answer("d1", { answerText: "x" }), answer("d2", { answerText: "x" })])).toMatchObject({
      score: 0.3,
      maxScore: 0.3,
      scorePercentage: 100,
    });
  });

  it("flags from options and from flag rules, never on hidden questions", () => {
    const flagRule: LogicRule = { ...rule("q2", "q4", "equals", "no"), actionType: "flag" };
    const tf = template([q1, q2, q3, plain, hiddenScored], [rule("q2", "q5", "equals", "no"), flagRule]);
    const out = evaluateInspection(tf, [answer("q1", { answerText: "poor" }), answer("q2", { answerText: "no" }), answer("q4", { answerText: "hi" })]);
    expect([...out.flagged].sort()).toEqual(["q1", "q4"]);
    const poorHidden = template([q2, question("q1", "SELECT", { options: q1.options })], [rule("q2", "q1", "equals", "no")]);
    expect(evaluateInspection(poorHidden, [answer("q2", { answerText: "yes" }), answer("q1", { answerText: "poor" })]).flagged.size).toBe(0);
  });

  it("require_note, require_photo and require_action name what is missing", () => {
    const rules: LogicRule[] = [
      { ...rule("q2", "q2", "equals", "no"), actionType: "require_note" },
      { ...rule("q2", "q2", "equals", "no"), actionType: "require_photo" },
      { ...rule("q2", "q4", "equals", "no"), actionType: "require_action" },
    ];
    const tr = template([q2, plain], rules);
    expect(evaluateInspection(tr, [answer("q2", { answerText: "yes" })]).missing).toEqual([]);
    expect(evaluateInspection(tr, [answer("q2", { answerText: "no" })]).missing).toEqual([
      "Answer to 'Question q2?' requires a note (a logic rule on 'Question q2?' holds)",
      "Answer to 'Question q2?' requires a photo (a logic rule on 'Question q2?' holds)",
      "Question 'Question q4?' is not answered but requires a corrective action (a logic rule on 'Question q2?' holds)",
    ]);
    const satisfied = evaluateInspection(tr, [
      answer("q2", { answerText: "no", note: "bent", imageCount: 1 }),
      answer("q4", { answerText: "x", actionCount: 1 }),
    ]);
    expect(satisfied.missing).toEqual([]);
    // answer rules never hide or show anything
    expect(validateAnswers(tr, [answer("q2", { answerText: "no" }), answer("q4", { answerText: "x" })], { requireRequired: true })).toEqual([]);
  });
});
