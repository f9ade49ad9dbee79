import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startCliStack, type CliStack } from "./cli-harness.ts";

// The acceptance test of insp-sync: a generated 20,000-row CSV synced end to end by the
// command as a real process, killed halfway (SIGKILL, no chance to clean up) and resumed. With
// the fault tests (npm run test:faults): it kills a process, and takes a minute and a half.

const ROWS = 20_000;
let h: CliStack;
beforeAll(async () => {
  h = await startCliStack("insp-sync-");
});
afterAll(async () => {
  await h?.stop();
});

/** Every 400th row has a bad e-mail (50 rows); every 1000th names a group the tenant does not have (a server warning). */
const isInvalid = (i: number) => i % 400 === 7;
const hasUnknownGroup = (i: number) => i % 1000 === 500;

function makeCsv(): string {
  const lines = ["emp_no,given_name,family_name,mail,job_code,dept,site_code,teams,start_date,state,cost_center"];
  for (let i = 1; i <= ROWS; i++) {
    const mail = isInvalid(i) ? `broken-${i}.example.test` : `emp-${i}@example.test`;
    const job = i % 50 === 0 ? "MGR" : "WH1";
    const teams = hasUnknownGroup(i) ? "Maintenance;Night Shift" : i % 3 === 0 ? "Safety Team" : "";
    lines.push(
      `E${String(i).padStart(6, "0")},Given${i},"Family, ${i}",${mail},${job},Warehouse ${i % 7},${i % 2 ? "MAIN" : "NORTH"},${teams},2024-0${(i % 9) + 1}-15,${i % 97 === 0 ? "T" : "A"},CC-${i % 13}`,
    );
  }
  return lines.join("\n") + "\n";
}

function mapping(sites: DemoSeed["sites"]) {
  return {
    columns: {
      externalEmployeeId: "emp_no",
      firstName: "given_name",
      lastName: "family_name",
      email: "mail",
      department: "dept",
      hireDate: "start_date",
      status: "state",
      "metadata.costCenter": "cost_center",
    },
    status: { A: "ACTIVE", T: "TERMINATED" },
    roles: { column: "job_code", map: { WH1: ["inspector"], MGR: ["site_manager", "inspector"] } },
    groups: { column: "teams", separator: ";" },
    sites: { column: "site_code", map: { MAIN: { id: sites[0]!.id }, NORTH: { id: sites[1]!.id } } },
  };
}

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));

it("syncs a 20,000-row CSV, survives SIGKILL halfway, resumes, and reports every bad row once", async () => {
  const started = Date.now();
  const csv = path.join(h.dir, "employees.csv");
  const map = path.join(h.dir, "mapping.json");
  await writeFile(csv, makeCsv());
  await writeFile(map, JSON.stringify(mapping(h.tenant.sites)));
  const statePath = `${csv}.insp-sync-state.json`;
  const errorsPath = `${csv}.errors.csv`;
  const args = [csv, "--mapping", map, "--progress-interval", "1"];

  // First run: killed without warning once at least 8,000 rows are acknowledged.
  const first = h.run(args);
  let killedAt = 0;
  for (;;) {
    const code = await Promise.race([first.exited, new Promise((r) => setTimeout(() => r("poll"), 100))]);
    if (code !== "poll") throw new Error(`the first run ended by itself (${String(code)}) before it was killed:\n${first.stderr()}`);
    const state = existsSync(statePath) ? await readJson(statePath).catch(() => null) : null;
    if (state && state.counts.rows >= 8000) {
      first.child.kill("SIGKILL");
      killedAt = state.counts.rows;
      break;
    }
  }
  await first.exited;
  const halfway = await readJson(statePath);
  expect(halfway.done).toBe(false);
  expect(halfway.counts.rows).toBeGreaterThanOrEqual(killedAt);
  expect(halfway.counts.rows).toBeLessThan(ROWS);
  expect(halfway.nextRow).toBe(halfway.counts.rows + 1);
  expect(existsSync(errorsPath)).toBe(true);
  expect(first.stderr()).toMatch(/progress: [\d,]+ rows \([\d.]+%\), [\d,]+ rows\/s, ETA \d+:\d\d/);

  // Second run, same command: resumes from the state and finishes; exit 1 because of the invalid rows.
  const second = h.run(args);
  const code = await second.exited;
  expect(code, second.stderr()).toBe(1);
  expect(second.stderr()).toContain(`resuming run ${halfway.runId} at row ${halfway.nextRow}`);
  expect(second.stderr()).toMatch(/progress: [\d,]+ rows \([\d.]+%\), [\d,]+ rows\/s, ETA \d+:\d\d/);
  expect(second.stderr()).toMatch(/finished: 20,000 rows/);

  const invalid = Array.from({ length: ROWS }, (_, k) => k + 1).filter(isInvalid);
  const warned = Array.from({ length: ROWS }, (_, k) => k + 1).filter(hasUnknownGroup);
  expect(invalid).toHaveLength(50);
  const id = (i: number) => `E${String(i).padStart(6, "0")}`;

  const done = await readJson(statePath);
  expect(done).toMatchObject({
    done: true,
    nextRow: ROWS + 1,
    counts: { rows: ROWS, created: ROWS - invalid.length, updated: 0, errors: invalid.length, warnings: warned.length },
  });

  // Postgres: every valid row exactly once, no invalid one.
  const rows = await h.stack.db.sql<{ id: string; n: number }[]>`
    select external_employee_id as id, count(*)::int as n from employees where organization_id = ${h.tenant.organization.id} group by 1`;
  expect(rows).toHaveLength(ROWS - invalid.length);
  expect(rows.every((r) => r.n === 1)).toBe(true);
  const stored = new Set(rows.map((r) => r.id));
  for (const i of invalid) expect(stored.has(id(i))).toBe(false);
  // No batch was applied twice: the batches in flight at the kill were replayed under their key.
  const twice = await h.stack.db.sql`
    select sync_batch_id from sync_requests where organization_id = ${h.tenant.organization.id} group by 1 having count(*) > 1`;
  expect(twice).toEqual([]);

  // The errors CSV: each invalid row once with the server's message, each warning once.
  const report = parse(await readFile(errorsPath, "utf8"), { columns: true }) as { row: string; externalEmployeeId: string; kind: string; message: string }[];
  expect(report.filter((r) => r.kind === "error")).toEqual(
    invalid.map((i) => ({ row: String(i), externalEmployeeId: id(i), kind: "error", message: "Invalid email format" })),
  );
  expect(report.filter((r) => r.kind === "warning")).toEqual(
    warned.map((i) => ({ row: String(i), externalEmployeeId: id(i), kind: "warning", message: "Group 'Night Shift' not found, skipped" })),
  );
  expect(report).toHaveLength(invalid.length + warned.length);

  console.log(`insp-sync acceptance: ${ROWS} rows, killed at ${killedAt} acknowledged, total ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 240_000);
