import { z } from "zod";
import { ConfigError } from "./error.ts";

export { ConfigError, exitOnStartFailure } from "./error.ts";
export { listen, portInUse, type ListenSettings } from "./listen.ts";
export { trustProxyVar, type TrustProxy } from "./trust-proxy.ts";

/**
 * Shared pieces of every app's environment schema. Each app composes its own
 * `env.ts` from these and parses it once at start-up: a bad value stops the process
 * with a message naming the variable, before it serves anything.
 */

/** Integer from an env string, with bounds, e.g. `intVar(3000, 1, 65535)`. */
export const intVar = (def: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(def)
    .meta({ allowed: `${min} to ${max}` });

/** Boolean from an env string: true/false/1/0/yes/no. */
export const boolVar = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
    .transform((v) => v === "true" || v === "1" || v === "yes")
    .default(def)
    .meta({ allowed: "true or false" });

const urlString = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
    );

const urlsAllowed = (protocols: string[]) => ({ allowed: `a ${protocols.map((p) => `${p}//`).join(" or ")} URL` });
export const urlVar = (def: string, protocols: string[]) => urlString(protocols).default(def).meta(urlsAllowed(protocols));
export const optionalUrlVar = (protocols: string[]) => urlString(protocols).optional().meta(urlsAllowed(protocols));

export const baseEnvShape = {
  NODE_ENV: z
    .enum(["development", "test", "production"])
    .default("development")
    .describe("`production` requires the settings marked so below and turns off development conveniences (embedded servers, mail written to files)."),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info").describe("pino log level."),
  DATABASE_URL: urlVar("postgres://postgres@127.0.0.1:5432/inspection_service", ["postgres:", "postgresql:"]).describe(
    "Postgres; the database is created when missing and migrated at start. A Unix socket is named libpq-style: `postgres://postgres@localhost/inspection_service?host=/var/run/postgresql`. Unset under `npm start`: the default when something answers there, else an embedded server (docs/local-development.md).",
  ),
  REDIS_URL: urlVar("redis://127.0.0.1:6379", ["redis:", "rediss:"]).describe(
    "Redis for BullMQ and the rate-limit counters; production Redis should run with `maxmemory-policy noeviction`. Unset under `npm start`: as for DATABASE_URL.",
  ),
  REDIS_CLUSTER_NODES: z
    .string()
    .trim()
    .transform((v) =>
      v
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, "each node is host:port")).min(1, "name at least one host:port"))
    .optional()
    .describe(
      "Seed nodes of a Redis Cluster, `host:port,host:port`: every process connects as a cluster client (REDIS_URL then gives only the user, password and TLS) and QUEUE_PREFIX must carry a {hash tag} (docs/operations.md, Redis Cluster).",
    ),
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]*(\{[A-Za-z0-9_-]+\}[A-Za-z0-9_-]*)?$/, "letters, digits, _ and - only, with at most one non-empty {hash tag} for Redis Cluster")
    .min(1, "must not be empty")
    .default("insp")
    .describe(
      "Redis key prefix of every queue, the queue marker and the rate-limit counters: letters, digits, `_` and `-`, with at most one non-empty Redis Cluster hash tag such as `{insp}` (Redis Cluster hashes only the tag, so every key lands in one slot, as BullMQ's scripts need).",
    ),
  DB_POOL_MAX: intVar(10, 1, 200).describe("Postgres connections of one process."),
  MEDIA_STORE: z
    .enum(["fs", "s3"], { message: "must be fs or s3" })
    .default("fs")
    .describe("Where image bytes go: `fs` (a folder, MEDIA_DIR) or `s3` (an S3-compatible bucket, MEDIA_S3_*)."),
  MEDIA_DIR: z.string().trim().min(1).default(".media").describe("The folder store; API and workers need the same folder (a shared volume), or the S3 store."),
  MEDIA_S3_BUCKET: z.string().trim().min(3).optional().describe("Bucket of the S3 store; required with MEDIA_STORE=s3."),
  MEDIA_S3_REGION: z.string().trim().min(1).default("us-east-1").describe("Region of the S3 store."),
  MEDIA_S3_ENDPOINT: optionalUrlVar(["http:", "https:"]).describe("Any S3-compatible endpoint (MinIO, Ceph, Cloudflare R2, ...); unset: AWS S3 itself."),
  MEDIA_S3_FORCE_PATH_STYLE: boolVar(false).describe("Bucket in the URL path instead of the host name (most self-hosted stores need it)."),
  MEDIA_S3_ACCESS_KEY_ID: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("S3 access key; give both or neither: unset, the AWS SDK's own credential chain (environment, shared files, instance role)."),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional().meta({ secret: true }).describe("S3 secret key, with MEDIA_S3_ACCESS_KEY_ID."),
  MEDIA_S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits and !_.*'()/- only")
    .default("")
    .describe("Prepended to every object key, e.g. `media/`."),
  MEDIA_SPOOL_DIR: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("Local folder for uploads being received before they go to S3; unset: a folder under the system's temporary directory."),
  WEBHOOK_SECRET_KEY: z
    .string()
    .min(32, "must be at least 32 characters")
    .optional()
    .meta({ secret: true })
    .describe("Encrypts webhook signing secrets at rest (any string of 32 or more characters, the same everywhere); required in production."),
  WEBHOOK_ALLOW_PRIVATE: boolVar(false).describe(
    "Allow webhook endpoints on private, loopback and link-local addresses, and plain http in production (tests, on-premises receivers).",
  ),
};

/** MEDIA_STORE=s3 needs a bucket, and S3 credentials come in pairs. */
export function requireMediaSettings(env: {
  MEDIA_STORE: string;
  MEDIA_S3_BUCKET?: string | undefined;
  MEDIA_S3_ACCESS_KEY_ID?: string | undefined;
  MEDIA_S3_SECRET_ACCESS_KEY?: string | undefined;
}): void {
  const problems: string[] = [];
  if (env.MEDIA_STORE === "s3" && !env.MEDIA_S3_BUCKET) problems.push("MEDIA_S3_BUCKET: required when MEDIA_STORE=s3");
  if (!env.MEDIA_S3_ACCESS_KEY_ID !== !env.MEDIA_S3_SECRET_ACCESS_KEY)
    problems.push("MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY: give both or neither");
  if (problems.length) throw new ConfigError(problems);
}

/** On a Redis Cluster every key of the service must hash to one slot: the prefix's tag decides it. */
export function requireRedisSettings(env: { REDIS_CLUSTER_NODES?: readonly string[] | undefined; QUEUE_PREFIX: string }): void {
  if (env.REDIS_CLUSTER_NODES?.length && !/\{[^}]+\}/.test(env.QUEUE_PREFIX)) {
    throw new ConfigError([
      `QUEUE_PREFIX: must carry a {hash tag} with REDIS_CLUSTER_NODES, e.g. {${env.QUEUE_PREFIX}}: BullMQ's scripts need all of a queue's keys in one slot`,
    ]);
  }
}

/** Settings every process needs in production, beyond their defaults. */
export function requireInProduction(env: { NODE_ENV: string } & Record<string, unknown>, names: string[]): void {
  if (env.NODE_ENV !== "production") return;
  const missing = names.filter((n) => env[n] === undefined);
  if (missing.length) throw new ConfigError(missing.map((n) => `${n}: required when NODE_ENV=production`));
}

/** Names whose values are never quoted in an error (a few harmless ones too: better safe). */
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

export { describeSettings, type SettingInfo } from "./reference.ts";
