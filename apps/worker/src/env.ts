import { z } from "zod";
import { ConfigError, baseEnvShape, boolVar, intVar, loadEnv, optionalUrlVar, requireInProduction, requireMediaSettings, requireRedisSettings } from "@insp/config";
import { parseSchedule } from "@insp/core";

/** The worker's configuration, parsed once at start-up (README, Configuration). */
export const workerEnvShape = {
  ...baseEnvShape,
  /** Employee-sync jobs one worker process runs at once. */
  WORKER_CONCURRENCY: intVar(8, 1, 200),
  /** Mail jobs one worker process runs at once (each holds a connection while its SMTP server answers). */
  MAIL_CONCURRENCY: intVar(4, 1, 200),
  /**
   * While this worker runs employee-sync jobs its mail worker waits, at most this long in a row
   * (then mails run for a second); 0: mails and syncs run side by side.
   */
  MAIL_DEFER_MAX_SECONDS: intVar(10, 0, 3600),
  /** Inspection-import jobs one worker process runs at once. */
  IMPORT_CONCURRENCY: intVar(2, 1, 200),
  /** Webhook delivery attempts one worker process runs at once (each holds a connection until the receiver answers). */
  WEBHOOK_CONCURRENCY: intVar(8, 1, 200),
  /** Seconds before each delivery attempt, comma-separated; default the Standard Webhooks schedule (about 27.6 hours). */
  WEBHOOK_RETRY_SCHEDULE: z.string().refine((s) => parseSchedule(s) !== null, "must be whole seconds separated by commas, e.g. 0,5,300").optional(),
  /** A receiver that has not answered within this long has failed the attempt. */
  WEBHOOK_TIMEOUT_SECONDS: intVar(10, 1, 60),
  /** An endpoint whose deliveries have all failed for this long is disabled (default 5 days). */
  WEBHOOK_DISABLE_AFTER_SECONDS: intVar(432_000, 1, 31_536_000),
  /** Postgres connections of a worker: at least the four concurrencies together (each running job holds one). */
  DB_POOL_MAX: intVar(24, 1, 200),
  /** smtp:// or smtps:// URL; unset in development: mails are written as .eml files under MAIL_DIR. */
  SMTP_URL: optionalUrlVar(["smtp:", "smtps:"]),
  MAIL_FROM: z.string().min(3).default("Inspection Service <no-reply@inspection.local>"),
  MAIL_DIR: z.string().min(1).default(".mail"),
  /** Where the welcome e-mail sends people to sign in. */
  APP_LOGIN_URL: z.string().url().default("http://127.0.0.1:3000/api/auth/login"),
  /** How often the outbox is swept for mails whose job was lost. */
  OUTBOX_SWEEP_SECONDS: intVar(30, 1, 3600),
  /** A pending employee-sync item untouched this long whose job is gone gets its job back. */
  SYNC_REQUEUE_AFTER_SECONDS: intVar(30, 5, 86_400),
  /**
   * BullMQ job lock: renewed every half of it while the job runs; when a worker dies, its jobs
   * are found by another worker's stalled check once the lock has expired.
   */
  WORKER_LOCK_SECONDS: intVar(5, 2, 600),
  /** How often each worker looks for jobs whose lock expired (stalled: their worker died). */
  WORKER_STALLED_CHECK_SECONDS: intVar(2, 1, 300),
  /**
   * While Postgres is unreachable, a job is put back (with backoff, at most 2 s apart) without
   * using one of its attempts, for at most this long after it was created; after that its
   * failures count as attempts again.
   */
  DB_OUTAGE_RETRY_SECONDS: intVar(900, 0, 86_400),
  /** Serve GET /healthz and /readyz on this port (orchestrators' health checks); unset: none. */
  HEALTH_PORT: intVar(0, 0, 65_535),
  /** GET /metrics on HEALTH_PORT needs `Authorization: Bearer <this>`; unset: /metrics there is 404. */
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  /** A listener serving only GET /metrics, without a token (a private network's scraper); 0: none. */
  METRICS_PORT: intVar(0, 0, 65_535),
  /** The address METRICS_PORT listens on (all interfaces by default); 127.0.0.1 keeps it to a scraper on the same host. */
  METRICS_HOST: z.string().trim().min(1).default("0.0.0.0"),
  /** Completed sync requests (their results and the status URL) are kept this long. */
  SYNC_RETENTION_DAYS: intVar(30, 1, 3650),
  /** Audit entries are kept this long. */
  AUDIT_RETENTION_DAYS: intVar(365, 1, 36_500),
  /**
   * Media nothing references are deleted once unused this long (default one day). At least a
   * minute: an upload's bytes are still on their way to the store for a moment after its row is made.
   */
  MEDIA_ORPHAN_GRACE_SECONDS: intVar(86_400, 60, 31_536_000),
  /** How often the orphan sweep runs. */
  MEDIA_SWEEP_SECONDS: intVar(300, 1, 86_400),
  MIGRATE_ON_START: boolVar(true),
  SHUTDOWN_TIMEOUT_SECONDS: intVar(25, 1, 600),
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
  if (env.METRICS_PORT && env.METRICS_PORT === env.HEALTH_PORT) throw new ConfigError(["METRICS_PORT: must differ from HEALTH_PORT (set METRICS_TOKEN to serve /metrics on HEALTH_PORT)"]);
  if (env.NODE_ENV === "production" && !env.SMTP_URL) {
    throw new ConfigError(["SMTP_URL: required when NODE_ENV=production"]);
  }
  return env;
}
