import { validateEmployee } from "@insp/contracts";
import type { InputRecord } from "../input/types.ts";
import type { MappedRecord } from "../mapping/apply.ts";
import type { ReportEntry } from "../report/errors-csv.ts";
import type { EmployeeInput } from "../types.ts";

export const MAX_BATCH_SIZE = 500;
/** A batch also ends after this many rows read, valid or not: a wrong mapping that refuses every row must not gather millions of them in one batch. */
const MAX_ROWS_PER_BATCH = 5_000;

/** A run of consecutive input rows whose valid employees go out in one request. */
export interface Batch {
  /** 1-based within the run; part of the Idempotency-Key. */
  no: number;
  firstRow: number;
  lastRow: number;
  /** Input bytes read up to the batch's last row. */
  endOffset: number;
  employees: EmployeeInput[];
  /** Row number and (trimmed) externalEmployeeId of each employee sent, in order. */
  sent: { row: number; id: string }[];
  /** Rows refused before sending, and mapping warnings, found while reading. */
  local: ReportEntry[];
  /** Rows of the batch that had an error found locally. */
  localErrors: number;
}

export interface BatchingOptions {
  /** First row to read (rows before it were settled by an earlier run). */
  startRow: number;
  /** Number of the first batch made here. */
  startBatchNo: number;
  batchSize: number;
  map: (data: Record<string, unknown>) => MappedRecord;
}

/**
 * Groups the input into batches of `batchSize` valid employees (or MAX_ROWS_PER_BATCH rows). Invalid rows are checked with
 * the server's own validateEmployee, so they get the server's message and are never sent. A
 * batch depends only on the rows from its first one, so a resumed run that starts at a batch
 * boundary makes the same batches again, and their Idempotency-Keys match the same bodies.
 */
export async function* makeBatches(records: AsyncIterable<InputRecord>, opts: BatchingOptions): AsyncGenerator<Batch> {
  const size = Math.min(Math.max(1, opts.batchSize), MAX_BATCH_SIZE);
  let no = opts.startBatchNo;
  let batch: Batch | null = null;
  for await (const rec of records) {
    if (rec.row < opts.startRow) continue;
    batch ??= { no, firstRow: rec.row, lastRow: rec.row, endOffset: rec.offset, employees: [], sent: [], local: [], localErrors: 0 };
    batch.lastRow = rec.row;
    batch.endOffset = rec.offset;
    if (!rec.data) {
      batch.local.push({ row: rec.row, externalEmployeeId: null, kind: "error", message: rec.error ?? "Unreadable record" });
      batch.localErrors++;
    } else {
      const mapped = opts.map(rec.data);
      const v = validateEmployee(mapped.employee);
      const id = v.ok ? v.employee.externalEmployeeId : v.externalEmployeeId;
      if (!v.ok) {
        batch.local.push({ row: rec.row, externalEmployeeId: id, kind: "error", message: v.message });
        batch.localErrors++;
      } else {
        batch.employees.push(mapped.employee as EmployeeInput);
        batch.sent.push({ row: rec.row, id: v.employee.externalEmployeeId });
      }
      for (const w of mapped.warnings) batch.local.push({ row: rec.row, externalEmployeeId: id, kind: "warning", message: w });
    }
    if (batch.employees.length >= size || batch.lastRow - batch.firstRow + 1 >= MAX_ROWS_PER_BATCH) {
      yield batch;
      batch = null;
      no++;
    }
  }
  if (batch) yield batch;
}
