import type { Processor } from "bullmq";
import type { Db, DbHandle } from "@insp/db";
import type { Logger, Mailer, MediaStore } from "@insp/core";
import type { Queues } from "@insp/queue";
import type { JobMetrics, Registry } from "@insp/observability";
import type { WorkerEnv } from "./env.ts";

export interface WorkerDeps {
  env: WorkerEnv;
  db: Db;
  dbHandle: DbHandle;
  queues: Queues;
  logger: Logger;
  /** SMTP (or .eml files in development); closed at shutdown after the workers. */
  mailer: Mailer;
  /** Where image bytes live (MEDIA_STORE): the orphan sweep deletes from it. */
  media: MediaStore;
  /** This process's metrics: its registry, job timings and the sync counter (docs/operations.md, Metrics, dashboards and tracing). */
  metrics: { registry: Registry; jobs: JobMetrics };
}

/** Builds the processor of one queue (jobs/registry.ts). */
export type ProcessorFactory = (deps: WorkerDeps) => Processor;

/** Recurring housekeeping run by every worker replica, each task idempotent (periodic.ts). */
export type PeriodicTask = { name: string; everyMs: (deps: WorkerDeps) => number; run: (deps: WorkerDeps) => Promise<void> };
