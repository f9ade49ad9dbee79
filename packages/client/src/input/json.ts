import { createReadStream } from "node:fs";
import { PassThrough, pipeline, type Duplex } from "node:stream";
import parserStream from "stream-json";
import pick from "stream-json/filters/pick.js";
import streamArray from "stream-json/streamers/stream-array.js";
import { InputError, type InputRecord, type ReaderOptions } from "./types.ts";

/**
 * A JSON array of objects, top level or under `jsonKey`, streamed with stream-json: one
 * element is assembled at a time, so a file of millions of employees never sits in memory.
 * An element that is not an object becomes a row error; broken JSON stops the read.
 */
export async function* readJsonArray(path: string, opts: ReaderOptions = {}): AsyncGenerator<InputRecord> {
  let offset = 0;
  const counter = new PassThrough();
  counter.on("data", (chunk: Buffer) => (offset += chunk.length));
  const stages: Duplex[] = [parserStream()];
  if (opts.jsonKey) stages.push(pick.asStream({ filter: opts.jsonKey }));
  stages.push(streamArray.asStream());
  const last = pipeline(createReadStream(path), counter, ...(stages as [Duplex, ...Duplex[]]), () => {}) as Duplex;
  try {
    for await (const item of last as AsyncIterable<{ key: number; value: unknown }>) {
      opts.signal?.throwIfAborted(); // an interrupted read must not look like the end of the input
      const row = item.key + 1;
      const v = item.value;
      if (v && typeof v === "object" && !Array.isArray(v)) yield { row, data: v as Record<string, unknown>, offset };
      else yield { row, data: null, error: "Each array element must be a JSON object", offset };
    }
  } catch (err) {
    // Read errors carry a code (ENOENT, EACCES) and are reported as such; the rest is the JSON itself.
    if ((err as { code?: unknown }).code !== undefined || opts.signal?.aborted) throw err;
    throw new InputError(`${path} is not valid JSON: ${(err as Error).message}`);
  } finally {
    last.destroy();
  }
}
