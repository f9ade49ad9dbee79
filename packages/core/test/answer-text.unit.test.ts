import { describe, expect, it } from "vitest";
import { answerText, optionLabels, type AnswerText, type AnswerValues } from "../src/inspections/answer-text.ts";

const blank: AnswerValues = {
  answerText: null,
  answerNumber: null,
  answerBoolean: null,
  answerDate: null,
  answerJson: null,
  responseOptionId: null,
  templateOptionId: null,
  unitId: null,
  note: null,
};
const labels = optionLabels([
  { id: "o1", value: "yes", label: "Yes, fine" },
  { id: "o2", value: "no", label: "No, broken" },
  { id: "o3", value: "leak", label: "Oil leak" },
  // An option whose value is another option's id: the id wins, as in the logic engine.
  { id: "o4", value: "o1", label: "Shadowed" },
]);
const none = optionLabels([]);

// [response kind, what was answered, question's options, text]
const cases: [string, Partial<AnswerValues>, typeof labels, AnswerText][] = [
  ["single choice by template option id", { templateOptionId: "o2" }, labels, "No, broken"],
  ["single choice by response option id", { responseOptionId: "o3" }, labels, "Oil leak"],
  ["single choice by value in answerText", { answerText: "yes" }, labels, "Yes, fine"],
  ["single choice by id in answerText, trimmed", { answerText: " o2 " }, labels, "No, broken"],
  ["single choice, id before value", { answerText: "o1" }, labels, "Yes, fine"],
  ["single choice naming no option", { templateOptionId: "gone" }, labels, "gone"],
  ["multiple choice, ids and values, in the order answered", { answerJson: ["o3", "no"] }, labels, "Oil leak; No, broken"],
  ["multiple choice, one token as a string", { answerJson: "leak" }, labels, "Oil leak"],
  ["multiple choice, none chosen", { answerJson: [] }, labels, null],
  ["number", { answerNumber: 37.25 }, none, 37.25],
  ["number zero", { answerNumber: 0 }, none, 0],
  ["negative number", { answerNumber: -4 }, none, -4],
  ["number with a unit", { answerNumber: 21.5, unitId: "celsius" }, none, "21.5 celsius"],
  ["yes/no: yes", { answerBoolean: true }, none, "Yes"],
  ["yes/no: no", { answerBoolean: false }, none, "No"],
  ["date", { answerDate: "2026-03-01" }, none, "2026-03-01"],
  ["date-time in UTC", { answerDate: "2026-03-01T09:30:00Z" }, none, "2026-03-01T09:30:00.000Z"],
  ["date-time with an offset, in UTC", { answerDate: "2026-03-01T10:30:00+01:00" }, none, "2026-03-01T09:30:00.000Z"],
  ["date-time without an offset, read as UTC", { answerDate: "2026-03-01T09:30" }, none, "2026-03-01T09:30:00.000Z"],
  ["date that does not parse, as answered", { answerDate: "soon" }, none, "soon"],
  ["text", { answerText: "Mast chain worn" }, none, "Mast chain worn"],
  ["text that looks like an option of another question", { answerText: "o1" }, none, "o1"],
  ["other JSON", { answerJson: { lat: 1 } }, none, '{"lat":1}'],
  ["no value", {}, none, null],
];

describe("an answer as text (exports and the PDF report)", () => {
  it.each(cases)("%s", (_kind, answered, labelOf, expected) => {
    expect(answerText({ ...blank, ...answered }, labelOf)).toBe(expected);
  });

  it("a note stays out unless asked inline, then follows the value after ' | note: '", () => {
    expect(answerText({ ...blank, answerBoolean: false, note: "Left fork bent" }, none)).toBe("No");
    expect(answerText({ ...blank, answerBoolean: false, note: "Left fork bent" }, none, { note: "inline" })).toBe("No | note: Left fork bent");
    expect(answerText({ ...blank, answerNumber: 3, note: "estimated" }, none, { note: "inline" })).toBe("3 | note: estimated");
    expect(answerText({ ...blank, note: "Could not reach it" }, none, { note: "inline" })).toBe("note: Could not reach it");
    expect(answerText({ ...blank, answerNumber: 3 }, none, { note: "inline" })).toBe(3);
  });
});
