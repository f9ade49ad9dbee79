import { open, type FileHandle } from "node:fs/promises";
import { stringify } from "csv-stringify/sync";

export interface ReportEntry {
  /** 1-based data row of the input. */
  row: number;
  externalEmployeeId: string | null;
  kind: "error" | "warning";
  message: string;
}

const ERRORS_CSV_COLUMNS = ["row", "externalEmployeeId", "kind", "message"] as const;

/**
 * The errors and warnings CSV, appended to as batches are acknowledged, so a killed run keeps
 * what it wrote. `keepBytes` cuts the file back to what the last saved state accounted for:
 * rows written for a batch whose acknowledgement never reached the state file are written again
 * by the resumed run, and must not appear twice.
 */
export class ErrorsCsv {
  private constructor(
    readonly path: string,
    private fh: FileHandle,
    private size: number,
  ) {}

  static async open(path: string, keepBytes: number | null): Promise<ErrorsCsv> {
    const fh = await open(path, keepBytes === null ? "w" : "a+");
    let size = (await fh.stat()).size;
    if (keepBytes !== null && size > keepBytes) {
      await fh.truncate(keepBytes);
      size = keepBytes;
    }
    const csv = new ErrorsCsv(path, fh, size);
    if (size === 0) await csv.write(stringify([[...ERRORS_CSV_COLUMNS]]));
    return csv;
  }

  /** Bytes written so far (what the state file records). */
  get bytes(): number {
    return this.size;
  }

  async append(entries: ReportEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // escape_formulas: a cell the HR system filled with "=…", "+…", "-…" or "@…" gets a leading
    // quote, so a spreadsheet opening the report never runs it as a formula.
    await this.write(
      stringify(
        entries.map((e) => [e.row, e.externalEmployeeId ?? "", e.kind, e.message]),
        { escape_formulas: true },
      ),
    );
  }

  private async write(text: string): Promise<void> {
    const buf = Buffer.from(text, "utf8");
    // "a+" appends wherever the position is; the explicit position keeps `size` exact after a truncate.
    await this.fh.write(buf, 0, buf.length, this.size);
    this.size += buf.length;
    // On disk before the state that counts these bytes is written.
    await this.fh.datasync();
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
