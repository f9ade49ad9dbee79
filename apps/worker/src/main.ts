// First: tracing starts before anything else loads.
import "./tracing.ts";
import { Worker } from "bullmq";
import { exitOnStartFailure } from "@insp/config";
import { createLogger, createMailer, createMediaStore, installProcessGuards } from "@insp/core";
import { createDb, runMigrations } from "@insp/db";
import { JOB_NAMES, Queues, createRedis, queuePolicies, type JobName } from "@insp/queue";
import { createServiceMetrics, jobMetrics, startMetricsServer } from "@insp/observability";
import { queueTelemetry, stopTracing } from "@insp/observability/tracing";
import type { WorkerDeps } from "./deps.ts";
import { loadWorkerEnv } from "./env.ts";
import { startHealthServer } from "./health.ts";
import { preferSyncOverMail } from "./priority.ts";
import { buildProcessors } from "./jobs/registry.ts";
import { startPeriodicTasks } from "./periodic.ts";

async function main() {
  const env = loadWorkerEnv();
  const logger = createLogger("worker", env.LOG_LEVEL);
  installProcessGuards(logger);
  if (env.MIGRATE_ON_START) await runMigrations(env.DATABASE_URL);
  const dbHandle = createDb(env.DATABASE_URL, { max: env.DB_POOL_MAX, applicationName: "inspection-worker" });
  const producer = createRedis(env, "producer");
  const telemetry = await queueTelemetry();
  const queues = new Queues(producer, env.QUEUE_PREFIX, telemetry);
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, mailDir: env.MAIL_DIR });
  const registry = createServiceMetrics("worker", { dbHandle, queues: JOB_NAMES.map((n) => queues.queue(n)) });
  const metrics = { registry, jobs: jobMetrics(registry) };
  const deps: WorkerDeps = { env, db: dbHandle.db, dbHandle, queues, logger, mailer, media: await createMediaStore(env), metrics };
  // Before any job is taken: a port that is taken stops the start here (exit 78), not mid-job.
  let started = false;
  const health = await startHealthServer(deps, producer, () => started);
  const metricsServer = env.METRICS_PORT
    ? await startMetricsServer(registry, env.METRICS_PORT, env.METRICS_HOST, { port: "METRICS_PORT", host: "METRICS_HOST" }, (err) =>
        logger.error({ err }, "worker metrics server failed"),
      )
    : null;
  if (metricsServer) logger.info({ port: env.METRICS_PORT }, "worker metrics listening");

  const concurrency: Record<JobName, number> = {
    "employee-sync": env.WORKER_CONCURRENCY,
    mail: env.MAIL_CONCURRENCY,
    "inspection-import": env.IMPORT_CONCURRENCY,
    "inspection-export": env.EXPORT_CONCURRENCY,
    "inspection-report": env.REPORT_CONCURRENCY,
    webhook: env.WEBHOOK_CONCURRENCY,
  };
  const workers = [...buildProcessors(deps)].map(([name, processor]) => {
    const w = new Worker(name, processor, {
      connection: createRedis(env, "worker"),
      prefix: env.QUEUE_PREFIX,
      concurrency: concurrency[name],
      // A dead worker's jobs go back to the queue within about lock + check interval
      // (docs/failure-behaviour.md), instead of BullMQ's default 30 s + 30 s. maxStalledCount 2: a job
      // whose worker died twice is still run; a third time it fails and the sweep takes over.
      lockDuration: env.WORKER_LOCK_SECONDS * 1000,
      stalledInterval: env.WORKER_STALLED_CHECK_SECONDS * 1000,
      maxStalledCount: 2,
      ...(telemetry ? { telemetry } : {}),
      // Completed/failed jobs are trimmed by the per-queue policy (queuePolicies).
      removeOnComplete: queuePolicies[name].removeOnComplete,
      removeOnFail: queuePolicies[name].removeOnFail,
    });
    w.on("failed", (job, err) => {
      logger.warn({ queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade, err }, "job failed");
    });
    w.on("stalled", (jobId) => logger.warn({ queue: name, jobId }, "job stalled (the worker running it stopped): queued again"));
    w.on("error", (err) => logger.error({ queue: name, err }, "worker error"));
    metrics.jobs.watch(w);
    return w;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const byName = (n: JobName) => workers.find((w) => w.name === n)!;
  const stopPriority = preferSyncOverMail(byName("employee-sync"), byName("mail"), env.MAIL_DEFER_MAX_SECONDS * 1000, logger);
  const stopPeriodic = startPeriodicTasks(deps);
  started = true;

  // SIGTERM: stop taking jobs and let active ones finish, bounded (BullMQ's worker.close()
  // waits for active jobs with no time limit of its own), then close the mailer, queues and the pool.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    stopPeriodic();
    stopPriority();
    health?.close();
    metricsServer?.close();
    const deadline = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), env.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref());
    const closed = await Promise.race([Promise.all(workers.map((w) => w.close())).then(() => "closed" as const), deadline]);
    if (closed === "timeout") {
      logger.error("active jobs did not finish in time; they will be retried by another worker (stalled-job recovery)");
      await Promise.all(workers.map((w) => w.close(true))).catch(() => {});
    }
    mailer.close();
    await queues.close().catch(() => {});
    producer.disconnect();
    await dbHandle.close().catch(() => {});
    await stopTracing();
    logger.info("stopped");
    process.exit(closed === "timeout" ? 1 : 0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Started by `npm start` (which opens an IPC channel): a launcher that died without stopping us
  // closes it, and we stop too, so nothing is left holding ports for the next start.
  if (process.connected) process.once("disconnect", () => void shutdown("launcher gone"));
  // Said only once the signal handlers are in place: a SIGTERM sent as soon as a parent reads this
  // line drains and exits 0 instead of killing a process without handlers.
  logger.info({ queues: workers.map((w) => w.name), concurrency, prefix: env.QUEUE_PREFIX }, "worker ready");
}

main().catch(exitOnStartFailure("worker"));
