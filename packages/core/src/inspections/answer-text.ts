import { parseIsoDate } from "@insp/logic";

/**
 * An answer as a person reads it, one rule for every place that shows answers as text: the CSV
 * and XLSX exports (exports/columns.ts) and the PDF report (the worker's inspection-report job).
 * The rule is written down in docs/exports.md (Columns) and docs/reports.md.
 */

/** The stored values of an answer that its text is made from. */
export interface AnswerValues {
  answerText: string | null;
  answerNumber: number | null;
  answerBoolean: boolean | null;
  answerDate: string | null;
  answerJson: unknown;
  responseOptionId: string | null;
  templateOptionId: string | null;
  unitId: string | null;
  note: string | null;
}

/** The label of the question's option a token names (its id or its value); undefined when it names none. */
export type OptionLabel = (token: string) => string | undefined;

/**
 * A number without a unit stays a number, so a spreadsheet gets a number cell; null is no value
 * (an empty cell, `-` in a report).
 */
export type AnswerText = string | number | null;

/** The separator between the labels of several chosen options. */
const OPTIONS_SEPARATOR = "; ";

/**
 * The answer's value as text:
 * - a chosen option (templateOptionId, responseOptionId, or a token in answerText or answerJson)
 *   is its label; a token that names no option of the question is written as it is;
 * - several options: their labels joined with "; ", in the order answered; none chosen: no value;
 * - a number as given, then its unit after a space when it has one (`21.5 celsius`);
 * - yes/no as `Yes` or `No`;
 * - a date as its day (`2026-03-01`), a date-time as ISO 8601 in UTC (`2026-03-01T09:30:00.000Z`,
 *   as every timestamp of the API, the exports and the webhooks), whatever offset it was given in;
 * - text as written; any other JSON as JSON.
 * With `note: "inline"` a note follows the value after ` | note: ` (a spreadsheet cell has no
 * second line); without it the caller shows the note itself (the report prints it under the answer).
 */
export function answerText(a: AnswerValues, labelOf: OptionLabel, opts: { note?: "inline" } = {}): AnswerText {
  const value = valueText(a, labelOf);
  if (opts.note !== "inline" || !a.note) return value;
  return value === null ? `note: ${a.note}` : `${value} | note: ${a.note}`;
}

function valueText(a: AnswerValues, labelOf: OptionLabel): AnswerText {
  const label = (token: unknown) => (typeof token === "string" ? (labelOf(token.trim()) ?? token) : JSON.stringify(token));
  const option = a.templateOptionId ?? a.responseOptionId;
  if (option !== null) return label(option);
  if (Array.isArray(a.answerJson)) return a.answerJson.length ? a.answerJson.map(label).join(OPTIONS_SEPARATOR) : null;
  if (a.answerNumber !== null) return a.unitId ? `${a.answerNumber} ${a.unitId}` : a.answerNumber;
  if (a.answerBoolean !== null) return a.answerBoolean ? "Yes" : "No";
  if (a.answerDate !== null) return dateText(a.answerDate);
  if (a.answerText !== null) return labelOf(a.answerText.trim()) ?? a.answerText;
  if (a.answerJson === null || a.answerJson === undefined) return null;
  return typeof a.answerJson === "string" ? label(a.answerJson) : JSON.stringify(a.answerJson);
}

/** A date answer: its day, or its instant in UTC; a value that does not parse, as answered. */
function dateText(answered: string): string {
  const d = parseIsoDate(answered);
  if (!d) return answered;
  const iso = new Date(d.instant).toISOString();
  return d.dateOnly ? iso.slice(0, 10) : iso;
}

/** An OptionLabel over a question's options: by id first, then by value (as the logic engine resolves choices). */
export function optionLabels(options: readonly { id: string; value: string; label: string }[]): OptionLabel {
  return (token) => (options.find((o) => o.id === token) ?? options.find((o) => o.value === token))?.label;
}
