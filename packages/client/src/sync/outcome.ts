import type { ReportEntry } from "../report/errors-csv.ts";
import type { SyncResponse } from "../types.ts";
import type { Batch } from "./batches.ts";

export interface BatchOutcome {
  /** Every error and warning of the batch's rows, local and from the server, in row order. */
  entries: ReportEntry[];
  created: number;
  updated: number;
  /** Rows with an error (each counted once). */
  errors: number;
  warnings: number;
}

/**
 * Puts the server's answer back on the input rows. The answer lists results and errors in
 * request order, each employee in exactly one of the two lists, so walking the sent
 * employees in order and taking the head of whichever list names that employee's id
 * recovers each row's outcome.
 */
export function batchOutcome(batch: Batch, answer: SyncResponse | null): BatchOutcome {
  const entries = [...batch.local];
  let created = 0;
  let updated = 0;
  let errors = batch.localErrors;
  let ri = 0;
  let ei = 0;
  const results = answer?.results ?? [];
  const errs = answer?.errors ?? [];
  for (const { row, id } of batch.sent) {
    const r = results[ri];
    const e = errs[ei];
    const useResult = r && (r.externalEmployeeId === id || !(e && e.externalEmployeeId === id));
    if (useResult) {
      ri++;
      if (r.status === "CREATED") created++;
      else updated++;
      for (const w of r.warnings) entries.push({ row, externalEmployeeId: id, kind: "warning", message: w });
    } else if (e) {
      ei++;
      errors++;
      entries.push({ row, externalEmployeeId: id, kind: "error", message: e.message });
    } else {
      errors++;
      entries.push({ row, externalEmployeeId: id, kind: "error", message: "The service's answer has no outcome for this employee" });
    }
  }
  // Stable: for one row, its error comes before its warnings as they were found.
  entries.sort((a, b) => a.row - b.row);
  return { entries, created, updated, errors, warnings: entries.filter((x) => x.kind === "warning").length };
}
