import { describe, expect, it } from "vitest";
import { reportFileName, type InspectionDetail, type TemplateQuestion } from "@insp/core";
import { answerWords } from "../src/jobs/inspection-report/render.ts";

type Answer = InspectionDetail["answers"][number];
const blank: Answer = {
  id: "a",
  questionId: "q",
  answerText: null,
  answerNumber: null,
  answerBoolean: null,
  answerDate: null,
  answerJson: null,
  responseOptionId: null,
  templateOptionId: null,
  unitId: null,
  unitCategory: null,
  note: null,
  flagged: false,
  question: { id: "q", text: "Q" },
  images: [],
  actions: [],
};
const option = (id: string, value: string, label: string) => ({ id, value, label, position: 0, requiresNote: false, requiresPhoto: false, flagged: false });
const question = {
  options: [option("o1", "yes", "Yes, fine"), option("o2", "no", "No, broken"), option("o3", "leak", "Oil leak")],
} as unknown as TemplateQuestion;

describe("a report's answers as words (the rule itself: core's answer-text.unit.test.ts)", () => {
  it("choices by the question's labels, whether the answer names the option by id or by value", () => {
    expect(answerWords({ ...blank, templateOptionId: "o2" }, question)).toBe("No, broken");
    expect(answerWords({ ...blank, answerJson: ["o2", "leak"] }, question)).toBe("No, broken; Oil leak");
    expect(answerWords({ ...blank, answerText: "yes" }, question)).toBe("Yes, fine");
  });

  it("numbers with their unit, dates as a day or a UTC instant, `-` for no value", () => {
    expect(answerWords({ ...blank, answerNumber: 21.5, unitId: "celsius" }, undefined)).toBe("21.5 celsius");
    expect(answerWords({ ...blank, answerNumber: 0 }, undefined)).toBe("0");
    expect(answerWords({ ...blank, answerDate: "2026-03-01" }, undefined)).toBe("2026-03-01");
    expect(answerWords({ ...blank, answerDate: "2026-03-01T10:30:00+01:00" }, undefined)).toBe("2026-03-01T09:30:00.000Z");
    expect(answerWords({ ...blank, answerJson: [] }, question)).toBe("-");
    expect(answerWords(blank, undefined)).toBe("-");
  });

  it("leaves the note out: the report prints it under the answer", () => {
    expect(answerWords({ ...blank, answerBoolean: true, note: "checked twice" }, undefined)).toBe("Yes");
  });
});

describe("a report's file name", () => {
  it("is the inspection number and the template's title in lower case, ASCII only", () => {
    expect(reportFileName({ inspectionNumber: "INS-000042", template: { id: "t", title: "Forklift check", type: "ASSET" } })).toBe(
      "INS-000042-forklift-check.pdf",
    );
    expect(reportFileName({ inspectionNumber: "INS-000043", template: { id: "t", title: '  Prüfung: Gabelstapler / Größe "XL"  ', type: "ASSET" } })).toBe(
      "INS-000043-prufung-gabelstapler-grosse-xl.pdf",
    );
    expect(reportFileName({ inspectionNumber: "INS-000044", template: { id: "t", title: "日本語", type: "ASSET" } })).toBe("INS-000044.pdf");
  });
});
