import { describe, expect, it } from "vitest";
import type { InputRecord } from "../src/input/types.ts";
import { makeBatches, type Batch } from "../src/sync/batches.ts";
import { batchOutcome } from "../src/sync/outcome.ts";
import { inOrder } from "../src/sync/pipeline.ts";

async function* records(rows: (Record<string, unknown> | null)[]): AsyncGenerator<InputRecord> {
  let i = 0;
  for (const data of rows) {
    i++;
    yield data ? { row: i, data, offset: i * 10 } : { row: i, data: null, error: "Invalid JSON: x", offset: i * 10 };
  }
}
const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const passThrough = (data: Record<string, unknown>) => ({ employee: data, warnings: data.warn ? [String(data.warn)] : [] });

const input = [
  { externalEmployeeId: " A1 " },
  { externalEmployeeId: "A2", email: "nope" },
  { externalEmployeeId: "A3", warn: "mapped with a warning" },
  null,
  { externalEmployeeId: "A4" },
  { firstName: "no id" },
  { externalEmployeeId: "A5" },
];

describe("makeBatches", () => {
  it("cuts batches at N valid employees and keeps the invalid rows with the server's messages", async () => {
    const batches = await collect(makeBatches(records(input), { startRow: 1, startBatchNo: 1, batchSize: 2, map: passThrough }));
    expect(batches.map((b) => [b.no, b.firstRow, b.lastRow, b.endOffset, b.sent.map((s) => `${s.row}:${s.id}`)])).toEqual([
      [1, 1, 3, 30, ["1:A1", "3:A3"]],
      [2, 4, 7, 70, ["5:A4", "7:A5"]],
    ]);
    expect(batches[0]!.employees[0]).toEqual({ externalEmployeeId: " A1 " });
    expect(batches[0]!.local).toEqual([
      { row: 2, externalEmployeeId: "A2", kind: "error", message: "Invalid email format" },
      { row: 3, externalEmployeeId: "A3", kind: "warning", message: "mapped with a warning" },
    ]);
    expect(batches[1]!.local).toEqual([
      { row: 4, externalEmployeeId: null, kind: "error", message: "Invalid JSON: x" },
      { row: 6, externalEmployeeId: null, kind: "error", message: "externalEmployeeId is required" },
    ]);
    expect(batches.map((b) => b.localErrors)).toEqual([1, 2]);
  });

  it("makes the same batches again when resumed at a batch boundary", async () => {
    const all = await collect(makeBatches(records(input), { startRow: 1, startBatchNo: 1, batchSize: 2, map: passThrough }));
    const resumed = await collect(makeBatches(records(input), { startRow: 4, startBatchNo: 2, batchSize: 2, map: passThrough }));
    expect(resumed).toEqual(all.slice(1));
  });

  it("never makes a batch of more than 500", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ externalEmployeeId: `M${i}` }));
    const batches = await collect(makeBatches(records(many), { startRow: 1, startBatchNo: 1, batchSize: 10_000, map: passThrough }));
    expect(batches.map((b) => b.employees.length)).toEqual([500, 500, 1]);
  });

  it("ends a batch after 5,000 rows read even when none of them is valid (a wrong mapping must not gather the whole file)", async () => {
    const refused = Array.from({ length: 6_001 }, (_, i) => ({ externalEmployeeId: `W${i}`, email: "not an address" }));
    const batches = await collect(makeBatches(records(refused), { startRow: 1, startBatchNo: 1, batchSize: 500, map: passThrough }));
    expect(batches.map((b) => [b.firstRow, b.lastRow, b.employees.length, b.localErrors])).toEqual([
      [1, 5_000, 0, 5_000],
      [5_001, 6_001, 0, 1_001],
    ]);
  });
});

describe("batchOutcome", () => {
  const batch = (ids: string[]): Batch => ({
    no: 1,
    firstRow: 1,
    lastRow: ids.length + 1,
    endOffset: 0,
    employees: [],
    sent: ids.map((id, i) => ({ row: i + 1, id })),
    local: [{ row: ids.length + 1, externalEmployeeId: "L", kind: "error", message: "local" }],
    localErrors: 1,
  });
  const ok = (id: string, status: "CREATED" | "UPDATED" = "CREATED", warnings: string[] = []) => ({
    externalEmployeeId: id,
    status,
    employeeId: "e",
    userId: null,
    warnings,
  });

  it("puts results, errors and warnings back on their rows", () => {
    const o = batchOutcome(batch(["A", "B", "C", "A"]), {
      requestId: "r",
      results: [ok("A"), ok("C", "UPDATED", ["Group 'X' not found, skipped"]), ok("A", "UPDATED")],
      errors: [{ externalEmployeeId: "B", message: "User with that e-mail already exists in a different organization" }],
    });
    expect(o).toMatchObject({ created: 1, updated: 2, errors: 2, warnings: 1 });
    expect(o.entries.map((e) => [e.row, e.externalEmployeeId, e.kind])).toEqual([
      [2, "B", "error"],
      [3, "C", "warning"],
      [5, "L", "error"],
    ]);
  });

  it("pairs duplicates of one id in order, whichever list they are in", () => {
    const o = batchOutcome(batch(["D", "D"]), { requestId: "r", results: [ok("D")], errors: [{ externalEmployeeId: "D", message: "second failed" }] });
    expect(o.entries.filter((e) => e.kind === "error" && e.message === "second failed")).toHaveLength(1);
    expect(o).toMatchObject({ created: 1, errors: 2 });
  });

  it("counts a batch with nothing sent from its local entries alone", () => {
    expect(batchOutcome(batch([]), null)).toMatchObject({ created: 0, updated: 0, errors: 1, warnings: 0 });
  });
});

describe("inOrder", () => {
  async function* items(n: number) {
    for (let i = 1; i <= n; i++) yield i;
  }
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("keeps at most `concurrency` in flight and acknowledges in input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const acked: number[] = [];
    await inOrder(items(8), {
      concurrency: 3,
      send: async (i) => {
        peak = Math.max(peak, ++inFlight);
        await wait(i % 2 ? 30 : 5); // odd items take longer: later ones finish first
        inFlight--;
        return i * 10;
      },
      ack: async (i, r) => void acked.push(r / 10 === i ? i : -1),
    });
    expect(acked).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(peak).toBe(3);
  });

  it("stops at the first failure: nothing after it is acknowledged and the rest is aborted", async () => {
    const acked: number[] = [];
    const aborted: number[] = [];
    const run = inOrder(items(10), {
      concurrency: 2,
      send: (i, signal) =>
        new Promise<number>((resolve, reject) => {
          if (i === 3) return setTimeout(() => reject(new Error("boom")), 5);
          let settled = false;
          const t = setTimeout(() => ((settled = true), resolve(i)), 20);
          signal.addEventListener("abort", () => {
            if (settled) return;
            clearTimeout(t);
            aborted.push(i);
            reject(signal.reason);
          });
        }),
      ack: async (i) => void acked.push(i),
    });
    await expect(run).rejects.toThrow("boom");
    expect(acked).toEqual([1, 2]);
    expect(aborted).toEqual([4]);
  });

  it("ends with the abort reason when the caller aborts", async () => {
    const ctl = new AbortController();
    const acked: number[] = [];
    const run = inOrder(items(100), {
      concurrency: 2,
      signal: ctl.signal,
      send: async (i) => {
        if (i === 5) ctl.abort(new Error("SIGINT"));
        await wait(1);
        return i;
      },
      ack: async (i) => void acked.push(i),
    });
    await expect(run).rejects.toThrow("SIGINT");
    expect(acked.length).toBeLessThan(5);
  });
});
