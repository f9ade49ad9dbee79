import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCli } from "../src/cli/args.ts";
import { setupRun } from "../src/cli/setup.ts";
import { ErrorsCsv } from "../src/report/errors-csv.ts";
import { StateFileError, newRunId, readState, resumeMismatch, writeState, zeroCounts, type SyncState } from "../src/state/state-file.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "insp-client-unit-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sample = (): SyncState => ({
  version: 1,
  runId: newRunId(),
  input: { path: "/data/in.csv", size: 1234, mtimeMs: 1_700_000_000_000 },
  mappingHash: "abc",
  nextRow: 501,
  batches: 1,
  offset: 600,
  counts: { ...zeroCounts(), rows: 500, created: 498, errors: 2 },
  errorsCsv: { path: "/data/in.csv.errors.csv", bytes: 120 },
  done: false,
  startedAt: "2026-03-01T10:00:00.000Z",
  updatedAt: "2026-03-01T10:00:05.000Z",
});

describe("state file", () => {
  it("is written atomically and read back as written", async () => {
    const file = path.join(dir, "a.state.json");
    expect(await readState(file)).toBeNull();
    const s = sample();
    await writeState(file, s);
    await writeState(file, { ...s, nextRow: 1001, batches: 2 });
    expect(await readState(file)).toEqual({ ...s, nextRow: 1001, batches: 2 });
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a file that is not a state instead of overwriting it", async () => {
    const notJson = path.join(dir, "b.json");
    await writeFile(notJson, "hello");
    await expect(readState(notJson)).rejects.toBeInstanceOf(StateFileError);
    const other = path.join(dir, "c.json");
    await writeFile(other, JSON.stringify({ version: 2, runId: "x" }));
    await expect(readState(other)).rejects.toThrow(/not an insp-sync state file/);
  });

  it("notices a changed input or mapping", () => {
    const s = sample();
    expect(resumeMismatch(s, { size: 1234, mtimeMs: 1_700_000_000_000 }, "abc")).toBeNull();
    expect(resumeMismatch(s, { size: 1235, mtimeMs: 1_700_000_000_000 }, "abc")).toMatch(/input changed/);
    expect(resumeMismatch(s, { size: 1234, mtimeMs: 1_700_000_000_001 }, "abc")).toMatch(/input changed/);
    expect(resumeMismatch(s, { size: 1234, mtimeMs: 1_700_000_000_000 }, "def")).toMatch(/mapping file changed/);
  });

  it("notices changed options that cut the input into other batches (batch size, format, delimiter, JSON key)", () => {
    const s = { ...sample(), reading: { format: "csv", batchSize: 500 } };
    const same = { size: 1234, mtimeMs: 1_700_000_000_000 };
    expect(resumeMismatch(s, same, "abc", { format: "csv", batchSize: 500 })).toBeNull();
    expect(resumeMismatch(s, same, "abc", { format: "csv", batchSize: 100 })).toBe(
      "the options that cut the input into batches changed since the interrupted run (batchSize 500 -> 100)",
    );
    expect(resumeMismatch(s, same, "abc", { format: "csv", batchSize: 500, delimiter: ";" })).toMatch(/delimiter \(default\) -> ;/);
    // A state written before these were recorded: nothing to compare.
    expect(resumeMismatch(sample(), same, "abc", { format: "csv", batchSize: 100 })).toBeNull();
  });

  it("makes run ids that differ", () => {
    const ids = new Set(Array.from({ length: 100 }, newRunId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^r[a-z0-9]+$/);
  });
});

describe("errors CSV", () => {
  it("writes a header, quotes what needs it, and on resume cuts what the state did not count", async () => {
    const file = path.join(dir, "errors.csv");
    const csv = await ErrorsCsv.open(file, null);
    await csv.append([{ row: 3, externalEmployeeId: "E3", kind: "error", message: "Invalid email format" }]);
    const counted = csv.bytes;
    await csv.append([{ row: 9, externalEmployeeId: null, kind: "warning", message: 'Role "a, b" not found' }]);
    await csv.close();
    expect(await readFile(file, "utf8")).toBe('row,externalEmployeeId,kind,message\n3,E3,error,Invalid email format\n9,,warning,"Role ""a, b"" not found"\n');

    // A run killed after writing row 9 but before its state was saved: the resumed run writes it again.
    const resumed = await ErrorsCsv.open(file, counted);
    await resumed.append([{ row: 9, externalEmployeeId: null, kind: "warning", message: "again" }]);
    await resumed.close();
    expect(await readFile(file, "utf8")).toBe("row,externalEmployeeId,kind,message\n3,E3,error,Invalid email format\n9,,warning,again\n");
  });

  it("never writes a cell a spreadsheet would run as a formula", async () => {
    const file = path.join(dir, "formulas.csv");
    const csv = await ErrorsCsv.open(file, null);
    await csv.append([{ row: 1, externalEmployeeId: '=HYPERLINK("http://x")', kind: "error", message: "@SUM(A1)" }]);
    await csv.close();
    expect((await readFile(file, "utf8")).split("\n")[1]).toBe(`1,"'=HYPERLINK(""http://x"")",error,'@SUM(A1)`);
  });
});

describe("setupRun (resume decisions)", () => {
  const env = { url: "http://127.0.0.1:1", clientId: "c", clientSecret: "s" };
  const prepare = async (name: string, nextRow: number) => {
    const input = path.join(dir, name);
    await writeFile(input, "externalEmployeeId\nA\n");
    const cfg = await setupRun(parseCli([input])!, env);
    await writeState(cfg.statePath!, { ...cfg.state, nextRow, batches: nextRow > 1 ? 1 : 0 });
    await writeFile(input, "externalEmployeeId\nA\nB\n"); // the input changes
    return input;
  };

  it("refuses to resume a changed input, resumes it with --force under a new run id", async () => {
    const input = await prepare("changed.csv", 2);
    await expect(setupRun(parseCli([input])!, env)).rejects.toThrow(/cannot resume: the input changed .* --force .* --restart/);
    const forced = await setupRun(parseCli([input, "--force"])!, env);
    const before = (await readState(`${input}.insp-sync-state.json`))!;
    expect(forced).toMatchObject({ resumed: true, state: { nextRow: 2 } });
    expect(forced.state.runId).not.toBe(before.runId);
    const restarted = await setupRun(parseCli([input, "--restart"])!, env);
    expect(restarted).toMatchObject({ resumed: false, state: { nextRow: 1 } });
  });

  it("starts afresh when nothing had been synced, and when the last run finished", async () => {
    const input = await prepare("nothing-synced.csv", 1);
    const cfg = await setupRun(parseCli([input])!, env);
    expect(cfg.resumed).toBe(false);
    expect(cfg.notes.join()).toMatch(/had not synced any row/);
    await writeState(cfg.statePath!, { ...cfg.state, nextRow: 3, done: true });
    const next = await setupRun(parseCli([input])!, env);
    expect(next.resumed).toBe(false);
    expect(next.state.runId).not.toBe(cfg.state.runId);
  });

  it("refuses a state file of another input", async () => {
    const a = await prepare("a-input.csv", 2);
    const other = path.join(dir, "b-input.csv");
    await writeFile(other, "externalEmployeeId\nZ\n");
    await expect(setupRun(parseCli([other, "--state", `${a}.insp-sync-state.json`])!, env)).rejects.toThrow(/belongs to/);
  });
});
