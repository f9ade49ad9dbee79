import { describe, expect, it } from "vitest";
import { MAX_REPORTED_CYCLES, validateLogicGraph } from "../src/index.ts";
import type { LogicTemplate } from "../src/index.ts";
import { opts, question, rule, template } from "./fixtures.ts";

const sel = question("sel", "SELECT", { options: opts("yes", "no") });
const multi = question("multi", "MULTI_SELECT", { options: opts("a", "b") });
const txt = question("txt", "TEXT");
const num = question("num", "NUMBER");
const dt = question("dt", "DATE");
const bool = question("bool", "BOOLEAN");
const end = question("end", "TEXT");
const all = [sel, multi, txt, num, dt, bool, end];

describe("validateLogicGraph", () => {
  it("accepts a valid graph", () => {
    const t = template(all, [
      rule("sel", "txt", "equals", "yes"),
      rule("sel", "num", "is_one_of", "opt-yes, no"),
      rule("multi", "dt", "is_selected", "a"),
      rule("num", "dt", "greater_than", "10"),
      rule("num", "bool", "is_not_one_of", [1, "2"]),
      rule("dt", "bool", "less_than", "2024-01-01T10:00:00Z"),
      rule("txt", "bool", "is_not_empty"),
      rule("bool", "end", "equals", "yes"),
    ]);
    expect(validateLogicGraph(t)).toEqual([]);
  });

  it("reports duplicate keys and ids", () => {
    const t = template([sel, { ...txt, key: "sel" }, { ...num, id: "sel", key: "other" }]);
    expect(validateLogicGraph(t)).toEqual(["Duplicate question id 'sel'", "Duplicate question key 'sel'"]);
  });

  it("reports a rule targeting its own source", () => {
    expect(validateLogicGraph(template([txt], [rule("txt", "txt", "is_not_empty")]))).toEqual(["Rule on question 'txt' targets its own source question"]);
  });

  it("reports each cycle with its path, at any depth", () => {
    const a = question("a", "TEXT");
    const b = question("b", "TEXT");
    const c = question("c", "TEXT");
    const d = question("d", "TEXT", { key: null, text: "Is it d?" });
    const t = template(
      [a, b, c, d],
      [
        rule("a", "b", "is_not_empty"),
        rule("b", "a", "is_empty"),
        rule("b", "c", "is_not_empty"),
        rule("c", "d", "is_not_empty"),
        rule("d", "a", "is_not_empty"),
      ],
    );
    expect(validateLogicGraph(t)).toEqual(["Logic cycle: a -> b -> a", "Logic cycle: a -> b -> c -> 'Is it d?' -> a"]);
  });

  it("lists a bounded number of cycles", () => {
    const n = 12;
    const qs = Array.from({ length: n }, (_, i) => question(`q${i}`, "TEXT"));
    const rules = qs.flatMap((a) => qs.filter((b) => b !== a).map((b) => rule(a.id, b.id, "is_not_empty")));
    const problems = validateLogicGraph(template(qs, rules));
    expect(problems).toHaveLength(MAX_REPORTED_CYCLES + 1);
    expect(problems.at(-1)).toMatch(/More logic cycles/);
  });

  it("reports unknown and missing condition types", () => {
    const t: LogicTemplate = template(
      [txt, num],
      [rule("txt", "num", "matches_regex", "x"), { id: "r", sourceQuestionId: "txt", targetQuestionId: "num", condition: {} as never }],
    );
    const problems = validateLogicGraph(t);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^Unknown condition type 'matches_regex' in rule from 'txt' to 'num'; allowed: equals, is_selected/);
    expect(problems[1]).toMatch(/^Missing condition type in rule from 'txt' to 'num'/);
  });

  it("reports operators not allowed for the source's input type", () => {
    const t = template(all, [
      rule("sel", "txt", "greater_than", 1),
      rule("txt", "num", "is_selected", "x"),
      rule("dt", "num", "is_one_of", "2024-01-01"),
      rule("bool", "num", "less_than", true),
      rule("num", "end", "is_not_selected", "1"),
      rule({ ...sel }.id, "txt", "less_than", 1),
    ]);
    expect(validateLogicGraph(t)).toEqual([
      "Condition 'greater_than' cannot be used on SELECT question 'sel'",
      "Condition 'is_selected' cannot be used on TEXT question 'txt'",
      "Condition 'is_one_of' cannot be used on DATE question 'dt'",
      "Condition 'less_than' cannot be used on BOOLEAN question 'bool'",
      "Condition 'is_not_selected' cannot be used on NUMBER question 'num'",
      "Condition 'less_than' cannot be used on SELECT question 'sel'",
    ]);
  });

  it("names a keyless question by its quoted text", () => {
    const q = question("x", "radio", { key: null, text: "Pick one" });
    expect(validateLogicGraph(template([q, txt], [rule("x", "txt", "greater_than", 1)]))).toEqual([
      "Condition 'greater_than' cannot be used on RADIO question 'Pick one'",
    ]);
  });

  it("reports choice values that match no option", () => {
    const t = template(all, [
      rule("sel", "txt", "equals", "maybe"),
      rule("multi", "txt", "is_one_of", "a, c, d"),
      rule("sel", "num", "is_not_selected", "opt-no"),
    ]);
    expect(validateLogicGraph(t)).toEqual([
      "Condition 'equals' in rule from 'sel' to 'txt': value 'maybe' matches no option value or id of question 'sel'",
      "Condition 'is_one_of' in rule from 'multi' to 'txt': values 'c', 'd' match no option value or id of question 'multi'",
    ]);
  });

  it("reports missing values", () => {
    const t = template(all, [
      rule("sel", "txt", "equals"),
      rule("txt", "num", "is_one_of", " , "),
      rule("num", "dt", "greater_than", null),
      rule("txt", "dt", "is_empty"),
    ]);
    expect(validateLogicGraph(t)).toEqual([
      "Condition 'equals' in rule from 'sel' to 'txt' needs a value",
      "Condition 'is_one_of' in rule from 'txt' to 'num' needs a value",
      "Condition 'greater_than' in rule from 'num' to 'dt' needs a value",
    ]);
  });

  it("reports values that do not fit NUMBER, DATE and BOOLEAN sources", () => {
    const t = template(all, [
      rule("num", "txt", "greater_than", "ten"),
      rule("num", "txt", "less_than", "1O"),
      rule("dt", "txt", "less_than", "2024-02-30"),
      rule("dt", "txt", "equals", "01/02/2024"),
      rule("bool", "txt", "equals", "maybe"),
    ]);
    expect(validateLogicGraph(t)).toEqual([
      "Condition 'greater_than' in rule from 'num' to 'txt': value 'ten' is not a number",
      "Condition 'less_than' in rule from 'num' to 'txt': value '1O' is not a number",
      "Condition 'less_than' in rule from 'dt' to 'txt': value '2024-02-30' is not an ISO 8601 date or date-time",
      "Condition 'equals' in rule from 'dt' to 'txt': value '01/02/2024' is not an ISO 8601 date or date-time",
      "Condition 'equals' in rule from 'bool' to 'txt': value 'maybe' is not true, false, yes or no",
    ]);
  });

  it("skips rules whose source or target is unknown and never throws", () => {
    expect(validateLogicGraph(template([txt], [rule("txt", "nope", "bogus"), rule("nope", "txt", "bogus")]))).toEqual([]);
    expect(validateLogicGraph({} as LogicTemplate)).toEqual([]);
    expect(validateLogicGraph({ questions: [null, 1, { id: 3 }], rules: [null, "x"] } as unknown as LogicTemplate)).toEqual([]);
  });
});
