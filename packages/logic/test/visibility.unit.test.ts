import { describe, expect, it } from "vitest";
import { visibleQuestions } from "../src/index.ts";
import { answer, answerMap, opts, question, rule, template } from "./fixtures.ts";

const a = question("a", "SELECT", { options: opts("yes", "no") });
const b = question("b", "NUMBER");
const c = question("c", "TEXT");
const chain = template([a, b, c], [rule("a", "b", "equals", "yes"), rule("b", "c", "greater_than", 10)]);

describe("visibleQuestions", () => {
  it("shows untargeted questions and hides targeted ones without answers", () => {
    expect(visibleQuestions(chain, new Map())).toEqual(new Set(["a"]));
  });

  it("walks a three-level chain", () => {
    expect(visibleQuestions(chain, answerMap(answer("a", { answerText: "yes" })))).toEqual(new Set(["a", "b"]));
    expect(visibleQuestions(chain, answerMap(answer("a", { answerText: "yes" }), answer("b", { answerNumber: 11 })))).toEqual(new Set(["a", "b", "c"]));
    expect(visibleQuestions(chain, answerMap(answer("a", { answerText: "yes" }), answer("b", { answerNumber: 9 })))).toEqual(new Set(["a", "b"]));
  });

  it("hiding a parent hides the subtree even when deeper conditions hold", () => {
    expect(visibleQuestions(chain, answerMap(answer("a", { answerText: "no" }), answer("b", { answerNumber: 11 })))).toEqual(new Set(["a"]));
  });

  it("several rules on one target are OR-ed", () => {
    const x = question("x", "BOOLEAN");
    const y = question("y", "TEXT");
    const t = template([x, y, c], [rule("x", "c", "equals", true), rule("y", "c", "equals", "go")]);
    expect(visibleQuestions(t, answerMap(answer("x", { answerBoolean: false })))).toEqual(new Set(["x", "y"]));
    expect(visibleQuestions(t, answerMap(answer("x", { answerBoolean: true })))).toEqual(new Set(["x", "y", "c"]));
    expect(visibleQuestions(t, answerMap(answer("x", { answerBoolean: false }), answer("y", { answerText: "go" })))).toEqual(new Set(["x", "y", "c"]));
  });

  it("a question shown by a visible parent stays visible when another parent is hidden", () => {
    const t = template([a, b, c], [rule("a", "b", "equals", "yes"), rule("b", "c", "is_not_empty"), rule("a", "c", "equals", "no")]);
    expect(visibleQuestions(t, answerMap(answer("a", { answerText: "no" })))).toEqual(new Set(["a", "c"]));
  });

  it("hides questions on a cycle and what only they show", () => {
    const d = question("d", "TEXT");
    const t = template(
      [a, b, c, d],
      [rule("a", "b", "is_not_empty"), rule("b", "c", "is_empty"), rule("c", "b", "is_empty"), rule("c", "d", "is_empty"), rule("d", "d", "is_empty")],
    );
    expect(visibleQuestions(t, answerMap(answer("a", { answerText: "yes" })))).toEqual(new Set(["a"]));
  });

  it("ignores rules naming unknown questions and never throws", () => {
    const t = template([a, c], [rule("ghost", "c", "equals", "x"), rule("a", "ghost", "equals", "x")]);
    expect(visibleQuestions(t, new Map())).toEqual(new Set(["a", "c"]));
    expect(visibleQuestions({} as never, null as never)).toEqual(new Set());
  });
});
