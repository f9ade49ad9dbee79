import { describe, expect, it } from "vitest";
import { checkAnswerValue, validateAnswers } from "../src/index.ts";
import type { AnswerInput } from "../src/index.ts";
import { answer, opts, question, rule, template } from "./fixtures.ts";

const sel = question("sel", "SELECT", { text: "Damaged?", options: opts("yes", "no") });
const multi = question("multi", "MULTI_SELECT", { text: "Parts", options: opts("door", "roof") });
const num = question("num", "NUMBER", { text: "Count" });
const dt = question("dt", "DATE", { text: "When" });
const bool = question("bool", "BOOLEAN", { text: "Fixed" });
const txt = question("txt", "TEXT", { text: "Notes" });

describe("checkAnswerValue", () => {
  it("choice answers must name options", () => {
    expect(checkAnswerValue(sel, answer("sel", { responseOptionId: "opt-yes" }))).toBeNull();
    expect(checkAnswerValue(sel, answer("sel", { answerText: "no", templateOptionId: "opt-no" }))).toBeNull();
    expect(checkAnswerValue(sel, answer("sel", { answerText: "maybe" }))).toBe("Answer to 'Damaged?': option 'maybe' is not an option of this question");
    expect(checkAnswerValue(multi, answer("multi", { answerJson: ["door", "x", 3] }))).toBe(
      "Answer to 'Parts': options 'x', '3' are not options of this question",
    );
    expect(checkAnswerValue(multi, answer("multi", { answerJson: ["door", "opt-roof"] }))).toBeNull();
  });
  it("a single-choice answer selects at most one option", () => {
    expect(checkAnswerValue(sel, answer("sel", { answerJson: ["yes", "no"] }))).toBe(
      "Answer to 'Damaged?': only one option may be selected, got 2 ('yes', 'no')",
    );
    expect(checkAnswerValue(sel, answer("sel", { responseOptionId: "opt-yes", answerText: "no" }))).toMatch(/only one option/);
  });
  it("NUMBER", () => {
    expect(checkAnswerValue(num, answer("num", { answerNumber: 3.5 }))).toBeNull();
    expect(checkAnswerValue(num, answer("num", { answerText: "-2e3" }))).toBeNull();
    expect(checkAnswerValue(num, answer("num", { answerText: "12abc" }))).toBe("Answer to 'Count' must be a number");
    expect(checkAnswerValue(num, answer("num", { answerNumber: Number.NaN }))).toBe("Answer to 'Count' must be a number");
  });
  it("DATE uses a strict ISO 8601 check", () => {
    for (const ok of ["2024-02-29", "2024-05-01T10:20", "2024-05-01T10:20:30.123Z", "2024-05-01T10:20:30+05:30"]) {
      expect(checkAnswerValue(dt, answer("dt", { answerDate: ok })), ok).toBeNull();
    }
    expect(checkAnswerValue(dt, answer("dt", { answerText: "2024-05-01" }))).toBeNull();
    for (const bad of ["2023-02-29", "2024-13-01", "May 1 2024", "2024-05-01T25:00Z", "2024-5-1", "1714521600000"]) {
      expect(checkAnswerValue(dt, answer("dt", { answerText: bad })), bad).toBe("Answer to 'When' must be an ISO 8601 date or date-time");
    }
  });
  it("an unparseable answerDate is an error on any question type", () => {
    expect(checkAnswerValue(txt, answer("txt", { answerText: "x", answerDate: "yesterday" }))).toBe(
      "Answer to 'Notes': answerDate 'yesterday' is not an ISO 8601 date or date-time",
    );
  });
  it("BOOLEAN", () => {
    expect(checkAnswerValue(bool, answer("bool", { answerBoolean: false }))).toBeNull();
    expect(checkAnswerValue(bool, answer("bool", { answerText: "TRUE" }))).toBeNull();
    expect(checkAnswerValue(bool, answer("bool", { answerText: "yes" }))).toBe("Answer to 'Fixed' must be true or false");
  });
  it("TEXT accepts anything", () => {
    expect(checkAnswerValue(txt, answer("txt", { answerJson: { any: 1 }, answerNumber: 2 }))).toBeNull();
  });
});

describe("validateAnswers", () => {
  const A = question("A", "SELECT", { text: "Has damage?", options: opts("yes", "no") });
  const B = question("B", "NUMBER", { text: "How many dents?", required: true });
  const C = question("C", "TEXT", { text: "Describe the worst dent", required: true });
  const t = template([A, B, C], [rule("A", "B", "equals", "yes"), rule("B", "C", "greater_than", 0)]);
  const run = (answers: AnswerInput[], requireRequired = true): string[] => validateAnswers(t, answers, { requireRequired });

  it("accepts a consistent inspection", () => {
    expect(run([answer("A", { answerText: "no" })])).toEqual([]);
    expect(run([answer("A", { answerText: "yes" }), answer("B", { answerNumber: 0 })])).toEqual([]);
    expect(run([answer("A", { answerText: "yes" }), answer("B", { answerNumber: 2 }), answer("C", { answerText: "left door" })])).toEqual([]);
  });

  it("rejects C answered while B is hidden, naming the hidden parent", () => {
    expect(run([answer("A", { answerText: "no" }), answer("C", { answerText: "x" })])).toEqual([
      "Question 'Describe the worst dent' is not shown: its parent question 'How many dents?' is not shown",
    ]);
  });

  it("rejects an answer whose trigger condition is not met", () => {
    expect(run([answer("A", { answerText: "no" }), answer("B", { answerNumber: 3 })])).toEqual([
      "Question 'How many dents?' is not shown: its trigger condition is not met by the answer to 'Has damage?'",
    ]);
    expect(run([answer("B", { answerNumber: 3 })])).toEqual([
      "Question 'How many dents?' is not shown: its trigger condition is not met by the answer to 'Has damage?' (it is not answered)",
    ]);
  });

  it("rejects B visible and required but missing, only when required answers are demanded", () => {
    expect(run([answer("A", { answerText: "yes" })])).toEqual(["Required question 'How many dents?' is not answered"]);
    expect(run([answer("A", { answerText: "yes" })], false)).toEqual([]);
    expect(run([answer("A", { answerText: "yes" }), answer("B", { answerText: " " })])).toEqual([
      "Answer to 'How many dents?' has no value",
      "Required question 'How many dents?' is not answered",
    ]);
  });

  it("reports every kind of violation, grouped in order", () => {
    const problems = run([
      answer("A", { answerText: "yes" }),
      answer("Z", { answerText: "x" }),
      answer("B", { answerText: "many" }),
      answer("A", { answerText: "yes" }),
      answer("C", {}),
      answer("C", { answerText: "dent" }),
    ]);
    expect(problems).toEqual([
      "Question 'Z' is not part of this template",
      "Question 'Has damage?' is answered more than once",
      "Question 'Describe the worst dent' is answered more than once",
      "Answer to 'Describe the worst dent' has no value",
      "Answer to 'How many dents?' must be a number",
      "Question 'Describe the worst dent' is not shown: its trigger condition is not met by the answer to 'How many dents?' (its answer is not valid)",
    ]);
  });

  it("explains a question hidden by several parents or by a cycle", () => {
    const x = question("x", "TEXT", { text: "X" });
    const y = question("y", "TEXT", { text: "Y" });
    const z = question("z", "TEXT", { text: "Z" });
    const tt = template([x, y, z], [rule("x", "z", "equals", "1"), rule("y", "z", "equals", "2")]);
    expect(validateAnswers(tt, [answer("x", { answerText: "0" }), answer("z", { answerText: "!" })], { requireRequired: true })).toEqual([
      "Question 'Z' is not shown: none of its trigger conditions is met by the answers to 'X', 'Y'",
    ]);
    const cyc = template([x, y], [rule("x", "y", "is_not_empty"), rule("y", "x", "is_not_empty")]);
    expect(validateAnswers(cyc, [answer("x", { answerText: "a" })], { requireRequired: true })).toEqual([
      "Question 'X' is not shown: it is part of a logic cycle",
    ]);
  });

  it("never throws on malformed input", () => {
    const bad = [null, 42, { answerText: "x" }, { questionId: "A", answerJson: { nested: [1] } }] as unknown as AnswerInput[];
    expect(run(bad)).toEqual([
      "Answer #1 is not an object",
      "Answer #2 is not an object",
      "Answer #3 has no questionId",
      "Answer to 'Has damage?': option '{\"nested\":[1]}' is not an option of this question",
    ]);
    expect(validateAnswers({} as never, null as never, undefined as never)).toEqual([]);
  });
});
