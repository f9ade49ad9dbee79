import { readCsv } from "./csv.ts";
import { readJsonArray } from "./json.ts";
import { readJsonl } from "./jsonl.ts";
import type { InputFormat, InputRecord, ReaderOptions } from "./types.ts";

export * from "./types.ts";

/** The records of an input file, streamed in order. */
export function readRecords(path: string, format: InputFormat, opts: ReaderOptions = {}): AsyncGenerator<InputRecord> {
  if (format === "csv") return readCsv(path, opts);
  if (format === "jsonl") return readJsonl(path, opts);
  return readJsonArray(path, opts);
}
