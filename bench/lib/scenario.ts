import type { BenchContext } from "./context.ts";
import type { CpuSplit } from "./cpu.ts";
import type { ScenarioName } from "./options.ts";
import { median, p95, round } from "./stats.ts";

/** One line of the printed table. */
export interface Row {
  scenario: string;
  /** What one sample is, e.g. "batch of 500 employees, 1 worker". */
  what: string;
  /** Number of samples behind median and p95. */
  n: number;
  medianMs: number;
  p95Ms: number;
  /** Median rate, e.g. 420 employees/s; for load tests the mean rate over the run. */
  throughput?: { value: number; unit: string };
  extra?: string;
}

export interface ScenarioResult {
  name: ScenarioName;
  rows: Row[];
  /** Machine-readable figures for the JSON file and the ratios. */
  metrics: Record<string, number>;
  /** Raw samples (ms) per row, for later analysis. */
  samples: Record<string, number[]>;
  notes: string[];
}

export type Progress = (message: string) => void;

export interface Scenario {
  name: ScenarioName;
  /** One line for --help and the report. */
  describe: string;
  /** Runs on a new, empty database (the run's database is recreated first when an earlier scenario used it). */
  freshDatabase?: boolean;
  run(ctx: BenchContext, progress: Progress): Promise<ScenarioResult>;
}

/** A latency row from samples, with the median per-sample rate of `perSample` items. */
export function latencyRow(scenario: string, what: string, samplesMs: number[], perSample?: { items: number; unit: string }, extra?: string): Row {
  const row: Row = { scenario, what, n: samplesMs.length, medianMs: round(median(samplesMs)), p95Ms: round(p95(samplesMs)) };
  if (perSample) row.throughput = { value: round((perSample.items * 1000) / median(samplesMs)), unit: perSample.unit };
  if (extra) row.extra = extra;
  return row;
}

/** CPU figures per item for the JSON file (ms per item, machine busy share, others' ms). */
export function cpuMetrics(c: CpuSplit, items: number, prefix = "cpu"): Record<string, number> {
  const per = (ms: number) => round(ms / items, 3);
  return {
    [`${prefix}ServiceMsPerItem`]: per(c.serviceMs),
    [`${prefix}ApiMsPerItem`]: per(c.apiMs),
    [`${prefix}WorkerMsPerItem`]: per(c.workersMs),
    [`${prefix}PostgresMsPerItem`]: per(c.postgresMs),
    [`${prefix}RedisMsPerItem`]: per(c.redisMs),
    [`${prefix}BenchMsPerItem`]: per(c.benchMs),
    [`${prefix}MachineBusy`]: c.machineBusy,
    [`${prefix}OthersMs`]: c.othersMs,
    [`${prefix}OtherDbTransactions`]: c.pgOtherTransactions,
  };
}
