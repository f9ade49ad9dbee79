import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { promisify } from "node:util";
import type postgres from "postgres";
import { round } from "./stats.ts";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) per process in ms, from /proc/<pid>/stat; processes that are gone are left out. */
export async function cpuByPid(pids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may contain spaces) start after the last ')'.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND); // utime, stime (fields 14 and 15)
    } catch {
      /* exited */
    }
  }
  return out;
}

/**
 * CPU the processes spent between two readings: per process, so one that exits in between
 * counts 0 rather than minus its lifetime (a pool closing an idle connection), and one that
 * appears in between counts all of its CPU.
 */
function spent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, end] of after) ms += end - (before.get(pid) ?? 0);
  return ms;
}

/** Busy CPU time of the whole machine in ms (every core, every process), from /proc/stat. */
async function machineBusyMs(): Promise<number> {
  try {
    const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Busy share of all cores over `ms` (0..1): between scenarios the service idles, so this is other processes. */
export async function machineBusyShare(ms = 2000): Promise<number> {
  const a = await machineBusyMs();
  await new Promise((r) => setTimeout(r, ms));
  return ((await machineBusyMs()) - a) / (ms * os.cpus().length);
}

/** Postgres backends serving this database (Postgres runs on this machine: their CPU is in /proc). */
async function pgBackendPids(sql: postgres.Sql): Promise<number[]> {
  const rows = await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  return rows.map((r) => Number(r.pid));
}

/**
 * Transactions of this database so far: every statement outside an explicit transaction is
 * one, so the difference over a run counts round trips to Postgres (its statistics are
 * flushed about once a second, so read after a pause).
 */
async function pgTransactions(sql: postgres.Sql): Promise<{ ours: number; others: number; othersRowsWritten: number }> {
  const [row] = await sql`
    select sum(xact_commit + xact_rollback) filter (where datname = current_database()) as ours,
           sum(xact_commit + xact_rollback) filter (where datname <> current_database()) as others,
           sum(tup_inserted + tup_updated + tup_deleted) filter (where datname <> current_database()) as others_rows
    from pg_stat_database`;
  return { ours: Number(row?.ours ?? NaN), others: Number(row?.others ?? 0), othersRowsWritten: Number(row?.others_rows ?? 0) };
}

let redisPid: number[] | undefined;
async function redisPids(): Promise<number[]> {
  if (!redisPid) {
    try {
      const { stdout } = await promisify(execFile)("pgrep", ["-x", "redis-server"]);
      redisPid = stdout.split("\n").filter(Boolean).map(Number);
    } catch {
      redisPid = [];
    }
  }
  return redisPid;
}

/** Where the CPU went while a measured piece ran, in ms. */
export interface CpuSplit {
  wallMs: number;
  /** The service's processes (API, workers). */
  serviceMs: number;
  /** Of serviceMs: the first process measured (the API, or a floor's server) and the others (the workers). */
  apiMs: number;
  workersMs: number;
  /** This database's Postgres backends (the API's, the workers' and the bench's own). */
  postgresMs: number;
  redisMs: number;
  /** This process: load generator, floor, fixtures. */
  benchMs: number;
  /** Everything else on the machine (other engineers' test runs): the noise. */
  othersMs: number;
  /** Busy share of all cores, 0..1. */
  machineBusy: number;
  /** Postgres transactions of this database during the run (statements outside a transaction count one each). */
  pgTransactions: number;
  /** Transactions and rows written in the server's other databases meanwhile (other engineers' tests share Postgres). */
  pgOtherTransactions: number;
  pgOtherRowsWritten: number;
}

/**
 * Runs `fn` and splits the machine's CPU time over it between the service processes, this
 * database's Postgres backends, Redis, the bench process and everything else.
 */
export async function measureCpu<T>(sql: postgres.Sql, servicePids: number[], fn: () => Promise<T>): Promise<{ value: T; cpu: CpuSplit }> {
  const redis = await redisPids();
  const pgBefore = await pgBackendPids(sql);
  await sql`select pg_stat_clear_snapshot()`;
  const x0 = await pgTransactions(sql);
  const [s0, g0, r0, m0, b0, t0] = [
    await cpuByPid(servicePids),
    await cpuByPid(pgBefore),
    await cpuByPid(redis),
    await machineBusyMs(),
    process.cpuUsage(),
    performance.now(),
  ];
  const value = await fn();
  const wallMs = performance.now() - t0;
  const b1 = process.cpuUsage(b0);
  const pgAfter = [...new Set([...pgBefore, ...(await pgBackendPids(sql))])];
  const [s1, g1, r1, m1] = [await cpuByPid(servicePids), await cpuByPid(pgAfter), await cpuByPid(redis), await machineBusyMs()];
  const serviceMs = spent(s0, s1);
  const first = servicePids[0];
  const apiMs = first === undefined ? 0 : spent(new Map([[first, s0.get(first) ?? 0]]), new Map(s1.has(first) ? [[first, s1.get(first)!]] : []));
  const postgresMs = spent(g0, g1);
  const redisMs = spent(r0, r1);
  const benchMs = (b1.user + b1.system) / 1000;
  const machineMs = m1 - m0;
  await new Promise((r) => setTimeout(r, 1100)); // let backends flush their statistics
  await sql`select pg_stat_clear_snapshot()`;
  const x1 = await pgTransactions(sql);
  return {
    value,
    cpu: {
      wallMs: round(wallMs),
      serviceMs: round(serviceMs),
      apiMs: round(apiMs),
      workersMs: round(serviceMs - apiMs),
      postgresMs: round(postgresMs),
      redisMs: round(redisMs),
      benchMs: round(benchMs),
      othersMs: round(Math.max(0, machineMs - serviceMs - postgresMs - redisMs - benchMs)),
      machineBusy: round(machineMs / (wallMs * os.cpus().length), 2),
      pgTransactions: x1.ours - x0.ours,
      pgOtherTransactions: Math.max(0, x1.others - x0.others), // dropped databases leave the sum
      pgOtherRowsWritten: Math.max(0, x1.othersRowsWritten - x0.othersRowsWritten),
    },
  };
}

/** "CPU ms/request: API 2.1, Postgres 1.4, Redis 0.1, bench 0.3; ~3 PG transactions/request; machine 80% busy, others 2%". */
export function describeCpu(c: CpuSplit, per: number, unit: string, serviceName = "service", withTransactions = false): string {
  const each = (ms: number) => round(ms / per, 2);
  const busy = c.serviceMs + c.postgresMs + c.redisMs + c.benchMs + c.othersMs;
  const others = busy > 0 ? Math.round((100 * c.othersMs) / busy) : 0;
  const tx = withTransactions ? `; ~${round(c.pgTransactions / per, 1)} PG transactions/${unit}` : "";
  const otherDbs = c.pgOtherTransactions > 0 ? `; other databases: ${c.pgOtherTransactions} transactions, ${c.pgOtherRowsWritten} rows written` : "";
  return `CPU ms/${unit}: ${serviceName} ${each(c.serviceMs)}, Postgres ${each(c.postgresMs)}, Redis ${each(c.redisMs)}, bench ${each(c.benchMs)}${tx}; machine ${Math.round(c.machineBusy * 100)}% busy, others ${others}%${otherDbs}`;
}
