import { describe, expect, it } from "vitest";
import { AppError } from "../src/errors.ts";
import { createdMessage, planTemplate, remapOptionIds, type ResponseTypeInfo } from "../src/templates/plan.ts";
import type { CreateTemplateInput } from "../src/templates/types.ts";

const yesNo: ResponseTypeInfo = {
  id: "rt-yn",
  name: "Yes/No",
  inputType: "SELECT",
  options: [
    { id: "rt-yes", label: "Yes", value: "yes", position: 0, requiresNote: false, requiresPhoto: false },
    { id: "rt-no", label: "No", value: "no", position: 1, requiresNote: true, requiresPhoto: true },
  ],
};
const types = new Map([[yesNo.id, yesNo]]);

const ids = () => {
  let n = 0;
  return () => `id${++n}`;
};

const input = (over: Partial<CreateTemplateInput> = {}): CreateTemplateInput => ({
  name: "T",
  type: "AUDIT",
  sections: [
    {
      title: "S",
      questions: [
        { key: "a", text: "A", required: true, responseTypeId: "rt-yn" },
        { key: "b", text: "B", required: false },
      ],
    },
  ],
  questions: [{ text: "Loose", required: false }],
  logicRules: [],
  ...over,
});

const problemsOf = (fn: () => unknown): { message: string; details?: string[] } => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { message: e.message, details: e.details };
    throw e;
  }
  throw new Error("expected an AppError");
};

describe("planTemplate", () => {
  it("copies response-type options with new ids, positions sections and questions, and keeps standalone questions apart", () => {
    const plan = planTemplate(input(), types, ids());
    expect(plan.sections).toEqual([{ id: "id1", title: "S", description: null, position: 0 }]);
    expect(plan.questions.map((q) => [q.key, q.sectionId, q.position, q.inputType])).toEqual([
      ["a", "id1", 0, "SELECT"],
      ["b", "id1", 1, "TEXT"],
      [null, null, 0, "TEXT"],
    ]);
    const a = plan.questions[0]!;
    expect(a.options.map((o) => [o.value, o.requiresNote])).toEqual([
      ["yes", false],
      ["no", true],
    ]);
    expect(a.options.map((o) => o.id)).not.toContain("rt-yes");
  });

  it("binds rules by key, defaults order per source, and skips rules with unknown keys", () => {
    const plan = planTemplate(
      input({
        logicRules: [
          { sourceKey: "a", targetKey: "b", condition: { type: "equals", value: "rt-no" }, actionType: "ask_questions" },
          { sourceKey: "a", targetKey: "zz", condition: { type: "equals", value: "yes" }, actionType: "ask_questions" },
        ],
      }),
      types,
      ids(),
    );
    const [a, b] = plan.questions;
    expect(plan.rules).toEqual([
      {
        id: expect.any(String),
        sourceQuestionId: a!.id,
        targetQuestionId: b!.id,
        conditionType: "equals",
        conditionValue: a!.options[1]!.id,
        actionType: "ask_questions",
        order: 0,
      },
    ]);
    expect(plan.skipped).toEqual([{ index: 1, reason: "targetKey 'zz' matches no question key" }]);
  });

  it("rejects unknown response types before anything else", () => {
    const bad = input({ questions: [{ text: "X", required: false, responseTypeId: "nope" }] });
    expect(problemsOf(() => planTemplate(bad, types, ids()))).toEqual({
      message: "Unknown responseTypeId: 'nope'",
      details: ["questions[0].responseTypeId: 'nope' is not a response type of your organization"],
    });
  });

  it("collects every logic problem in one error", () => {
    const bad = input({
      logicRules: [
        { sourceKey: "a", targetKey: "a", condition: { type: "is_empty" }, actionType: "ask_questions" },
        { sourceKey: "b", targetKey: "a", condition: { type: "is_not_empty" }, actionType: "hide" },
      ],
    });
    const { message, details } = problemsOf(() => planTemplate(bad, types, ids()));
    expect(message).toBe("Invalid template logic");
    expect(details).toEqual([
      "Unsupported actionType 'hide' in rule from 'b' to 'a'; supported: ask_questions, require_note, require_photo, require_action, flag",
      "Rule on question 'a' targets its own source question",
    ]);
  });
});

describe("remapOptionIds", () => {
  const map = new Map([
    ["rt-1", "new-1"],
    ["rt-2", "new-2"],
  ]);
  it("rewrites response-type option ids in scalars, lists and comma-separated strings, and leaves the rest", () => {
    expect(remapOptionIds(" rt-1 ", map)).toBe("new-1");
    expect(remapOptionIds(["rt-2", "yes", 3], map)).toEqual(["new-2", "yes", 3]);
    expect(remapOptionIds("rt-1, yes", map)).toBe("new-1,yes");
    expect(remapOptionIds("a, b", map)).toBe("a, b");
    expect(remapOptionIds(5, map)).toBe(5);
    expect(remapOptionIds("rt-1", undefined)).toBe("rt-1");
  });
});

describe("createdMessage", () => {
  it("says how many rules were skipped and why", () => {
    expect(createdMessage([])).toBe("Template created as DRAFT");
    expect(createdMessage([{ index: 0, reason: "sourceKey 'x' matches no question key" }])).toBe(
      "Template created as DRAFT; 1 logic rule skipped: sourceKey 'x' matches no question key",
    );
    expect(
      createdMessage([
        { index: 0, reason: "r1" },
        { index: 3, reason: "r2" },
      ]),
    ).toBe("Template created as DRAFT; 2 logic rules skipped: r1; r2");
  });
});
