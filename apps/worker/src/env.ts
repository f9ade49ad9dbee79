import { z } from "zod";
import {
  ConfigError,
  baseEnvShape,
  boolVar,
  intVar,
  loadEnv,
  optionalUrlVar,
  requireInProduction,
  requireMediaSettings,
  requireRedisSettings,
} from "@insp/config";
import { parseSchedule } from "@insp/core";

/** The worker's configuration, parsed once at start-up; docs/configuration.md is generated from it. */
export const workerEnvShape = {
  ...baseEnvShape,
  WORKER_CONCURRENCY: intVar(8, 1, 200).describe("Employee-sync jobs one worker process runs at once."),
  MAIL_CONCURRENCY: intVar(4, 1, 200).describe("Mail jobs one worker process runs at once (each holds a connection while its SMTP server answers)."),
  MAIL_DEFER_MAX_SECONDS: intVar(10, 0, 3600).describe(
    "While this worker runs employee-sync jobs its mail jobs wait, at most this long in a row (then mails run for a second); 0: mails and syncs run side by side.",
  ),
  IMPORT_CONCURRENCY: intVar(2, 1, 200).describe("Inspection-import jobs one worker process runs at once."),
  REPORT_CONCURRENCY: intVar(1, 1, 50).describe(
    "PDF reports one worker process renders at once (each holds one image at a time in memory, scaled down before it is embedded).",
  ),
  EXPORT_CONCURRENCY: intVar(1, 1, 50).describe(
    "CSV and XLSX exports one worker process writes at once (each holds one page of a few hundred inspections in memory).",
  ),
  EXPORT_RETENTION_HOURS: intVar(24, 1, 24 * 365).describe(
    "Exports (their files and statuses) are deleted this many hours after they finished (SUCCEEDED, FAILED or CANCELLED).",
  ),
  WEBHOOK_CONCURRENCY: intVar(8, 1, 200).describe(
    "Webhook delivery attempts one worker process runs at once (each holds a connection until the receiver answers).",
  ),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .refine((s) => parseSchedule(s) !== null, "must be whole seconds separated by commas, e.g. 0,5,300")
    .optional()
    .describe(
      "Seconds before each webhook delivery attempt, comma-separated; unset: the Standard Webhooks schedule `0,5,300,1800,7200,18000,36000,36000` (about 27.6 hours).",
    ),
  WEBHOOK_MAX_IN_FLIGHT_PER_ORG: intVar(4, 1, 1000).describe(
    "Webhook attempts of one organization running at once across all workers; its other deliveries wait (without using an attempt) so that a receiver that hangs until its timeout holds at most this many delivery slots, never every one.",
  ),
  WEBHOOK_TIMEOUT_SECONDS: intVar(10, 1, 60).describe("A webhook receiver that has not answered within this long has failed the attempt."),
  WEBHOOK_DISABLE_AFTER_SECONDS: intVar(432_000, 1, 31_536_000).describe(
    "An endpoint whose deliveries have all failed for this long is disabled (default 5 days).",
  ),
  SYNC_JOB_TIMEOUT_SECONDS: intVar(60, 1, 86_400).describe(
    "An employee-sync job running longer than this fails its attempt (retried per the queue's policy) and frees its slot; its transaction is cancelled.",
  ),
  MAIL_JOB_TIMEOUT_SECONDS: intVar(60, 1, 86_400).describe(
    "A mail job running longer than this fails its attempt (retried per the queue's policy) and frees its slot.",
  ),
  IMPORT_JOB_TIMEOUT_SECONDS: intVar(300, 1, 86_400).describe(
    "An inspection-import job running longer than this fails its attempt (retried per the queue's policy) and frees its slot.",
  ),
  REPORT_JOB_TIMEOUT_SECONDS: intVar(300, 1, 86_400).describe(
    "A PDF report job running longer than this fails its attempt (retried per the queue's policy; the last one records the report FAILED) and frees its slot.",
  ),
  EXPORT_JOB_TIMEOUT_SECONDS: intVar(1800, 1, 86_400).describe(
    "A CSV/XLSX export job running longer than this stops at its next page and fails its attempt (retried per the queue's policy; the last one records the export FAILED).",
  ),
  WEBHOOK_JOB_TIMEOUT_SECONDS: intVar(0, 0, 86_400).describe(
    "A webhook delivery job running longer than this fails its attempt (its request is aborted, the attempt recorded as failed and the delivery's next attempt scheduled) and frees its slot; 0: WEBHOOK_TIMEOUT_SECONDS + 15.",
  ),
  DB_POOL_MAX: intVar(24, 1, 200).describe(
    "Postgres connections of a worker: at least WORKER_CONCURRENCY + MAIL_CONCURRENCY + IMPORT_CONCURRENCY + WEBHOOK_CONCURRENCY (each running job holds one).",
  ),
  SMTP_URL: optionalUrlVar(["smtp:", "smtps:"]).describe(
    "Where mail goes, `smtp://user:pass@host:port`, over a pool of 5 connections (`?pool=false` or `?maxConnections=N` change it); unset in development: mails are written as .eml files under MAIL_DIR. Required in production.",
  ),
  MAIL_FROM: z.string().min(3).default("Inspection Service <no-reply@inspection.local>").describe("Sender of welcome mails."),
  MAIL_DIR: z.string().min(1).default(".mail").describe("Where mails are written without SMTP_URL (development)."),
  APP_LOGIN_URL: z.string().url().default("http://127.0.0.1:3000/api/auth/login").describe("Where the welcome mail sends people to sign in."),
  OUTBOX_SWEEP_SECONDS: intVar(30, 1, 3600).describe("How often the mail outbox is swept for mails whose job was lost."),
  SYNC_REQUEUE_AFTER_SECONDS: intVar(30, 5, 86_400).describe(
    "A pending employee-sync item untouched this long whose job is gone gets its job back (the sweep runs every 10 s).",
  ),
  WORKER_LOCK_SECONDS: intVar(5, 2, 600).describe(
    "BullMQ job lock, renewed every half of it while the job runs; a dead worker's jobs are found by another worker's stalled check once it has expired.",
  ),
  WORKER_STALLED_CHECK_SECONDS: intVar(2, 1, 300).describe("How often each worker looks for jobs whose lock expired (their worker died)."),
  DB_OUTAGE_RETRY_SECONDS: intVar(900, 0, 86_400).describe(
    "While Postgres is unreachable, a job is put back (with backoff, at most 2 s apart) without using one of its attempts, for at most this long after it was created; after that its failures count as attempts again.",
  ),
  HEALTH_PORT: intVar(0, 0, 65_535).describe(
    "Serve GET /healthz and /readyz on this port (orchestrators' health checks), and GET /metrics there when METRICS_TOKEN is set; 0: none. `npm start` gives worker n this port + n - 1.",
  ),
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, "must be at least 16 characters")
    .optional()
    .meta({ secret: true })
    .describe("GET /metrics on HEALTH_PORT needs `Authorization: Bearer <this>` (16+ characters); unset: /metrics there is 404."),
  METRICS_PORT: intVar(0, 0, 65_535).describe(
    "A listener serving only GET /metrics, without a token, for a private network's scraper (must differ from HEALTH_PORT); 0: none.",
  ),
  METRICS_HOST: z
    .string()
    .trim()
    .min(1)
    .default("0.0.0.0")
    .describe("The address the METRICS_PORT listener binds; 127.0.0.1 keeps it to a scraper on the same host."),
  SYNC_RETENTION_DAYS: intVar(30, 1, 3650).describe("Completed sync requests (their results and the status URL) are kept this long."),
  AUDIT_RETENTION_DAYS: intVar(365, 1, 36_500).describe("Audit entries are kept this long."),
  MEDIA_ORPHAN_GRACE_SECONDS: intVar(86_400, 60, 31_536_000).describe(
    "Media nothing references are deleted once unused this long (default one day); at least a minute, since an upload's bytes are still on their way to the store for a moment after its row is made.",
  ),
  MEDIA_SWEEP_SECONDS: intVar(300, 1, 86_400).describe("How often the orphan media sweep runs."),
  ACTION_OVERDUE_SWEEP_SECONDS: intVar(60, 1, 3600).describe(
    "How often corrective actions whose dueAt has passed (OPEN or IN_PROGRESS) are looked for; each is announced once with action.overdue, at most this long after it became due.",
  ),
  SCHEDULE_SWEEP_SECONDS: intVar(30, 1, 3600).describe(
    "How often scheduled inspections are swept: occurrences made ahead, opened at their start, reminded, missed at their due time; each state change is at most this late.",
  ),
  SCHEDULE_HORIZON_DAYS: intVar(14, 1, 400).describe(
    "How far ahead occurrences of scheduled inspections are made (UPCOMING), so the field app's list shows them before they open; each schedule is expanded again once a day.",
  ),
  MIGRATE_ON_START: boolVar(true).describe(
    "Apply migrations at start (under an advisory lock, so replicas may start together); `npm start` migrates once itself.",
  ),
  SHUTDOWN_TIMEOUT_SECONDS: intVar(25, 1, 600).describe(
    "On SIGTERM: how long active jobs may take to finish; past it they are left to another worker (stalled-job recovery).",
  ),
};

export type WorkerEnv = ReturnType<typeof loadWorkerEnv>;

export function loadWorkerEnv(source: Record<string, string | undefined> = process.env) {
  const env = loadEnv(workerEnvShape, source);
  const jobs = env.WORKER_CONCURRENCY + env.MAIL_CONCURRENCY + env.IMPORT_CONCURRENCY + env.WEBHOOK_CONCURRENCY;
  if (jobs > env.DB_POOL_MAX) {
    throw new ConfigError([
      `WORKER_CONCURRENCY + MAIL_CONCURRENCY + IMPORT_CONCURRENCY + WEBHOOK_CONCURRENCY (${env.WORKER_CONCURRENCY} + ${env.MAIL_CONCURRENCY} + ${env.IMPORT_CONCURRENCY} + ${env.WEBHOOK_CONCURRENCY}) must not exceed DB_POOL_MAX (${env.DB_POOL_MAX}): each running job holds a connection`,
    ]);
  }
  requireInProduction(env, ["WEBHOOK_SECRET_KEY"]);
  requireMediaSettings(env);
  requireRedisSettings(env);
  if (env.METRICS_PORT && env.METRICS_PORT === env.HEALTH_PORT)
    throw new ConfigError(["METRICS_PORT: must differ from HEALTH_PORT (set METRICS_TOKEN to serve /metrics on HEALTH_PORT)"]);
  if (env.NODE_ENV === "production" && !env.SMTP_URL) {
    throw new ConfigError(["SMTP_URL: required when NODE_ENV=production"]);
  }
  return env;
}
