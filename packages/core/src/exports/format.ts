/**
 * How export cells are written (docs/exports.md): CSV per RFC 4180 (every field quoted when it
 * holds a comma, a quote, CR or LF; quotes doubled; CRLF between records), and text that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or CR) prefixed with an
 * apostrophe. Numbers are written as numbers (a negative score keeps its minus sign).
 */
export type Cell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that would start a formula gets a leading apostrophe (OWASP "CSV injection"). */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvField(cell: Cell): string {
  if (cell === null) return "";
  const text = typeof cell === "string" ? neutralizeFormula(cell) : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, with its CRLF. */
export function csvRecord(cells: Cell[]): string {
  return cells.map(csvField).join(",") + "\r\n";
}
