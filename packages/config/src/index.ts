import { z } from "zod";

/**
 * Shared pieces of every app's environment schema. Each app composes its own
 * `env.ts` from these and parses it once at start-up: a bad value stops the process
 * with a message naming the variable, before it serves anything.
 */

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Integer from an env string, with bounds, e.g. `intVar(3000, 1, 65535)`. */
export const intVar = (def: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(def);

/** Boolean from an env string: true/false/1/0/yes/no. */
export const boolVar = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
    .transform((v) => v === "true" || v === "1" || v === "yes")
    .default(def);

const urlString = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`);

export const urlVar = (def: string, protocols: string[]) => urlString(protocols).default(def);
export const optionalUrlVar = (protocols: string[]) => urlString(protocols).optional();

export const baseEnvShape = {
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_URL: urlVar("postgres://postgres@127.0.0.1:5432/inspection_service", ["postgres:", "postgresql:"]),
  REDIS_URL: urlVar("redis://127.0.0.1:6379", ["redis:", "rediss:"]),
  /**
   * Seed nodes of a Redis Cluster, `host:port,host:port`: every process then connects as a cluster
   * client (REDIS_URL still gives the user, password and TLS, its host is not used), and
   * QUEUE_PREFIX must carry a {hash tag} (requireRedisSettings).
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .trim()
    .transform((v) => v.split(",").map((n) => n.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, "each node is host:port")).min(1, "name at least one host:port"))
    .optional(),
  /**
   * Redis key prefix of every BullMQ queue, the rate-limit counters and the queue marker; tests give
   * each file its own. It may hold one Redis Cluster hash tag, e.g. {insp} or insp-{tenantA}: Redis
   * Cluster then hashes only the tag, so every key of the prefix lands in one slot, as BullMQ's
   * multi-key scripts need. One tag only (Redis hashes the first pair of braces; more would
   * mislead), never empty ({} hashes the whole key, which would spread the keys across slots).
   */
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]*(\{[A-Za-z0-9_-]+\}[A-Za-z0-9_-]*)?$/, "letters, digits, _ and - only, with at most one non-empty {hash tag} for Redis Cluster")
    .min(1, "must not be empty")
    .default("insp"),
  DB_POOL_MAX: intVar(10, 1, 200),
  /** Where media bytes go: a folder (fs, under MEDIA_DIR) or an S3-compatible bucket (s3, MEDIA_S3_*). */
  MEDIA_STORE: z.enum(["fs", "s3"], { message: "must be fs or s3" }).default("fs"),
  /** Where decoded inspection media is stored (filesystem storage). */
  MEDIA_DIR: z.string().trim().min(1).default(".media"),
  MEDIA_S3_BUCKET: z.string().trim().min(3).optional(),
  MEDIA_S3_REGION: z.string().trim().min(1).default("us-east-1"),
  /** Any S3-compatible endpoint (MinIO, Ceph, Cloudflare R2, ...); unset: AWS S3 itself. */
  MEDIA_S3_ENDPOINT: optionalUrlVar(["http:", "https:"]),
  /** Bucket in the URL path instead of the host name (most self-hosted stores need it). */
  MEDIA_S3_FORCE_PATH_STYLE: boolVar(false),
  /** Unset (both): the AWS SDK's own credential chain (environment, shared files, instance role). */
  MEDIA_S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Prepended to every object key, e.g. "media/". */
  MEDIA_S3_PREFIX: z.string().regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits and !_.*'()/- only").default(""),
  /** Local folder for uploads being received before they go to S3; unset: a folder under the system's temporary directory. */
  MEDIA_SPOOL_DIR: z.string().trim().min(1).optional(),
  /** Encrypts webhook signing secrets at rest (any string of 32 or more characters); required in production. */
  WEBHOOK_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** Allow webhook endpoints on private, loopback and link-local addresses (tests, on-premises receivers). */
  WEBHOOK_ALLOW_PRIVATE: boolVar(false),
};

/** MEDIA_STORE=s3 needs a bucket, and S3 credentials come in pairs. */
export function requireMediaSettings(env: { MEDIA_STORE: string; MEDIA_S3_BUCKET?: string | undefined; MEDIA_S3_ACCESS_KEY_ID?: string | undefined; MEDIA_S3_SECRET_ACCESS_KEY?: string | undefined }): void {
  const problems: string[] = [];
  if (env.MEDIA_STORE === "s3" && !env.MEDIA_S3_BUCKET) problems.push("MEDIA_S3_BUCKET: required when MEDIA_STORE=s3");
  if (!env.MEDIA_S3_ACCESS_KEY_ID !== !env.MEDIA_S3_SECRET_ACCESS_KEY) problems.push("MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY: give both or neither");
  if (problems.length) throw new ConfigError(problems);
}

/** On a Redis Cluster every key of the service must hash to one slot: the prefix's tag decides it. */
export function requireRedisSettings(env: { REDIS_CLUSTER_NODES?: readonly string[] | undefined; QUEUE_PREFIX: string }): void {
  if (env.REDIS_CLUSTER_NODES?.length && !/\{[^}]+\}/.test(env.QUEUE_PREFIX)) {
    throw new ConfigError([`QUEUE_PREFIX: must carry a {hash tag} with REDIS_CLUSTER_NODES, e.g. {${env.QUEUE_PREFIX}}: BullMQ's scripts need all of a queue's keys in one slot`]);
  }
}

/** Settings every process needs in production, beyond their defaults. */
export function requireInProduction(env: { NODE_ENV: string } & Record<string, unknown>, names: string[]): void {
  if (env.NODE_ENV !== "production") return;
  const missing = names.filter((n) => env[n] === undefined);
  if (missing.length) throw new ConfigError(missing.map((n) => `${n}: required when NODE_ENV=production`));
}

const SECRET_NAME = /SECRET|PEPPER|PASSWORD|PRIVATE|TOKEN|KEY/i;

/** The value to quote in an error: never a secret's, and a URL without its password. */
function shownValue(name: string, value: string | undefined): string | undefined {
  if (value === undefined || SECRET_NAME.test(name)) return undefined;
  try {
    const u = new URL(value);
    if (u.password) {
      u.password = "***";
      return u.toString();
    }
  } catch {
    // not a URL
  }
  return value;
}

/**
 * Parses `source` with `shape`, turning every problem into one readable line
 * naming the variable, then freezes the result.
 */
export function loadEnv<S extends z.ZodRawShape>(shape: S, source: Record<string, string | undefined>): Readonly<z.output<z.ZodObject<S>>> {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = z.object(shape).safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = i.path.join(".");
        const given = shownValue(name, cleaned[name]);
        return `${name}: ${i.message}${given !== undefined ? ` (got "${given}")` : ""}`;
      }),
    );
  }
  return Object.freeze(parsed.data);
}
