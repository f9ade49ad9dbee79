export type InputFormat = "csv" | "json" | "jsonl";

/** One record of the input, in file order. */
export interface InputRecord {
  /** 1-based number of the record among the data records (a CSV's header is not one). */
  row: number;
  /** The record's fields; null when the record itself could not be read (then `error` says why). */
  data: Record<string, unknown> | null;
  error?: string;
  /** Bytes of the file read up to this record (for progress and ETA; approximate for JSON arrays). */
  offset: number;
}

export interface ReaderOptions {
  /** CSV: the field delimiter (default ","; ".tsv" files default to a tab). */
  delimiter?: string;
  /** JSON: read the array under this top-level key instead of a top-level array, e.g. "employees". */
  jsonKey?: string;
  /** CSV: called once with the header's column names, before the first record. */
  onColumns?: (columns: string[]) => void;
  signal?: AbortSignal;
}

/** The format from the file name: .csv/.tsv, .json, .jsonl/.ndjson; null when it does not say. */
export function formatFromPath(path: string): InputFormat | null {
  const lower = path.toLowerCase();
  if (lower.endsWith(".csv") || lower.endsWith(".tsv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  return null;
}

/** The input is not what its format says (broken JSON, ...): a usage error, not a service failure. */
export class InputError extends Error {
  override name = "InputError";
}
