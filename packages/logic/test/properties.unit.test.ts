import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CONDITION_TYPES, MAX_REPORTED_CYCLES, conditionHolds, hasValue, validateAnswers, validateLogicGraph, visibleQuestions } from "../src/index.ts";
import type { AnswerInput, Condition, LogicQuestion, LogicRule, LogicTemplate } from "../src/index.ts";
import { opts } from "./fixtures.ts";

const INPUT_TYPES = ["SELECT", "MULTI_SELECT", "TEXT", "NUMBER", "DATE", "BOOLEAN", "radio", "photo"] as const;

const inputTypeArb = fc.constantFrom(...INPUT_TYPES);
const textArb = fc.constantFrom("", " ", "v0", "opt-v1", "v2", "3", "-1.5", "2024-05-01", "2024-05-01T10:00:00Z", "true", "false", "x", "v0,v1");
const answerArb: fc.Arbitrary<Omit<AnswerInput, "questionId">> = fc.record(
  {
    answerText: fc.option(textArb),
    answerNumber: fc.option(fc.constantFrom(0, 3, -1.5, 10, Number.NaN)),
    answerBoolean: fc.option(fc.boolean()),
    answerDate: fc.option(fc.constantFrom("2024-05-01", "2024-05-01T10:00:00Z", "2024-04-30T23:00:00-02:00", "bad")),
    answerJson: fc.option(fc.oneof(fc.constant([]), fc.array(fc.constantFrom("v0", "opt-v2", "zz", 3)), fc.constant("v1"), fc.constant({ a: 1 }))),
    responseOptionId: fc.option(fc.constantFrom("opt-v0", "opt-v1", "v2", "nope")),
    templateOptionId: fc.option(fc.constantFrom("opt-v0", "v1")),
  },
  { requiredKeys: [] },
);
const conditionValueArb = fc.oneof(
  textArb,
  fc.integer({ min: -2, max: 12 }),
  fc.boolean(),
  fc.array(fc.oneof(textArb, fc.integer({ min: -2, max: 4 })), { maxLength: 3 }),
  fc.constantFrom(null, undefined, { odd: true }),
);
const conditionArb = fc.record({ type: fc.constantFrom(...CONDITION_TYPES, "bogus"), value: conditionValueArb });

function makeQuestion(i: number, inputType: string, required = false): LogicQuestion {
  return { id: `q${i}`, key: `q${i}`, text: `Question ${i}`, inputType, required, options: opts("v0", "v1", "v2") };
}

interface Built {
  template: LogicTemplate;
  answers: Map<string, AnswerInput>;
}

/** A random template; `shape` decides which edges may exist. */
function builtArb(shape: "forest" | "dag" | "any"): fc.Arbitrary<Built> {
  return fc.integer({ min: 1, max: 8 }).chain((n) =>
    fc
      .record({
        types: fc.array(inputTypeArb, { minLength: n, maxLength: n }),
        required: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
        parents: fc.array(fc.option(fc.nat()), { minLength: n, maxLength: n }),
        edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), conditionArb), { maxLength: shape === "forest" ? 0 : 14 }),
        conditions: fc.array(conditionArb, { minLength: n, maxLength: n }),
        answers: fc.array(fc.option(answerArb, { nil: undefined }), { minLength: n, maxLength: n }),
      })
      .map(({ types, required, parents, edges, conditions, answers }) => {
        const questions = types.map((t, i) => makeQuestion(i, t, required[i]));
        const rules: LogicRule[] = [];
        if (shape === "forest") {
          parents.forEach((p, j) => {
            if (j > 0 && p !== null) rules.push({ id: `r${j}`, sourceQuestionId: `q${p % j}`, targetQuestionId: `q${j}`, condition: conditions[j]! });
          });
        } else {
          edges.forEach(([a, b, condition], k) => {
            const [s, t] = shape === "dag" ? [Math.min(a, b), Math.max(a, b)] : [a, b];
            if (shape === "dag" && s === t) return;
            rules.push({ id: `r${k}`, sourceQuestionId: `q${s}`, targetQuestionId: `q${t}`, condition });
          });
        }
        const map = new Map<string, AnswerInput>();
        answers.forEach((a, i) => {
          if (a !== undefined) map.set(`q${i}`, { questionId: `q${i}`, ...a });
        });
        return { template: { questions, rules }, answers: map };
      }),
  );
}

/** Successor lists of the rule graph. */
function successors(t: LogicTemplate): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const r of t.rules) next.set(r.sourceQuestionId, [...(next.get(r.sourceQuestionId) ?? []), r.targetQuestionId]);
  return next;
}

function reachableFrom(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const todo = [...(next.get(start) ?? [])];
  while (todo.length > 0) {
    const v = todo.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    todo.push(...(next.get(v) ?? []));
  }
  return seen;
}

describe("properties", () => {
  it("(1) negative operators are complements of positive ones on answered questions; is_empty/is_not_empty always", () => {
    const pairs = [
      ["equals", "is_not_equals"],
      ["is_selected", "is_not_selected"],
      ["is_one_of", "is_not_one_of"],
    ] as const;
    fc.assert(
      fc.property(inputTypeArb, answerArb, conditionValueArb, (inputType, fields, value) => {
        const q = makeQuestion(0, inputType);
        const a = { questionId: "q0", ...fields };
        expect(conditionHolds({ type: "is_empty", value }, q, a)).not.toBe(conditionHolds({ type: "is_not_empty", value }, q, a));
        if (!hasValue(a)) {
          for (const [pos, neg] of pairs) expect(conditionHolds({ type: pos, value }, q, a) || conditionHolds({ type: neg, value }, q, a)).toBe(false);
          return;
        }
        for (const [pos, neg] of pairs) expect(conditionHolds({ type: pos, value }, q, a)).not.toBe(conditionHolds({ type: neg, value }, q, a));
      }),
      { numRuns: 2000 },
    );
  });

  it("(2) transitive hiding: in a rule forest everything reachable from a hidden question is hidden", () => {
    fc.assert(
      fc.property(builtArb("forest"), ({ template, answers }) => {
        const visible = visibleQuestions(template, answers);
        const next = successors(template);
        for (const q of template.questions) {
          if (visible.has(q.id)) continue;
          for (const r of reachableFrom(q.id, next)) expect(visible.has(r)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("(2b) on any graph, visibility is the fixed point: off-cycle, and untargeted or shown by a holding rule from a visible source", () => {
    fc.assert(
      fc.property(builtArb("any"), ({ template, answers }) => {
        const visible = visibleQuestions(template, answers);
        const next = successors(template);
        const byId = new Map(template.questions.map((q) => [q.id, q]));
        for (const q of template.questions) {
          const onCycle = reachableFrom(q.id, next).has(q.id);
          const rules = template.rules.filter((r) => r.targetQuestionId === q.id);
          const shown =
            rules.length === 0 ||
            rules.some(
              (r) =>
                visible.has(r.sourceQuestionId) && conditionHolds(r.condition as Condition, byId.get(r.sourceQuestionId)!, answers.get(r.sourceQuestionId)),
            );
          expect(visible.has(q.id)).toBe(!onCycle && shown);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("(3) order independence: shuffling rules and questions gives the same visible set and the same answer problems", () => {
    const arb = builtArb("any").chain((b) =>
      fc.tuple(
        fc.constant(b),
        fc.shuffledSubarray(b.template.questions, { minLength: b.template.questions.length, maxLength: b.template.questions.length }),
        fc.shuffledSubarray(b.template.rules, { minLength: b.template.rules.length, maxLength: b.template.rules.length }),
      ),
    );
    fc.assert(
      fc.property(arb, ([{ template, answers }, questions, rules]) => {
        const expected = visibleQuestions(template, answers);
        expect(visibleQuestions({ questions, rules }, answers)).toEqual(expected);
        expect(visibleQuestions({ questions: template.questions, rules }, answers)).toEqual(expected);
        const list = [...answers.values()];
        const sorted = (xs: string[]): string[] => [...xs].sort();
        expect(sorted(validateAnswers({ questions: template.questions, rules }, list, { requireRequired: true }))).toEqual(
          sorted(validateAnswers(template, list, { requireRequired: true })),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("(4) a graph with a cycle yields cycle messages, one per elementary cycle; an acyclic graph yields none", () => {
    const graphArb = fc
      .integer({ min: 1, max: 6 })
      .chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 16, selector: ([a, b]) => `${a}>${b}` })));
    fc.assert(
      fc.property(graphArb, ([n, pairs]) => {
        const edges = pairs.filter(([a, b]) => a !== b);
        const questions = Array.from({ length: n }, (_, i) => makeQuestion(i, "TEXT"));
        const rules = edges.map(([a, b], k) => ({ id: `r${k}`, sourceQuestionId: `q${a}`, targetQuestionId: `q${b}`, condition: { type: "is_not_empty" } }));
        const t = { questions, rules };
        const problems = validateLogicGraph(t);
        const next = successors(t);
        const hasCycle = questions.some((q) => reachableFrom(q.id, next).has(q.id));
        const cycleMessages = problems.filter((p) => p.startsWith("Logic cycle: "));
        expect(cycleMessages.length > 0).toBe(hasCycle);
        // every listed path is a real, elementary cycle
        const edgeSet = new Set(edges.map(([a, b]) => `q${a}>q${b}`));
        const seen = new Set<string>();
        for (const m of cycleMessages) {
          const path = m.slice("Logic cycle: ".length).split(" -> ");
          expect(path[0]).toBe(path.at(-1));
          expect(new Set(path.slice(1)).size).toBe(path.length - 1);
          for (let i = 0; i + 1 < path.length; i++) expect(edgeSet.has(`${path[i]}>${path[i + 1]}`)).toBe(true);
          const canonical = [...path.slice(1)].sort().join(",") + "|" + path.join(">");
          expect(seen.has(canonical)).toBe(false);
          seen.add(canonical);
        }
        // brute-force count of elementary cycles (each counted once, from its smallest node)
        let count = 0;
        const walk = (start: number, v: number, onPath: Set<number>): void => {
          for (const [a, b] of edges) {
            if (a !== v) continue;
            if (b === start) count++;
            else if (b > start && !onPath.has(b)) walk(start, b, new Set([...onPath, b]));
          }
        };
        for (let s = 0; s < n; s++) walk(s, s, new Set([s]));
        expect(cycleMessages.length).toBe(Math.min(count, MAX_REPORTED_CYCLES));
        expect(problems.length).toBe(cycleMessages.length + (count > MAX_REPORTED_CYCLES ? 1 : 0));
      }),
      { numRuns: 1000 },
    );
  });

  it("(4b) every self-referencing rule is reported", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(5), { minLength: 1 }), (selfs) => {
        const questions = Array.from({ length: 6 }, (_, i) => makeQuestion(i, "TEXT"));
        const rules = selfs.map((i) => ({ id: `s${i}`, sourceQuestionId: `q${i}`, targetQuestionId: `q${i}`, condition: { type: "is_empty" } }));
        const problems = validateLogicGraph({ questions, rules });
        expect(problems).toEqual(selfs.map((i) => `Rule on question 'q${i}' targets its own source question`));
        for (const i of selfs) expect(visibleQuestions({ questions, rules }, new Map()).has(`q${i}`)).toBe(false);
      }),
    );
  });

  it("never throws on values that cannot be turned into text, in any field of a template or an answer", () => {
    // String(), template literals and join throw on these: toString and valueOf not callable, or no prototype at all.
    const traps = () => [
      JSON.parse('{"toString":1,"valueOf":1}'),
      JSON.parse('[{"toString":1,"valueOf":1}]'),
      Object.create(null),
      Object.assign(Object.create(null), { a: Object.create(null) }),
    ];
    const fields = [
      "id",
      "key",
      "text",
      "inputType",
      "optionId",
      "optionValue",
      "optionLabel",
      "ruleId",
      "conditionType",
      "conditionValue",
      "conditionItem",
      "questionId",
    ];
    const answerFields = ["answerText", "answerNumber", "answerBoolean", "answerDate", "answerJson", "answerJsonItem", "responseOptionId", "templateOptionId"];
    for (const inputType of INPUT_TYPES) {
      for (const type of CONDITION_TYPES) {
        for (const field of [...fields, ...answerFields]) {
          for (const trap of traps()) {
            const at = (name: string, v: unknown) => (field === name ? trap : v);
            const source = {
              id: at("id", "a"),
              key: at("key", "ka"),
              text: at("text", "A"),
              inputType: at("inputType", inputType),
              required: true,
              options: [{ id: at("optionId", "o1"), value: at("optionValue", "v1"), label: at("optionLabel", "L") }],
            };
            const value = field === "conditionItem" ? ["v1", trap] : at("conditionValue", "v1");
            const template = {
              questions: [source, makeQuestion(1, "TEXT", true)],
              rules: [{ id: at("ruleId", "r"), sourceQuestionId: "a", targetQuestionId: "q1", condition: { type: at("conditionType", type), value } }],
            } as unknown as LogicTemplate;
            const answer = Object.fromEntries(answerFields.filter((f) => f !== "answerJsonItem").map((f) => [f, at(f, undefined)]));
            if (field === "answerJsonItem") answer.answerJson = ["v1", trap];
            if (Object.values(answer).every((v) => v === undefined)) answer.answerText = "v1";
            const answers = [
              { ...answer, questionId: at("questionId", "a") },
              { questionId: "q1", answerText: "x" },
            ] as unknown as AnswerInput[];
            const where = `${inputType} ${type} ${field}`;
            expect(() => JSON.stringify(validateLogicGraph(template)), where).not.toThrow();
            expect(() => JSON.stringify(validateAnswers(template, answers, { requireRequired: true })), where).not.toThrow();
            expect(() => visibleQuestions(template, new Map([["a", answers[0]!]])), where).not.toThrow();
          }
        }
      }
    }
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (t, a) => {
        const template = t as LogicTemplate;
        expect(Array.isArray(validateLogicGraph(template))).toBe(true);
        expect(Array.isArray(validateAnswers(template, a as AnswerInput[], { requireRequired: true }))).toBe(true);
        expect(visibleQuestions(template, new Map())).toBeInstanceOf(Set);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        builtArb("any"),
        fc.array(fc.record({ questionId: fc.constantFrom("q0", "q1", "q2", "zz") }).chain((r) => answerArb.map((f) => ({ ...r, ...f })))),
        ({ template }, list) => {
          expect(() => validateAnswers(template, list, { requireRequired: true })).not.toThrow();
          expect(() => validateLogicGraph(template)).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});
