import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError, formatFromPath, readRecords, type InputFormat, type InputRecord } from "../src/input/index.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "insp-client-readers-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(name: string, content: string, format: InputFormat, opts: Parameters<typeof readRecords>[2] = {}) {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const out: Omit<InputRecord, "offset">[] = [];
  let lastOffset = 0;
  for await (const r of readRecords(file, format, opts)) {
    expect(r.offset).toBeGreaterThanOrEqual(lastOffset);
    lastOffset = r.offset;
    const { offset: _offset, ...rest } = r;
    out.push(rest);
  }
  return out;
}

describe("CSV", () => {
  it("reads quoted fields, a BOM, CRLF, blank lines and short rows", async () => {
    let columns: string[] = [];
    const rows = await read("a.csv", '\ufeffid, name ,note\r\n1,"Lovelace, Ada","said ""hi""\nthen left"\r\n\r\n2,Bob\r\n', "csv", { onColumns: (c) => (columns = c) });
    expect(columns).toEqual(["id", "name", "note"]);
    expect(rows).toEqual([
      { row: 1, data: { id: "1", name: "Lovelace, Ada", note: 'said "hi"\nthen left' } },
      { row: 2, data: { id: "2", name: "Bob" } },
    ]);
  });

  it("takes a tab for .tsv and any delimiter when asked", async () => {
    expect(await read("b.tsv", "id\tname\n1\tA;B\n", "csv")).toEqual([{ row: 1, data: { id: "1", name: "A;B" } }]);
    expect(await read("c.csv", "id;name\n1;A,B\n", "csv", { delimiter: ";" })).toEqual([{ row: 1, data: { id: "1", name: "A,B" } }]);
  });
});

describe("JSON Lines", () => {
  it("reads one object per line, skips blank lines and reports lines that are not objects", async () => {
    expect(await read("a.jsonl", '{"id":1}\n\n{"id":2,"roles":["x"]}\n[1]\n{broken\n', "jsonl")).toEqual([
      { row: 1, data: { id: 1 } },
      { row: 2, data: { id: 2, roles: ["x"] } },
      { row: 3, data: null, error: "Each line must be a JSON object" },
      { row: 4, data: null, error: expect.stringMatching(/^Invalid JSON: /) },
    ]);
  });
});

describe("JSON arrays", () => {
  it("streams a top-level array or the array under a key", async () => {
    expect(await read("a.json", '[{"id":"a"},{"id":"b","sites":[{"id":"s"}]}, 7]', "json")).toEqual([
      { row: 1, data: { id: "a" } },
      { row: 2, data: { id: "b", sites: [{ id: "s" }] } },
      { row: 3, data: null, error: "Each array element must be a JSON object" },
    ]);
    expect(await read("b.json", '{"meta":{"n":1},"employees":[{"id":"x"}]}', "json", { jsonKey: "employees" })).toEqual([{ row: 1, data: { id: "x" } }]);
  });

  it("fails on broken JSON", async () => {
    await expect(read("c.json", '[{"id":"a"},{"id":', "json")).rejects.toBeInstanceOf(InputError);
    await expect(read("d.json", '[{"id":"a"} x]', "json")).rejects.toThrow(/is not valid JSON/);
  });
});

describe("formats", () => {
  it("follow the file name", () => {
    expect(["x.csv", "x.TSV", "x.json", "x.jsonl", "x.ndjson", "x.txt"].map(formatFromPath)).toEqual(["csv", "csv", "json", "jsonl", "jsonl", null]);
  });
});
