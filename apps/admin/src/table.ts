/**
 * Rows as a plain text table for a terminal: one line per row, columns padded, every cell whole.
 * console.table, used before, printed nested values as `[Object]` / `[Array]` and cut long lists
 * ("... 10 more items"), which is exactly what an operator listing keys or response types wants
 * to read.
 */
export function formatTable(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(columns), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** A value as one line: dates in ISO 8601, lists of plain values joined with ", ", anything else as JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) return value.join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replace(/\s*\n\s*/g, " ");
}
