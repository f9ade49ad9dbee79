import { z } from "zod";
import { ConfigError, baseEnvShape, boolVar, intVar, loadEnv, requireInProduction, requireMediaSettings, requireRedisSettings } from "@insp/config";

/** The API's configuration, parsed once at start-up (README, Configuration). */
export const apiEnvShape = {
  ...baseEnvShape,
  PORT: intVar(3000, 0, 65535),
  HOST: z.string().default("0.0.0.0"),
  RATE_LIMIT_PER_MINUTE: intVar(1000, 1, 1_000_000),
  /** Failed authentications (401) per client address per minute before 429. */
  AUTH_FAILURES_PER_MINUTE: intVar(60, 1, 1_000_000),
  BODY_LIMIT_MB: intVar(5, 1, 1024),
  INSPECTION_BODY_LIMIT_MB: intVar(50, 1, 2048),
  SYNC_WAIT_SECONDS: intVar(60, 1, 3600),
  /** Snapshot sync sessions run out after this long (batches and commits are refused then). */
  SYNC_SESSION_TTL_HOURS: intVar(24, 1, 720),
  /** The deletion guard: a commit deactivating more than this % of the ACTIVE employees in scope ... */
  DEACTIVATION_THRESHOLD_PERCENT: intVar(5, 0, 100),
  /** ... and more than this many is quarantined until an administrator approves it. */
  DEACTIVATION_THRESHOLD_MIN: intVar(10, 0, 10_000_000),
  IMPORT_WAIT_SECONDS: intVar(30, 1, 3600),
  /** Largest decoded image accepted by POST /api/inspections (each media item). */
  MEDIA_MAX_IMAGE_MB: intVar(10, 1, 1024),
  TOKEN_TTL_SECONDS: intVar(3600, 60, 86_400),
  USER_TOKEN_TTL_SECONDS: intVar(900, 60, 86_400),
  TOKEN_ISSUER: z.string().min(1).default("inspection-service"),
  /** PEM (PKCS#8) EC P-256 private key; unset: a key kept in Postgres, shared by all replicas. */
  JWT_PRIVATE_KEY: z.string().includes("PRIVATE KEY", { message: "must be a PEM private key" }).optional(),
  /** Optional server-side pepper for API key and client secret hashes; the admin CLI needs the same one. */
  SECRET_PEPPER: z.string().min(16, "must be at least 16 characters").optional(),
  MIGRATE_ON_START: boolVar(true),
  SHUTDOWN_TIMEOUT_SECONDS: intVar(25, 1, 600),
  /** Express `trust proxy`: set when behind a load balancer so rate limits see client addresses. */
  TRUST_PROXY: boolVar(false),
  /** GET /metrics on PORT needs `Authorization: Bearer <this>`; unset: /metrics on PORT is 404. */
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  /** A second listener serving only GET /metrics, without a token (a private network's scraper); 0: none. */
  METRICS_PORT: intVar(0, 0, 65535),
  /** The address METRICS_PORT listens on; unset: HOST. 127.0.0.1 keeps it to a scraper on the same host. */
  METRICS_HOST: z.string().trim().min(1).optional(),
  /** The queue dashboard (/admin/queues): operator user name for HTTP Basic; with the hash below, else not mounted. */
  ADMIN_DASHBOARD_USER: z.string().trim().min(1).max(128).optional(),
  /** argon2id hash of the operator password (`npm run admin -- hash-password` prints one). */
  ADMIN_DASHBOARD_PASSWORD_HASH: z.string().trim().startsWith("$argon2id$", "must be an argon2id hash ($argon2id$...), e.g. from `npm run admin -- hash-password`").optional(),
};

export type ApiEnv = ReturnType<typeof loadApiEnv>;
export function loadApiEnv(source: Record<string, string | undefined> = process.env) {
  const env = loadEnv(apiEnvShape, source);
  requireInProduction(env, ["WEBHOOK_SECRET_KEY"]);
  requireMediaSettings(env);
  requireRedisSettings(env);
  const problems: string[] = [];
  if (!env.ADMIN_DASHBOARD_USER !== !env.ADMIN_DASHBOARD_PASSWORD_HASH) problems.push("ADMIN_DASHBOARD_USER and ADMIN_DASHBOARD_PASSWORD_HASH: give both (the queue dashboard is on) or neither (off)");
  if (env.METRICS_PORT && env.METRICS_PORT === env.PORT) problems.push("METRICS_PORT: must differ from PORT");
  if (problems.length) throw new ConfigError(problems);
  return env;
}
