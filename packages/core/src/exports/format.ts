/**
 * How export cells are written (docs/exports.md): CSV per RFC 4180 (quotes doubled, CRLF between
 * records), every text field enclosed in quotes, and text that a spreadsheet would run as a
 * formula (starting with = + - @, a tab or CR) prefixed with an apostrophe. Numbers and booleans
 * are written bare (a negative score keeps its minus sign); null is an empty field.
 *
 * Text is quoted even without a comma, a quote or a line break in it: spreadsheets in locales
 * whose list separator is ";" split an unquoted field at its semicolons, so `x;=1+1` would open
 * as two cells, the second a live formula that the apostrophe (on the whole field) did not cover.
 */
export type Cell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that would start a formula gets a leading apostrophe (OWASP "CSV injection"). */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvField(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell !== "string") return String(cell);
  return `"${neutralizeFormula(cell).replaceAll('"', '""')}"`;
}

/** One CSV record, with its CRLF. */
export function csvRecord(cells: Cell[]): string {
  return cells.map(csvField).join(",") + "\r\n";
}
