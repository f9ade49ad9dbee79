import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvRecord, neutralizeFormula } from "../src/exports/format.ts";

describe("export CSV records (RFC 4180)", () => {
  it("quotes every text field, doubles quotes, ends with CRLF; null is empty, numbers and booleans stay bare", () => {
    expect(csvRecord(["plain", 'a, "b"', "two\nlines", "cr\rhere", "", null, 42, -1.5, true])).toBe(
      '"plain","a, ""b""","two\nlines","cr\rhere","",,42,-1.5,true\r\n',
    );
  });

  it("a field with a semicolon stays one quoted field, so a ';'-separated spreadsheet cannot split off a formula", () => {
    expect(csvRecord(["x;=1+1", "a;b"])).toBe('"x;=1+1","a;b"\r\n');
    // Read with ";" as the separator, as such a spreadsheet does: one cell each, neither a formula.
    expect(parse(csvRecord(["x;=1+1"]), { delimiter: ";" })).toEqual([["x;=1+1"]]);
  });

  it("puts an apostrophe before text a spreadsheet would run as a formula, and only there", () => {
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(neutralizeFormula(text)).toBe(`'${text}`);
    for (const text of ["1+1", "a=b", "", "'=x", " =x"]) expect(neutralizeFormula(text)).toBe(text);
    expect(csvRecord(['=HYPERLINK("x")'])).toBe('"\'=HYPERLINK(""x"")"\r\n');
  });

  it("a CSV parser reads back what was written (formula-looking text behind its apostrophe)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: "grapheme", maxLength: 12 }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const width = rows[0]!.length;
          const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? "x"));
          const back: string[][] = parse(table.map((r) => csvRecord(r)).join(""), { relax_column_count: false });
          expect(back).toEqual(table.map((r) => r.map(neutralizeFormula)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
