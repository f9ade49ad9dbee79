import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { InputRecord, ReaderOptions } from "./types.ts";

/**
 * JSON Lines: one JSON object per line, read line by line. Blank lines are skipped and not
 * counted; a line that is not a JSON object becomes a row error, and the run goes on.
 */
export async function* readJsonl(path: string, opts: ReaderOptions = {}): AsyncGenerator<InputRecord> {
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let row = 0;
  let offset = 0;
  try {
    for await (const raw of lines) {
      opts.signal?.throwIfAborted(); // an interrupted read must not look like the end of the input
      offset += Buffer.byteLength(raw) + 1;
      // A byte order mark (Windows exports) is not part of the first object.
      const line = row === 0 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (line.trim() === "") continue;
      row++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        yield { row, data: null, error: `Invalid JSON: ${(err as Error).message}`, offset };
        continue;
      }
      if (value && typeof value === "object" && !Array.isArray(value)) yield { row, data: value as Record<string, unknown>, offset };
      else yield { row, data: null, error: "Each line must be a JSON object", offset };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
