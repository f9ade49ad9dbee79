import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import type postgres from "postgres";
import type { BenchOptions, ScenarioName } from "./options.ts";
import type { Row, ScenarioResult } from "./scenario.ts";
import { round } from "./stats.ts";

const run = promisify(execFile);

/** Other engineers' test runs share the 2 cores: recorded so a noisy run can be recognised. */
export async function vitestProcesses(): Promise<number> {
  try {
    const { stdout } = await run("pgrep", ["-f", "vitest"]);
    return stdout.split("\n").filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

export interface Conditions {
  at: string;
  loadAvg1m: number;
  vitestProcesses: number;
}

export async function conditions(): Promise<Conditions> {
  return { at: new Date().toISOString(), loadAvg1m: round(os.loadavg()[0]!, 2), vitestProcesses: await vitestProcesses() };
}

export interface Environment {
  cores: number;
  cpu: string;
  memoryGb: number;
  node: string;
  postgres: string;
  redis: string;
  commit: string;
}

export async function environment(sql: postgres.Sql, redisUrl: string): Promise<Environment> {
  const [pg] = await sql`select current_setting('server_version') as v`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  const info = await redis.info("server").finally(() => redis.disconnect());
  let commit = "unknown";
  try {
    const head = (await run("git", ["rev-parse", "--short", "HEAD"])).stdout.trim();
    const dirty = (await run("git", ["status", "--porcelain", "--untracked-files=no"])).stdout.trim() !== "";
    commit = dirty ? `${head} + uncommitted changes` : head;
  } catch {
    /* not a git checkout */
  }
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    postgres: String(pg!.v),
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? "unknown",
    commit,
  };
}

export interface Ratio {
  name: string;
  value: number;
  explain: string;
}

export interface Target {
  name: string;
  measured: string;
  met: boolean | null;
}

const metric = (results: ScenarioResult[], name: ScenarioName, key: string) => results.find((r) => r.name === name)?.metrics[key];

/** Ratios between scenarios of the same run; only those whose scenarios ran. */
export function ratios(results: ScenarioResult[]): Ratio[] {
  const out: Ratio[] = [];
  const raw = metric(results, "sync-raw", "employeesPerS");
  const create = metric(results, "sync-create", "employeesPerS");
  const floor = metric(results, "sync-floor", "employeesPerS");
  if (create && raw)
    out.push({
      name: "sync-create / sync-raw",
      value: round(create / raw, 2),
      explain: `the whole service (HTTP, queue, worker: ${create}/s) vs the rows written by one statement each (${raw}/s)`,
    });
  if (floor && raw)
    out.push({
      name: "sync-floor / sync-raw",
      value: round(floor / raw, 2),
      explain: `the worker's per-employee function in-process (${floor}/s) vs the same rows by one statement each (${raw}/s)`,
    });
  if (create && floor)
    out.push({
      name: "sync-create / sync-floor",
      value: round(create / floor, 2),
      explain: `throughput through HTTP + queue (${create}/s) vs the same per-employee work in-process (${floor}/s)`,
    });
  const scale = metric(results, "scale", "ratio");
  if (scale)
    out.push({
      name: "2 workers / 1 worker",
      value: scale,
      explain: `sync-create throughput with 2 worker processes vs 1 (${metric(results, "scale", "twoWorkersPerS")}/s vs ${metric(results, "scale", "oneWorkerPerS")}/s)`,
    });
  const accounts = metric(results, "sync-accounts", "medianMs");
  const createMs = metric(results, "sync-create", "medianMs");
  if (accounts && createMs)
    out.push({
      name: "sync-accounts / sync-create",
      value: round(accounts / createMs, 2),
      explain: `median batch latency with forcePasswordReset + sendWelcomeEmail vs without (${accounts} ms vs ${createMs} ms)`,
    });
  const listRatio = metric(results, "list", "page1ToFloor");
  if (listRatio)
    out.push({
      name: "list page 1 / list floor",
      value: listRatio,
      explain: `requests/s through the API (${metric(results, "list", "page1ReqPerS")}) vs a bare node:http handler with the same SQL and JSON (${metric(results, "list", "floorReqPerS")})`,
    });
  return out;
}

/**
 * sync-floor's Postgres CPU per employee before issue 24 on this machine (commit 1efb9ed): the
 * mean of its side-by-side runs in bench/README.md, "The sync engine in two round trips".
 */
const FLOOR_POSTGRES_MS_BEFORE = 2.01;

/** The issue's targets, each met, missed, or not measured in this run (null). */
export function targets(results: ScenarioResult[], opts: BenchOptions): Target[] {
  const out: Target[] = [];
  const full = opts.batch === 500;
  const m = (name: ScenarioName, key: string) => metric(results, name, key);
  const target = (name: string, measured: string | undefined, met: boolean | null) =>
    out.push({ name, measured: measured ?? "not run", met: measured === undefined ? null : met });

  const createMs = m("sync-create", "medianMs");
  const createP95 = m("sync-create", "p95Ms");
  const drift = m("sync-create", "drift");
  const size = full ? "" : ` (batch of ${opts.batch})`;
  target(
    "1. sync-create, fresh database, no ANALYZE: median <= 1.0 s per 500",
    createMs === undefined ? undefined : `${createMs} ms${size}`,
    full && !opts.analyze ? createMs! <= 1000 : null,
  );
  target("1. ... p95 <= 1.3 s", createP95 === undefined ? undefined : `${createP95} ms${size}`, full && !opts.analyze ? createP95! <= 1300 : null);
  target(
    "1. ... last 5 of 20 batches within 15% of the first 5",
    drift === undefined || !Number.isFinite(drift) ? undefined : `${drift >= 0 ? "+" : ""}${round(drift * 100, 0)}%`,
    opts.rounds >= 20 && !opts.analyze ? Math.abs(drift!) <= 0.15 : null,
  );
  const raw = m("sync-raw", "employeesPerS");
  const create = m("sync-create", "employeesPerS");
  const floor = m("sync-floor", "employeesPerS");
  target("2. sync-create / sync-raw >= 0.5", raw && create ? `${round(create / raw, 2)}` : undefined, raw && create ? create / raw >= 0.5 : null);
  target("2. sync-floor / sync-raw >= 0.8", raw && floor ? `${round(floor / raw, 2)}` : undefined, raw && floor ? floor / raw >= 0.8 : null);
  const accounts = m("sync-accounts", "medianMs");
  target(
    "3. sync-accounts <= 1.3 x sync-create",
    accounts && createMs ? `${round(accounts / createMs, 2)}x` : undefined,
    accounts && createMs ? accounts / createMs <= 1.3 : null,
  );
  const mails = m("sync-accounts", "mailsPerS");
  const exact = m("sync-accounts", "mailsReceived") === m("sync-accounts", "mailsExpected") && m("sync-accounts", "mailDuplicates") === 0;
  target(
    "3. welcome mail >= 300 mails/s, every mail exactly once",
    mails === undefined ? undefined : `${mails} mails/s; ${exact ? "each once" : "NOT each once"}`,
    mails === undefined ? null : mails >= 300 && exact,
  );
  const large = m("sync-large", "employeesPerS");
  const largeOk = m("sync-large", "rows") === opts.largeTotal && m("sync-large", "distinctIds") === opts.largeTotal;
  target(
    "4. large initial sync: everything done, nothing duplicated (employees/s and p95 reported)",
    large === undefined ? undefined : `${large} employees/s, batch p95 ${m("sync-large", "p95Ms")} ms; ${largeOk ? "all done once" : "NOT all done once"}`,
    large === undefined ? null : largeOk,
  );
  const bigList = opts.listSize >= 100_000 && opts.connections === 10;
  const rps = m("list", "page1ReqPerS");
  const listP95 = m("list", "page1P95Ms");
  target(
    "5. list page 1 at 100,000, 10 connections: >= 800 requests/s",
    rps === undefined ? undefined : `${rps} req/s (floor ${m("list", "floorReqPerS")})`,
    bigList ? rps! >= 800 : null,
  );
  target("5. ... p95 <= 20 ms", listP95 === undefined ? undefined : `${listP95} ms (floor ${m("list", "floorP95Ms")} ms)`, bigList ? listP95! <= 20 : null);
  const mb = m("import", "mediaMbPerS");
  const rss = m("import", "apiPeakRssMb");
  const jobBytes = m("import", "redisMaxJobDataBytes");
  const fullImport = opts.importClients >= 4 && opts.images * opts.imageMb >= 5;
  target("6. import: >= 100 MB/s of media with 4 clients", mb === undefined ? undefined : `${mb} MB/s`, fullImport ? mb! >= 100 : null);
  target("6. ... peak API RSS <= 400 MB", rss === undefined ? undefined : `${rss} MB`, fullImport ? rss! <= 400 : null);
  target(
    "6. ... no base64 in Redis",
    jobBytes === undefined ? undefined : `largest job data ${jobBytes} bytes`,
    jobBytes === undefined ? null : jobBytes < 1024,
  );
  // Issue 24: the sync engine's cost per employee. The Postgres baseline is the mean of the
  // floors measured on this machine before the issue (commit 1efb9ed, bench/README.md).
  const floorPg = m("sync-floor", "cpuPostgresMsPerItem");
  target(
    `24. sync-floor Postgres CPU per employee <= 0.75 x ${FLOOR_POSTGRES_MS_BEFORE} ms (before issue 24)`,
    floorPg === undefined ? undefined : `${floorPg} ms (${round(floorPg / FLOOR_POSTGRES_MS_BEFORE, 2)}x)`,
    floorPg === undefined ? null : floorPg <= 0.75 * FLOOR_POSTGRES_MS_BEFORE,
  );
  target("24. sync-floor / sync-raw >= 0.6", raw && floor ? `${round(floor / raw, 2)}` : undefined, raw && floor ? floor / raw >= 0.6 : null);
  target("24. sync-create / sync-floor >= 0.8", floor && create ? `${round(create / floor, 2)}` : undefined, floor && create ? create / floor >= 0.8 : null);
  const createRedis = m("sync-create", "cpuRedisMsPerItem");
  target(
    "24. Redis CPU per employee in sync-create <= 0.12 ms",
    createRedis === undefined ? undefined : `${createRedis} ms`,
    createRedis === undefined ? null : createRedis <= 0.12,
  );
  const createPg = m("sync-create", "cpuPostgresMsPerItem");
  target(
    "24. Postgres on paper (sync-create): >= 1,200 employees/s per core",
    createPg === undefined ? undefined : `${Math.round(1000 / createPg)} employees/s (${createPg} ms each)`,
    createPg === undefined ? null : 1000 / createPg >= 1200,
  );
  // Issue 33: scheduled inspections at 10,000 daily schedules, 30 days ahead, two workers.
  const fullSchedules = opts.schedules >= 10_000;
  const made = m("schedules", "occurrences");
  const exactlyOnce = m("schedules", "duplicates") === 0 && m("schedules", "schedulesMissingOccurrences") === 0;
  target(
    "33. 10,000 daily schedules made 30 days ahead by 2 workers: no duplicates, none missing (time and occurrences/s reported)",
    made === undefined
      ? undefined
      : `${made} in ${m("schedules", "materializeSeconds")} s, ${m("schedules", "occurrencesPerS")}/s; ${exactlyOnce ? "each once" : "NOT each once"}`,
    made === undefined ? null : fullSchedules ? exactlyOnce : null,
  );
  const occurrencesP95 = m("schedules", "listP95Ms");
  target(
    "33. ... GET /api/occurrences of one user: p95 < 50 ms",
    occurrencesP95 === undefined ? undefined : `${occurrencesP95} ms`,
    fullSchedules && occurrencesP95 !== undefined ? occurrencesP95 < 50 : null,
  );
  const neighbourOpen = m("schedules", "neighbourOpenS");
  target(
    "33. ... meanwhile another organization's due occurrence opens within 10 s (-1: never)",
    neighbourOpen === undefined ? undefined : `${neighbourOpen} s`,
    fullSchedules && neighbourOpen !== undefined ? neighbourOpen >= 0 && neighbourOpen <= 10 : null,
  );
  const soakRequests = m("soak", "requests");
  const soakBad = ["fiveXx", "connectionErrors", "lostItems", "doneTwice"].reduce((n, k) => n + (m("soak", k) ?? 0), 0);
  target(
    "soak: no 5xx, no connection error, nothing lost or done twice",
    soakRequests === undefined ? undefined : `${soakRequests} requests, ${soakBad} problems`,
    soakBad === 0,
  );
  return out;
}

/** One row of the CPU table: ms of CPU per item, by process. */
export interface CpuRow {
  scenario: string;
  item: string;
  api: number;
  worker: number;
  postgres: number;
  redis: number;
  /** The bench process: the floors' own Node work, the load generators. */
  bench: number;
}

/** CPU per item by process for every scenario that measured it (target 7). */
export function cpuTable(results: ScenarioResult[]): CpuRow[] {
  const out: CpuRow[] = [];
  const add = (scenario: ScenarioName, item: string, prefix = "cpu") => {
    const x = results.find((r) => r.name === scenario)?.metrics;
    if (!x || x[`${prefix}ApiMsPerItem`] === undefined) return;
    out.push({
      scenario,
      item,
      api: x[`${prefix}ApiMsPerItem`]!,
      worker: x[`${prefix}WorkerMsPerItem`]!,
      postgres: x[`${prefix}PostgresMsPerItem`]!,
      redis: x[`${prefix}RedisMsPerItem`]!,
      bench: x[`${prefix}BenchMsPerItem`]!,
    });
  };
  add("sync-raw", "employee (bench process)");
  add("sync-floor", "employee (bench process)");
  add("sync-create", "employee");
  add("sync-update", "employee");
  add("sync-accounts", "employee with its welcome mail");
  add("sync-large", "employee");
  add("webhooks", "employee with its webhook");
  add("import", "inspection");
  add("list", "request (page 1)", "page1Cpu");
  add("soak", "request (mixed)");
  return out;
}

/**
 * On paper, from the CPU per item of one scenario: what each part of the system could do alone.
 * The API is one process per replica (one core at most); Redis one thread; Postgres and the
 * workers spread over cores. The lowest ceiling for N worker processes on C cores is where
 * throughput stops growing.
 */
function ceilings(row: CpuRow): { api: number; redis: number; workerPerProcess: number; postgresPerCore: number } {
  const perS = (ms: number) => (ms > 0.005 ? Math.round(1000 / ms) : Infinity);
  return { api: perS(row.api), redis: perS(row.redis), workerPerProcess: perS(row.worker), postgresPerCore: perS(row.postgres) };
}

const fmt = (n: number) => (Number.isFinite(n) ? String(n) : "–");
const rowLine = (r: Row) =>
  `| ${r.scenario} | ${r.what} | ${r.n} | ${fmt(r.medianMs)} ms | ${fmt(r.p95Ms)} ms | ${r.throughput ? `${fmt(r.throughput.value)} ${r.throughput.unit}` : ""} | ${r.extra ?? ""} |`;

export interface Report {
  startedAt: string;
  finishedAt: string;
  durationS: number;
  environment: Environment;
  conditions: { before: Conditions; after: Conditions; perScenario: Record<string, Conditions> };
  options: Omit<BenchOptions, "outDir" | "pgServerUrl" | "redisUrl" | "keepDb" | "profileDir" | "logDir" | "waitQuietS" | "autoExplainMs" | "serviceEnv">;
  scenarios: ScenarioResult[];
  ratios: Ratio[];
  targets: Target[];
  cpu: CpuRow[];
  notes: string[];
}

function noisy(r: Report): string {
  const names = Object.entries(r.conditions.perScenario)
    .filter(([, c]) => c.vitestProcesses > 0)
    .map(([n]) => n);
  return names.length ? `; vitest seen at the start of ${names.join(", ")}` : "";
}

export function markdown(r: Report): string {
  const e = r.environment;
  const lines = [
    `### Benchmark ${r.startedAt} (${r.durationS} s)`,
    "",
    `${e.cores} cores (${e.cpu}), ${e.memoryGb} GB; Node ${e.node}, PostgreSQL ${e.postgres}, Redis ${e.redis}; commit ${e.commit}.`,
    `Load average ${r.conditions.before.loadAvg1m} before, ${r.conditions.after.loadAvg1m} after; vitest processes running: ${r.conditions.before.vitestProcesses} before, ${r.conditions.after.vitestProcesses} after${noisy(r)}.`,
    "\"others\" in the notes: the share of the machine's busy CPU taken by processes other than the service, its Postgres backends, Redis and the bench (other engineers' test runs).",
    "",
    "| Scenario | Sample | n | Median | p95 | Throughput | Notes |",
    "|---|---|---:|---:|---:|---:|---|",
    ...r.scenarios.flatMap((s) => s.rows.map(rowLine)),
    "",
  ];
  if (r.ratios.length) {
    lines.push("| Ratio | Value | Meaning |", "|---|---:|---|", ...r.ratios.map((x) => `| ${x.name} | ${x.value} | ${x.explain} |`), "");
  }
  lines.push(
    "| Target | Measured | Met |",
    "|---|---|---|",
    ...r.targets.map((t) => `| ${t.name} | ${t.measured} | ${t.met === null ? "not measured" : t.met ? "yes" : "**no**"} |`),
    "",
  );
  if (r.cpu.length) {
    lines.push(
      "CPU ms per item by process, and what each could do alone (items/s: the API and Redis are one process/thread each; workers per process; Postgres per core):",
      "",
      "| Scenario | Item | API | Worker | Postgres | Redis | Bench | API alone | Redis alone | per worker process | Postgres per core |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...r.cpu.map((c) => {
        const x = ceilings(c);
        const f = (n: number) => (Number.isFinite(n) ? String(n) : "–");
        return `| ${c.scenario} | ${c.item} | ${c.api} | ${c.worker} | ${c.postgres} | ${c.redis} | ${c.bench} | ${f(x.api)} | ${f(x.redis)} | ${f(x.workerPerProcess)} | ${f(x.postgresPerCore)} |`;
      }),
      "",
    );
  }
  if (r.notes.length) lines.push(...r.notes.map((n) => `- ${n}`), "");
  return lines.join("\n");
}

/** bench/results/<timestamp>.json, and latest.json unless told not to. */
export async function writeResults(r: Report, outDir: string, latest: boolean): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify(r, null, 2)}\n`;
  const files = [path.join(outDir, `${r.startedAt.replace(/[:.]/g, "-")}.json`)];
  if (latest) files.push(path.join(outDir, "latest.json"));
  for (const f of files) await writeFile(f, json);
  return files;
}
