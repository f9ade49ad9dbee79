import { describe, expect, it } from "vitest";
import { reportFileName, type InspectionDetail, type TemplateQuestion } from "@insp/core";
import { answerText } from "../src/jobs/inspection-report/render.ts";

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
const question = { options: [option("o1", "yes", "Yes, fine"), option("o2", "no", "No, broken"), option("o3", "leak", "Oil leak")] } as unknown as TemplateQuestion;

describe("a report's answers as words", () => {
  it("choices by their labels, whether the answer names the option by id or by value", () => {
    expect(answerText({ ...blank, templateOptionId: "o2" }, question)).toBe("No, broken");
    expect(answerText({ ...blank, answerJson: ["o2", "leak"] }, question)).toBe("No, broken; Oil leak");
    expect(answerText({ ...blank, answerText: "yes" }, question)).toBe("Yes, fine");
    expect(answerText({ ...blank, answerJson: [] }, question)).toBe("-");
  });

  it("booleans as Yes/No, numbers as given, dates as a day or a UTC time, text as written", () => {
    expect(answerText({ ...blank, answerBoolean: true }, undefined)).toBe("Yes");
    expect(answerText({ ...blank, answerBoolean: false }, undefined)).toBe("No");
    expect(answerText({ ...blank, answerNumber: 0 }, undefined)).toBe("0");
    expect(answerText({ ...blank, answerNumber: 37.25 }, undefined)).toBe("37.25");
    expect(answerText({ ...blank, answerDate: "2026-03-01" }, undefined)).toBe("2026-03-01");
    expect(answerText({ ...blank, answerDate: "2026-03-01T09:30:00.000Z" }, undefined)).toBe("2026-03-01 09:30 UTC");
    expect(answerText({ ...blank, answerText: "Mast chain worn" }, undefined)).toBe("Mast chain worn");
    expect(answerText(blank, undefined)).toBe("-");
  });
});

describe("a report's file name", () => {
  it("is the inspection number and the template's title in lower case, ASCII only", () => {
    expect(reportFileName({ inspectionNumber: "INS-000042", template: { id: "t", title: "Forklift check", type: "ASSET" } })).toBe("INS-000042-forklift-check.pdf");
    expect(reportFileName({ inspectionNumber: "INS-000043", template: { id: "t", title: "  Prüfung: Gabelstapler / Größe \"XL\"  ", type: "ASSET" } })).toBe("INS-000043-prufung-gabelstapler-grosse-xl.pdf");
    expect(reportFileName({ inspectionNumber: "INS-000044", template: { id: "t", title: "日本語", type: "ASSET" } })).toBe("INS-000044.pdf");
  });
});
