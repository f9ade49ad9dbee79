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

/** The two ratios the issue asks for, plus accounts vs create; only those whose scenarios ran. */
export function ratios(results: ScenarioResult[]): Ratio[] {
  const out: Ratio[] = [];
  const create = metric(results, "sync-create", "employeesPerS");
  const floor = metric(results, "sync-floor", "employeesPerS");
  if (create && floor) out.push({ name: "sync-create / sync-floor", value: round(create / floor, 2), explain: `throughput through HTTP + queue (${create}/s) vs the same per-employee work in-process (${floor}/s)` });
  const scale = metric(results, "scale", "ratio");
  if (scale) out.push({ name: "2 workers / 1 worker", value: scale, explain: `sync-create throughput with 2 worker processes vs 1 (${metric(results, "scale", "twoWorkersPerS")}/s vs ${metric(results, "scale", "oneWorkerPerS")}/s)` });
  const accounts = metric(results, "sync-accounts", "medianMs");
  const createMs = metric(results, "sync-create", "medianMs");
  if (accounts && createMs) out.push({ name: "sync-accounts / sync-create", value: round(accounts / createMs, 2), explain: `median batch latency with forcePasswordReset + sendWelcomeEmail vs without (${accounts} ms vs ${createMs} ms)` });
  return out;
}

/** The issue's targets, each met, missed, or not measured in this run (null). */
export function targets(results: ScenarioResult[], opts: BenchOptions): Target[] {
  const out: Target[] = [];
  const create = metric(results, "sync-create", "employeesPerS");
  const floor = metric(results, "sync-floor", "employeesPerS");
  const ratio = create && floor ? create / floor : undefined;
  out.push({ name: "sync-create throughput >= 50% of sync-floor", measured: ratio === undefined ? "not run" : `${round(ratio * 100, 0)}%`, met: ratio === undefined ? null : ratio >= 0.5 });
  const createMs = metric(results, "sync-create", "medianMs");
  const full = opts.batch === 500;
  out.push({
    name: "500-employee batch within 1.5 s (median)",
    measured: createMs === undefined ? "not run" : `${createMs} ms${full ? "" : ` (batch of ${opts.batch})`}`,
    met: createMs === undefined || !full ? null : createMs <= 1500,
  });
  const accounts = metric(results, "sync-accounts", "medianMs");
  out.push({
    name: "sync-accounts no more than 3x sync-create",
    measured: accounts && createMs ? `${round(accounts / createMs, 2)}x` : "not run",
    met: accounts && createMs ? accounts / createMs <= 3 : null,
  });
  const page1 = metric(results, "list", "page1P95Ms");
  const bigList = opts.listSize >= 100_000;
  out.push({
    name: "list page 1 p95 < 50 ms at 100,000 inspections",
    measured: page1 === undefined ? "not run" : `${page1} ms${bigList ? "" : ` (at ${opts.listSize})`}`,
    met: page1 === undefined || !bigList ? null : page1 < 50,
  });
  const rss = metric(results, "import", "apiPeakRssMb");
  const jobBytes = metric(results, "import", "redisMaxJobDataBytes");
  const fullImport = opts.importClients >= 4 && opts.images * opts.imageMb >= 5;
  out.push({
    name: "import peak API RSS < 400 MB (4 parallel 5 MB imports)",
    measured: rss === undefined ? "not run" : `${rss} MB`,
    met: rss === undefined || !fullImport ? null : rss < 400,
  });
  const soakRequests = metric(results, "soak", "requests");
  const soakBad = ["fiveXx", "connectionErrors", "lostItems", "doneTwice"].reduce((n, k) => n + (metric(results, "soak", k) ?? 0), 0);
  out.push({
    name: "soak: no 5xx, no connection error, nothing lost or done twice",
    measured: soakRequests === undefined ? "not run" : `${soakRequests} requests, ${soakBad} problems`,
    met: soakRequests === undefined ? null : soakBad === 0,
  });
  out.push({
    name: "import: no base64 through Redis",
    measured: jobBytes === undefined ? "not run" : `largest job data ${jobBytes} bytes`,
    met: jobBytes === undefined ? null : jobBytes < 1024,
  });
  return out;
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
  notes: string[];
}

function noisy(r: Report): string {
  const names = Object.entries(r.conditions.perScenario).filter(([, c]) => c.vitestProcesses > 0).map(([n]) => n);
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
  lines.push("| Target | Measured | Met |", "|---|---|---|", ...r.targets.map((t) => `| ${t.name} | ${t.measured} | ${t.met === null ? "not measured" : t.met ? "yes" : "**no**"} |`), "");
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
