import { describe, expect, it } from "vitest";
import { conditionHolds } from "../src/index.ts";
import type { AnswerInput, Condition, LogicQuestion } from "../src/index.ts";
import { answer, opts, question } from "./fixtures.ts";

const select = question("s", "SELECT", { options: opts("yes", "no", "na") });
const multi = question("m", "MULTI_SELECT", { options: opts("red", "green", "blue") });
const text = question("t", "TEXT");
const num = question("n", "NUMBER");
const date = question("d", "DATE");
const bool = question("b", "BOOLEAN");

const holds = (q: LogicQuestion, type: string, value: unknown, a: Omit<AnswerInput, "questionId"> | undefined): boolean =>
  conditionHolds({ type, value } as Condition, q, a === undefined ? undefined : answer(q.id, a));

describe("unanswered source", () => {
  const types = ["equals", "is_not_equals", "is_selected", "is_not_selected", "is_one_of", "is_not_one_of", "greater_than", "less_than", "is_not_empty"];
  for (const q of [select, multi, text, num, date, bool]) {
    it(`only is_empty holds on an unanswered ${q.inputType} question`, () => {
      for (const a of [undefined, {}, { answerText: "   " }, { answerJson: [] }, { answerText: null, answerNumber: null }, { unitId: "u1" }]) {
        expect(holds(q, "is_empty", undefined, a)).toBe(true);
        for (const type of types) expect(holds(q, type, "x", a), `${type} on ${JSON.stringify(a)}`).toBe(false);
      }
    });
  }
});

describe("SELECT source", () => {
  it("equals / is_not_equals match option value or id from any answer field", () => {
    for (const a of [
      { responseOptionId: "opt-yes" },
      { templateOptionId: "yes" },
      { answerText: "yes" },
      { answerText: "opt-yes" },
      { answerJson: "yes" },
      { answerJson: ["opt-yes"] },
    ]) {
      expect(holds(select, "equals", "yes", a)).toBe(true);
      expect(holds(select, "equals", "opt-yes", a)).toBe(true);
      expect(holds(select, "is_not_equals", "yes", a)).toBe(false);
      expect(holds(select, "equals", "no", a)).toBe(false);
      expect(holds(select, "is_not_equals", "no", a)).toBe(true);
    }
  });
  it("is_selected / is_not_selected", () => {
    expect(holds(select, "is_selected", "no", { responseOptionId: "opt-no" })).toBe(true);
    expect(holds(select, "is_not_selected", "no", { responseOptionId: "opt-no" })).toBe(false);
    expect(holds(select, "is_selected", "opt-yes", { responseOptionId: "opt-no" })).toBe(false);
    expect(holds(select, "is_not_selected", "opt-yes", { responseOptionId: "opt-no" })).toBe(true);
  });
  it("is_one_of / is_not_one_of with arrays and comma-separated strings", () => {
    expect(holds(select, "is_one_of", ["no", "na"], { answerText: "na" })).toBe(true);
    expect(holds(select, "is_one_of", " no , opt-na ", { answerText: "na" })).toBe(true);
    expect(holds(select, "is_not_one_of", "no,na", { answerText: "na" })).toBe(false);
    expect(holds(select, "is_one_of", "no,na", { answerText: "yes" })).toBe(false);
    expect(holds(select, "is_not_one_of", ["no", "na"], { answerText: "yes" })).toBe(true);
  });
  it("an answer naming an unknown option selects nothing but is still answered", () => {
    expect(holds(select, "equals", "yes", { answerText: "maybe" })).toBe(false);
    expect(holds(select, "is_not_equals", "yes", { answerText: "maybe" })).toBe(true);
    expect(holds(select, "is_not_empty", undefined, { answerText: "maybe" })).toBe(true);
  });
  it("greater_than / less_than never hold on choice", () => {
    expect(holds(select, "greater_than", "a", { answerText: "yes" })).toBe(false);
    expect(holds(select, "less_than", "z", { answerText: "yes" })).toBe(false);
  });
  it("input type aliases and case are accepted", () => {
    for (const t of ["radio", "Dropdown", "checkbox", "select"]) {
      expect(holds({ ...select, inputType: t }, "equals", "yes", { answerText: "yes" })).toBe(true);
    }
  });
});

describe("MULTI_SELECT source", () => {
  const a = { answerJson: ["red", "opt-blue"] };
  it("equals means the value is among the selected options", () => {
    expect(holds(multi, "equals", "red", a)).toBe(true);
    expect(holds(multi, "equals", "opt-blue", a)).toBe(true);
    expect(holds(multi, "equals", "green", a)).toBe(false);
    expect(holds(multi, "is_not_equals", "green", a)).toBe(true);
    expect(holds(multi, "is_not_equals", "red", a)).toBe(false);
  });
  it("is_selected, is_one_of and their negations", () => {
    expect(holds(multi, "is_selected", "blue", a)).toBe(true);
    expect(holds(multi, "is_not_selected", "green", a)).toBe(true);
    expect(holds(multi, "is_one_of", "green, blue", a)).toBe(true);
    expect(holds(multi, "is_not_one_of", ["green"], a)).toBe(true);
    expect(holds(multi, "is_not_one_of", ["green", "red"], a)).toBe(false);
  });
  it("accepts a single string in answerJson, option ids fields and CHECKBOXES", () => {
    expect(holds(multi, "equals", "green", { answerJson: "green" })).toBe(true);
    expect(holds(multi, "equals", "green", { responseOptionId: "opt-green" })).toBe(true);
    expect(holds({ ...multi, inputType: "checkboxes" }, "is_selected", "red", a)).toBe(true);
  });
});

describe("TEXT source", () => {
  it("equals is exact string equality with answerText", () => {
    expect(holds(text, "equals", "OK", { answerText: "OK" })).toBe(true);
    expect(holds(text, "equals", "ok", { answerText: "OK" })).toBe(false);
    expect(holds(text, "is_not_equals", "ok", { answerText: "OK" })).toBe(true);
    expect(holds(text, "equals", "OK", { answerNumber: 3 })).toBe(false);
    expect(holds(text, "is_not_equals", "OK", { answerNumber: 3 })).toBe(true);
  });
  it("is_one_of / is_not_one_of", () => {
    expect(holds(text, "is_one_of", "a, b ,c", { answerText: "b" })).toBe(true);
    expect(holds(text, "is_not_one_of", "a,b,c", { answerText: "d" })).toBe(true);
    expect(holds(text, "is_not_one_of", ["a", "b"], { answerText: "a" })).toBe(false);
  });
  it("is_selected, greater_than, less_than never hold; unknown types act as text", () => {
    expect(holds(text, "is_selected", "x", { answerText: "x" })).toBe(false);
    expect(holds(text, "greater_than", "1", { answerText: "2" })).toBe(false);
    expect(holds(question("p", "PHOTO"), "equals", "x", { answerText: "x" })).toBe(true);
  });
  it("is_empty / is_not_empty", () => {
    expect(holds(text, "is_empty", undefined, { answerText: "" })).toBe(true);
    expect(holds(text, "is_not_empty", undefined, { answerText: "x" })).toBe(true);
    expect(holds(text, "is_empty", undefined, { answerText: "x" })).toBe(false);
  });
});

describe("NUMBER source", () => {
  it("equals with numbers and numeric strings on both sides", () => {
    expect(holds(num, "equals", 5, { answerNumber: 5 })).toBe(true);
    expect(holds(num, "equals", "5.0", { answerNumber: 5 })).toBe(true);
    expect(holds(num, "equals", 5, { answerText: " 5 " })).toBe(true);
    expect(holds(num, "equals", 5, { answerNumber: 6 })).toBe(false);
    expect(holds(num, "is_not_equals", 5, { answerNumber: 6 })).toBe(true);
    expect(holds(num, "equals", "abc", { answerNumber: 5 })).toBe(false);
  });
  it("is_one_of is numeric membership", () => {
    expect(holds(num, "is_one_of", "1, 2, 3", { answerNumber: 2 })).toBe(true);
    expect(holds(num, "is_one_of", [1, "2.5"], { answerText: "2.50" })).toBe(true);
    expect(holds(num, "is_not_one_of", [1, 3], { answerNumber: 2 })).toBe(true);
  });
  it("greater_than / less_than are strict", () => {
    expect(holds(num, "greater_than", 10, { answerNumber: 11 })).toBe(true);
    expect(holds(num, "greater_than", "10", { answerNumber: 10 })).toBe(false);
    expect(holds(num, "less_than", 10, { answerNumber: 9.5 })).toBe(true);
    expect(holds(num, "less_than", 10, { answerNumber: 10 })).toBe(false);
    expect(holds(num, "less_than", "x", { answerNumber: 1 })).toBe(false);
    expect(holds(num, "greater_than", 1, { answerText: "abc" })).toBe(false);
  });
});

describe("DATE source", () => {
  it("equals: same instant, or same UTC day when either side is date-only", () => {
    expect(holds(date, "equals", "2024-05-01", { answerDate: "2024-05-01" })).toBe(true);
    expect(holds(date, "equals", "2024-05-01", { answerDate: "2024-05-01T15:30:00Z" })).toBe(true);
    expect(holds(date, "equals", "2024-05-01T12:00:00Z", { answerDate: "2024-05-01T14:00:00+02:00" })).toBe(true);
    expect(holds(date, "equals", "2024-05-01T12:00:00Z", { answerDate: "2024-05-01T12:00:01Z" })).toBe(false);
    expect(holds(date, "equals", "2024-05-02", { answerText: "2024-05-01" })).toBe(false);
    expect(holds(date, "is_not_equals", "2024-05-02", { answerText: "2024-05-01" })).toBe(true);
  });
  it("greater_than / less_than compare instants, date-only is midnight UTC", () => {
    expect(holds(date, "greater_than", "2024-05-01", { answerDate: "2024-05-01T00:00:01Z" })).toBe(true);
    expect(holds(date, "greater_than", "2024-05-01", { answerDate: "2024-05-01" })).toBe(false);
    expect(holds(date, "less_than", "2024-05-01T00:00:00+01:00", { answerDate: "2024-04-30T23:30:00Z" })).toBe(false);
    expect(holds(date, "less_than", "2024-05-01", { answerDate: "2024-04-30T23:59:59Z" })).toBe(true);
    expect(holds({ ...date, inputType: "datetime" }, "less_than", "not a date", { answerDate: "2024-04-30" })).toBe(false);
  });
});

describe("BOOLEAN source", () => {
  it("equals accepts true/false and yes/no condition values", () => {
    expect(holds(bool, "equals", true, { answerBoolean: true })).toBe(true);
    expect(holds(bool, "equals", "yes", { answerBoolean: true })).toBe(true);
    expect(holds(bool, "equals", "No", { answerBoolean: false })).toBe(true);
    expect(holds(bool, "equals", "false", { answerText: "false" })).toBe(true);
    expect(holds(bool, "equals", true, { answerBoolean: false })).toBe(false);
    expect(holds(bool, "is_not_equals", true, { answerBoolean: false })).toBe(true);
    expect(holds(bool, "is_not_equals", "maybe", { answerBoolean: false })).toBe(true);
  });
});

describe("robustness", () => {
  it("unknown condition types never hold and odd inputs do not throw", () => {
    expect(holds(text, "matches_regex", "x", { answerText: "x" })).toBe(false);
    expect(conditionHolds(null as unknown as Condition, text, answer("t", { answerText: "x" }))).toBe(false);
    expect(conditionHolds({ type: "equals", value: "x" }, { ...select, options: null } as unknown as LogicQuestion, answer("s", { answerText: "x" }))).toBe(
      false,
    );
    expect(holds(select, "equals", { a: 1 }, { answerJson: { weird: true } })).toBe(false);
  });
});
