import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const SCENARIOS = [
  "sync-raw",
  "sync-floor",
  "sync-statements",
  "sync-create",
  "sync-update",
  "sync-accounts",
  "scale",
  "sync-large",
  "webhooks",
  "import",
  "upload",
  "detail",
  "report",
  "scim-bulk",
  "list",
  "export",
  "noisy-neighbour",
  "schedules",
  "soak",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  scenarios: ScenarioName[];
  /** Postgres server URL (any database; the bench creates and drops its own). */
  pgServerUrl: string;
  redisUrl: string;
  /** Timed rounds per sync scenario (one batch each). */
  rounds: number;
  /** Imports per import client. */
  imports: number;
  /** Employees per sync batch (the API's maximum is 500). */
  batch: number;
  /** Jobs one worker process runs at once, and the floor's concurrency. */
  workerConcurrency: number;
  /** Postgres pool size of every process, and of the floor. */
  poolSize: number;
  listSize: number;
  /** Daily schedules of the schedules scenario. */
  schedules: number;
  /** Seconds of autocannon load per list endpoint. */
  listDuration: number;
  connections: number;
  /** Employees of sync-statements' organization. */
  orgSize: number;
  /** Employees of the large initial sync, and its parallel clients. */
  largeTotal: number;
  largeClients: number;
  /** Seconds of mixed traffic in the soak scenario. */
  soakSeconds: number;
  importClients: number;
  images: number;
  imageMb: number;
  answers: number;
  /** Also write bench/results/latest.json. */
  latest: boolean;
  /** Seconds to wait for other engineers' vitest runs to end before starting; 0: do not wait. */
  waitQuietS: number;
  /** ANALYZE after warm-ups, as autovacuum would eventually (off on this machine's Postgres); off by default: a user's first sync runs before any ANALYZE. */
  analyze: boolean;
  /** Leave the database behind (for EXPLAIN ANALYZE and the like). */
  keepDb: boolean;
  /** Directory for CPU profiles of the API and workers (node --cpu-prof); undefined: none. */
  profileDir?: string;
  /** Log plans of statements slower than this many ms (auto_explain, this database only). */
  autoExplainMs?: number;
  /** Directory where the processes' output (last 64 kB each) is written when they stop. */
  logDir?: string;
  outDir: string;
  /** Extra settings of the API and worker processes (--env KEY=VALUE, repeatable), for experiments. */
  serviceEnv: Record<string, string>;
  /** Where media go: the folder store, or an S3-protocol server (s3rver) the bench starts. */
  mediaStore: "fs" | "s3";
}

const HELP = `npm run bench -- [options]

  --scenarios a,b,...     ${SCENARIOS.join(",")} (default: all)
  --rounds N              timed sync batches per scenario (default 20)
  --batch N               employees per sync batch (default 500, the API maximum)
  --worker-concurrency N  WORKER_CONCURRENCY of each worker, and of the floor (default 8)
  --pool N                Postgres connections of the floors (default 10; the API and workers keep their own defaults)
  --list-size N           inspections in the list and export organizations (default 100000)
  --schedules N           daily schedules of the schedules scenario (default 10000)
  --list-duration S       seconds of load per list endpoint (default 10)
  --connections N         autocannon connections for list and soak (default 10)
  --soak-seconds S        seconds of mixed traffic in soak (default 60)
  --org-size N            employees of sync-statements' organization (default 100000)
  --large-total N         employees of the large initial sync (default 20000)
  --large-clients N       its parallel clients (default 4)
  --import-clients N      parallel import clients (default 4)
  --imports N             imports per client (default 5)
  --images N              images per imported inspection (default 5)
  --image-mb N            size of each image in MB (default 1)
  --answers N             answers per imported inspection (default 30)
  --pg URL                Postgres server (default $DATABASE_URL's server, else the local Unix socket under /var/run/postgresql when there is one, else postgres://postgres@127.0.0.1:5432/postgres)
  --redis URL             Redis (default $REDIS_URL, else redis://127.0.0.1:6379)
  --wait-quiet S          before the run and each scenario, wait up to S seconds until no vitest runs and the machine is under 25% busy
  --analyze               ANALYZE the database after warm-ups, as autovacuum eventually would (default: never, as on a fresh database)
  --no-latest             do not overwrite bench/results/latest.json (development runs)
  --keep-db               do not drop the bench database at the end (its name is printed)
  --auto-explain MS       log plans of statements slower than MS ms to the Postgres server log (auto_explain)
  --logs DIR              write the output of the API and workers to DIR when they stop (LOG_LEVEL info)
  --profile DIR           write CPU profiles of the API and workers to DIR (node --cpu-prof; open in Chrome DevTools)
  --env KEY=VALUE         an extra setting of the API and worker processes (repeatable), e.g. --env MAIL_CONCURRENCY=2
  --media-store fs|s3     the folder store (default), or MEDIA_STORE=s3 against an S3-protocol server the bench starts (s3rver)
  --help

Small development run: npm run bench -- --rounds 1 --batch 50 --imports 1 --list-size 5000 --list-duration 3 --soak-seconds 5 --no-latest`;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of 1 or more (got ${raw})`);
  return n;
}

/** Postgres's Unix socket on Debian and Ubuntu: the bench uses it when there is one and DATABASE_URL is unset. */
const LOCAL_SOCKET_DIR = "/var/run/postgresql";

function defaultPgServer(): string {
  const url = process.env.DATABASE_URL;
  if (!url)
    return existsSync(`${LOCAL_SOCKET_DIR}/.s.PGSQL.5432`)
      ? `postgres://postgres@localhost/postgres?host=${LOCAL_SOCKET_DIR}`
      : "postgres://postgres@127.0.0.1:5432/postgres";
  const u = new URL(url);
  u.pathname = "/postgres";
  return u.toString();
}

/** Parses argv; prints help and exits on --help; throws with a message on a bad value. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenarios: { type: "string" },
      rounds: { type: "string" },
      imports: { type: "string" },
      "wait-quiet": { type: "string" },
      batch: { type: "string" },
      "worker-concurrency": { type: "string" },
      pool: { type: "string" },
      "list-size": { type: "string" },
      schedules: { type: "string" },
      "list-duration": { type: "string" },
      connections: { type: "string" },
      "soak-seconds": { type: "string" },
      "large-total": { type: "string" },
      "org-size": { type: "string" },
      "large-clients": { type: "string" },
      env: { type: "string", multiple: true },
      "media-store": { type: "string" },
      "import-clients": { type: "string" },
      images: { type: "string" },
      "image-mb": { type: "string" },
      answers: { type: "string" },
      pg: { type: "string" },
      redis: { type: "string" },
      "no-latest": { type: "boolean" },
      analyze: { type: "boolean" },
      "keep-db": { type: "boolean" },
      profile: { type: "string" },
      logs: { type: "string" },
      "auto-explain": { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const scenarios = (values.scenarios
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean) ?? [...SCENARIOS]) as ScenarioName[];
  const unknown = scenarios.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(", ")}; known: ${SCENARIOS.join(", ")}`);
  const batch = positiveInt("batch", values.batch, 500);
  if (batch > 500) throw new Error("--batch must be at most 500 (the API's limit per request)");
  const mediaStore = values["media-store"] ?? "fs";
  if (mediaStore !== "fs" && mediaStore !== "s3") throw new Error(`--media-store must be fs or s3 (got ${mediaStore})`);
  const opts: BenchOptions = {
    mediaStore,
    // Run in the canonical order whatever the order given: the floor right before sync-create.
    scenarios: SCENARIOS.filter((s) => scenarios.includes(s)),
    pgServerUrl: values.pg ?? defaultPgServer(),
    redisUrl: values.redis ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    rounds: positiveInt("rounds", values.rounds, 20),
    imports: positiveInt("imports", values.imports, 5),
    waitQuietS: values["wait-quiet"] === undefined ? 0 : positiveInt("wait-quiet", values["wait-quiet"], 600),
    batch,
    workerConcurrency: positiveInt("worker-concurrency", values["worker-concurrency"], 8),
    poolSize: positiveInt("pool", values.pool, 10),
    listSize: positiveInt("list-size", values["list-size"], 100_000),
    schedules: positiveInt("schedules", values.schedules, 10_000),
    listDuration: positiveInt("list-duration", values["list-duration"], 10),
    connections: positiveInt("connections", values.connections, 10),
    soakSeconds: positiveInt("soak-seconds", values["soak-seconds"], 60),
    largeTotal: positiveInt("large-total", values["large-total"], 20_000),
    orgSize: positiveInt("org-size", values["org-size"], 100_000),
    largeClients: positiveInt("large-clients", values["large-clients"], 4),
    importClients: positiveInt("import-clients", values["import-clients"], 4),
    images: positiveInt("images", values.images, 5),
    imageMb: positiveInt("image-mb", values["image-mb"], 1),
    answers: positiveInt("answers", values.answers, 30),
    latest: !values["no-latest"],
    analyze: !!values.analyze,
    keepDb: !!values["keep-db"],
    ...(values.profile ? { profileDir: path.resolve(values.profile) } : {}),
    ...(values.logs ? { logDir: path.resolve(values.logs) } : {}),
    ...(values["auto-explain"] ? { autoExplainMs: positiveInt("auto-explain", values["auto-explain"], 500) } : {}),
    outDir: new URL("../results/", import.meta.url).pathname,
    serviceEnv: Object.fromEntries(
      (values.env ?? []).map((kv) => {
        const eq = kv.indexOf("=");
        if (eq < 1) throw new Error(`--env takes KEY=VALUE (got ${kv})`);
        return [kv.slice(0, eq), kv.slice(eq + 1)];
      }),
    ),
  };
  if (opts.workerConcurrency > opts.poolSize) throw new Error("--worker-concurrency must not exceed --pool (each job holds a connection)");
  if (opts.answers < opts.images) throw new Error("--answers must be at least --images (one image per answer)");
  return opts;
}
