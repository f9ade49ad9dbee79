import { describe, expect, it } from "vitest";
import { checkAnswerValue, selectedOptions, validateAnswers, validateLogicGraph } from "../src/index.ts";
import { answer, question, template } from "./fixtures.ts";

/**
 * Long answerJson arrays and long is_one_of lists. Before the engine used maps and sets these were
 * quadratic (40,000 unknown tokens on a 500-option question took 2 s; 2,000 is_one_of rules of 500
 * values each took 2 minutes to check one import) and a 200,000-item answerJson overflowed the call
 * stack. Each case here runs in well under a second now; vitest's 5 s test timeout catches a regression.
 */

const manyOptions = Array.from({ length: 500 }, (_, i) => ({ id: `o${i}`, value: `v${i}`, label: `L${i}` }));
const multi = question("m", "MULTI_SELECT", { text: "Parts", options: manyOptions });

describe("choice answers with many tokens", () => {
  it("lists each unknown token once, in the order first named, for a 200,000-item answerJson", () => {
    const tokens = Array.from({ length: 200_000 }, (_, i) => `x${i % 100_000}`);
    const { options, unresolved } = selectedOptions(multi, answer("m", { answerJson: tokens }));
    expect(options).toEqual([]);
    expect(unresolved).toHaveLength(100_000);
    expect(unresolved.slice(0, 3)).toEqual(["x0", "x1", "x2"]);
  });

  it("selects each named option once, by id or value, in the order first named", () => {
    const tokens = Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? `v${(i / 2) % 500}` : `o${((i - 1) / 2) % 500}`));
    const { options, unresolved } = selectedOptions(multi, answer("m", { answerJson: [...tokens, " v7 ", 7, "v7"] }));
    expect(unresolved).toEqual(["7"]);
    expect(options).toHaveLength(500);
    expect(options.slice(0, 2).map((o) => o.id)).toEqual(["o0", "o1"]);
  });

  it("an option id wins over another option's equal value", () => {
    const q = question("q", "SELECT", {
      options: [
        { id: "a", value: "b", label: "A" },
        { id: "b", value: "c", label: "B" },
      ],
    });
    expect(selectedOptions(q, answer("q", { answerText: "b" })).options.map((o) => o.id)).toEqual(["b"]);
    expect(checkAnswerValue(q, answer("q", { answerJson: ["b", "b", "c"] }))).toBeNull();
  });
});

describe("is_one_of rules with long value lists", () => {
  const targets = Array.from({ length: 2_000 }, (_, i) => question(`t${i}`, "TEXT", { text: `Target ${i}` }));
  const rules = targets.map((t, i) => ({
    id: `r${i}`,
    sourceQuestionId: "m",
    targetQuestionId: t.id,
    condition: { type: "is_one_of", value: [...Array.from({ length: 499 }, (_, j) => `v${(j + i) % 500}`), i % 2 === 0 ? "v0" : "o1"] },
  }));
  const big = template([multi, ...targets], rules);

  it("validates the graph (2,000 rules of 500 values on a 500-option source)", () => {
    expect(validateLogicGraph(big)).toEqual([]);
    const bad = template([multi, targets[0]!], [{ ...rules[0]!, condition: { type: "is_one_of", value: ["v1", "nope", " o2 ", "nope2"] } }]);
    expect(validateLogicGraph(bad)).toEqual([
      "Condition 'is_one_of' in rule from 'm' to 't0': values 'nope', 'nope2' match no option value or id of question 'm'",
    ]);
  });

  it("checks an import against it: every target is shown when the answer selects the named options", () => {
    const answers = [
      answer("m", { answerJson: Array.from({ length: 1_000 }, (_, i) => `v${i % 500}`) }),
      ...targets.map((t) => answer(t.id, { answerText: "ok" })),
    ];
    expect(validateAnswers(big, answers, { requireRequired: true })).toEqual([]);
    // Rule i lists every value but v((499 + i) % 500): rule 251 alone leaves out v250.
    const one = [answer("m", { answerJson: ["v250"] }), answer("t1", { answerText: "x" }), answer("t251", { answerText: "x" })];
    expect(validateAnswers(big, one, { requireRequired: false })).toEqual([
      "Question 'Target 251' is not shown: its trigger condition is not met by the answer to 'Parts'",
    ]);
  });
});

describe("cycle search on large templates", () => {
  const chain = Array.from({ length: 2_000 }, (_, i) => question(`c${i}`, "TEXT", { text: `Step ${i}` }));
  const link = (from: number, to: number) => ({
    id: `l${from}-${to}`,
    sourceQuestionId: `c${from}`,
    targetQuestionId: `c${to}`,
    condition: { type: "is_not_empty" },
  });
  const forward = chain.slice(1).map((_, i) => link(i, i + 1));

  it("a 2,000-question chain has no cycle; closing it makes exactly one", () => {
    expect(validateLogicGraph(template(chain, forward))).toEqual([]);
    const ring = validateLogicGraph(template(chain, [...forward, link(1_999, 0)]));
    expect(ring).toHaveLength(1);
    expect(ring[0]).toBe(`Logic cycle: ${[...chain, chain[0]!].map((q) => q.id).join(" -> ")}`);
  });

  it("lists the first 50 cycles and says there are more", () => {
    const back = Array.from({ length: 60 }, (_, i) => link(1_999 - i, 0));
    const problems = validateLogicGraph(template(chain, [...forward, ...back]));
    expect(problems).toHaveLength(51);
    expect(problems[50]).toBe("More logic cycles exist than the 50 listed");
  });
});
