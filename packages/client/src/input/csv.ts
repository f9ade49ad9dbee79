import { createReadStream } from "node:fs";
import { pipeline, type Duplex } from "node:stream";
import { parse } from "csv-parse";
import type { InputRecord, ReaderOptions } from "./types.ts";

/**
 * CSV with a header line, streamed through csv-parse: quoted fields with commas and line
 * breaks, a byte order mark, CRLF. Rows with fewer or more fields than the header are kept
 * (missing fields are absent) rather than stopping a run of millions of rows.
 */
export async function* readCsv(path: string, opts: ReaderOptions = {}): AsyncGenerator<InputRecord> {
  const delimiter = opts.delimiter ?? (path.toLowerCase().endsWith(".tsv") ? "\t" : ",");
  // pipeline, not pipe: a read error (a folder, no permission) must reach the loop below.
  const parser = pipeline(
    createReadStream(path),
    parse({
      delimiter,
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim());
        opts.onColumns?.(names);
        return names;
      },
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }),
    () => {},
  ) as Duplex;
  try {
    for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { records: number; bytes: number } }>) {
      opts.signal?.throwIfAborted(); // an interrupted read must not look like the end of the input
      yield { row: item.info.records, data: item.record, offset: item.info.bytes };
    }
  } finally {
    parser.destroy();
  }
}
