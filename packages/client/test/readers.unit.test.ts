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
    const rows = await read("a.csv", '\ufeffid, name ,note\r\n1,"Lovelace, Ada","said ""hi""\nthen left"\r\n\r\n2,Bob\r\n', "csv", {
      onColumns: (c) => (columns = c),
    });
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

  it("drops a byte order mark before the first object", async () => {
    expect(await read("bom.jsonl", '\uFEFF{"id":1}\r\n{"id":2}\r\n', "jsonl")).toEqual([
      { row: 1, data: { id: 1 } },
      { row: 2, data: { id: 2 } },
    ]);
  });
});

describe("an interrupted read", () => {
  it("throws in every format, so that a run stopped by Ctrl-C never looks like one that read its input to the end", async () => {
    const inputs = { csv: "a\n1\n2\n", jsonl: '{"a":1}\n{"a":2}\n', json: '[{"a":1},{"a":2}]' } as const;
    for (const format of ["csv", "jsonl", "json"] as const) {
      const file = path.join(dir, `stop.${format}`);
      await writeFile(file, inputs[format]);
      const stop = new AbortController();
      const seen: number[] = [];
      const reading = (async () => {
        for await (const r of readRecords(file, format, { signal: stop.signal })) {
          seen.push(r.row);
          stop.abort(new Error("SIGINT"));
        }
      })();
      await expect(reading, format).rejects.toThrow("SIGINT");
      expect(seen, format).toEqual([1]);
    }
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
