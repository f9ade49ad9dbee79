import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { Redis } from "ioredis";
import { createDb, pgConnect, runMigrations, type DbHandle } from "@insp/db";
import { seedDemo, type DemoSeed } from "@insp/core";
import { freePort, type RunningProcess } from "@insp/testing/processes";
import { client, type Client } from "@insp/testing/http";
import type { BenchOptions } from "./options.ts";
import { startNode } from "./process.ts";

/**
 * Waits until `check` passes; a process that exits or is not ready within 60 s is stopped
 * (so a failed start leaves nothing running) and its output thrown.
 */
async function ready(what: string, proc: RunningProcess, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<RunningProcess> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited with ${proc.child.exitCode}:\n${proc.output()}`);
    if (await check().catch(() => false)) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.stop(2_000);
  throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output()}`);
}

/**
 * A fresh database, the API and worker processes (real processes, real Postgres and
 * Redis), and helpers to restart workers with another replica count.
 */
export class BenchContext {
  api!: RunningProcess & { baseUrl: string };
  workers: RunningProcess[] = [];
  db!: DbHandle;
  tenant!: DemoSeed;
  http!: Client;
  readonly env: Record<string, string>;
  readonly dbName = `insp_bench_${Date.now()}_${randomBytes(2).toString("hex")}`;
  /** Scenario results other scenarios may reuse (e.g. the batches sync-create made). */
  readonly shared = new Map<string, unknown>();
  private readonly scratch: string;

  constructor(readonly opts: BenchOptions) {
    const prefix = `bench${randomBytes(3).toString("hex")}`;
    this.scratch = path.join(os.tmpdir(), `insp-${prefix}`);
    const u = new URL(opts.pgServerUrl);
    u.pathname = `/${this.dbName}`;
    this.env = {
      DATABASE_URL: u.toString(),
      REDIS_URL: opts.redisUrl,
      QUEUE_PREFIX: prefix,
      MEDIA_DIR: path.join(this.scratch, "media"),
      MAIL_DIR: path.join(this.scratch, "mail"),
      RATE_LIMIT_PER_MINUTE: "1000000",
      RATE_LIMIT_ORG_PER_MINUTE: "10000000",
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: "1000000",
      WORKER_CONCURRENCY: String(opts.workerConcurrency),
      // The API logs one line per request at info; warn keeps logging out of the measurement.
      LOG_LEVEL: opts.logDir ? "info" : "warn",
      NODE_ENV: "production",
      SMTP_URL: "smtp://127.0.0.1:1", // replaced by the bench's own SMTP sink (run.ts)
      // Production requires a key for webhook secrets; the bench's receiver is on loopback.
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      WEBHOOK_ALLOW_PRIVATE: "true",
      // The upload scenario sends 50 MB images.
      MEDIA_MAX_IMAGE_MB: "64",
      ...opts.serviceEnv,
    };
  }

  /** --cpu-prof for every process when profiling: written when it exits, as CPU.<date>.<time>.<pid>.*.cpuprofile. */
  private nodeArgs(): string[] {
    const dir = this.opts.profileDir;
    return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
  }

  /** Pids of the API and the workers. */
  servicePids(): number[] {
    return [this.api?.child.pid, ...this.workers.map((w) => w.child.pid)].filter((p): p is number => p !== undefined);
  }

  /** "API <pid>, worker <pid>": which profile is which. */
  pids(): string {
    return [`API ${this.api?.child.pid}`, ...this.workers.map((w) => `worker ${w.child.pid}`)].join(", ");
  }

  get queuePrefix(): string {
    return this.env.QUEUE_PREFIX!;
  }

  async start(workers = 1, extraEnv: Record<string, string> = {}) {
    Object.assign(this.env, extraEnv);
    await runMigrations(this.env.DATABASE_URL!);
    if (this.opts.autoExplainMs !== undefined) {
      // Plans of slow statements go to the Postgres server log; set on this database only.
      const admin = pgConnect(this.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`alter database "${this.dbName}" set session_preload_libraries = 'auto_explain'`);
      await admin.unsafe(`alter database "${this.dbName}" set auto_explain.log_min_duration = ${this.opts.autoExplainMs}`);
      await admin.end();
    }
    this.db = createDb(this.env.DATABASE_URL!, { max: this.opts.poolSize, applicationName: "bench" });
    this.tenant = await seedDemo(this.db.db);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const api = await ready(
      "API",
      startNode("apps/api/src/main.ts", { ...this.env, PORT: String(port), HOST: "127.0.0.1" }, this.nodeArgs()),
      async () => (await fetch(`${baseUrl}/healthz`)).ok,
    );
    this.api = Object.assign(api, { baseUrl });
    this.http = client(baseUrl);
    await this.setWorkers(workers);
  }

  /** Stops processes, keeping their output under --logs. */
  private async stopAll(procs: (RunningProcess | undefined)[]) {
    await Promise.all(
      procs.map(async (p) => {
        if (!p) return;
        await p.stop();
        if (this.opts.logDir) {
          await mkdir(this.opts.logDir, { recursive: true });
          await writeFile(path.join(this.opts.logDir, `${p === this.api ? "api" : "worker"}-${p.child.pid}.log`), p.output());
        }
      }),
    );
  }

  async setWorkers(n: number) {
    await this.stopAll(this.workers);
    this.workers = [];
    // Readiness is the worker's "worker ready" line, logged at info (workers log nothing per job at info).
    const started = await Promise.allSettled(
      Array.from({ length: n }, () => {
        const w = startNode("apps/worker/src/main.ts", { ...this.env, LOG_LEVEL: "info" }, this.nodeArgs());
        return ready("worker", w, async () => w.output().includes("worker ready"));
      }),
    );
    const failed = started.find((s) => s.status === "rejected");
    const ok = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    if (failed) {
      await Promise.all(ok.map((w) => w.stop()));
      throw failed.reason;
    }
    this.workers = ok;
    if (n > 0) await this.epochClaimed();
  }

  /**
   * Waits (at most 10 s) until a worker has set the queue marker: on a new prefix its first check
   * requeues every pending item, which would race the in-process floor's own items.
   */
  private async epochClaimed(): Promise<void> {
    const redis = new Redis(this.opts.redisUrl, { maxRetriesPerRequest: 3 });
    try {
      for (let i = 0; i < 100 && !(await redis.exists(`${this.queuePrefix}:epoch`)); i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      redis.disconnect();
    }
  }

  /**
   * Before a scenario's timed rounds. ANALYZE the bench database, as autovacuum would have by then
   * in production (this machine's Postgres runs with autovacuum off), only with --analyze: without
   * statistics, generic plans of prepared statements made on near-empty tables are kept while the
   * tables grow (bench/README.md). Then a checkpoint (below).
   */
  async beforeRounds(): Promise<void> {
    if (this.opts.analyze) await this.db.sql.unsafe("analyze");
    await this.checkpoint();
  }

  /**
   * A CHECKPOINT before timed rounds, so that none falls inside them by chance: after a
   * checkpoint, the first change of every page writes the whole page to the WAL, and a sync
   * scenario writes enough WAL (5 to 20 kB per employee) to force one (max_wal_size) every few
   * scenarios, besides the timed one every 5 minutes. Skipped without the right to checkpoint.
   */
  private async checkpoint(): Promise<void> {
    await this.db.sql.unsafe("checkpoint").catch(() => undefined);
  }

  /**
   * Drops the database and starts the API and the same number of workers again on a new, empty
   * one with a new demo tenant: what a user's first sync meets (scenarios marked `freshDatabase`).
   */
  async freshDatabase(): Promise<void> {
    const workers = this.workers.length || 1;
    await this.stopAll([this.api, ...this.workers]);
    this.workers = [];
    await this.db.close();
    await this.dropQueues().catch(() => {});
    const admin = pgConnect(this.opts.pgServerUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database if exists "${this.dbName}" with (force)`);
    } finally {
      await admin.end();
    }
    await this.start(workers);
  }

  /** Another isolated organization in the same database (list and import use their own). */
  newTenant(): Promise<DemoSeed> {
    return seedDemo(this.db.db);
  }

  /** An OAuth client-credentials access token (scope employees:sync) of a tenant. */
  async syncToken(t: DemoSeed = this.tenant): Promise<string> {
    const res = await this.http.request("POST", "/oauth/token", {
      auth: { basic: [t.oauthClient.clientId, t.oauthClient.clientSecret] },
      rawBody: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
    return res.body.access_token as string;
  }

  /** Fails with the processes' output when one of them has died (a crash is not a slow run). */
  assertAlive() {
    for (const [what, p] of [["API", this.api], ...this.workers.map((w, i) => [`worker ${i + 1}`, w] as const)] as const) {
      if (p && p.child.exitCode !== null) throw new Error(`${what} exited with ${p.child.exitCode}:\n${p.output().slice(-4000)}`);
    }
  }

  /** Deletes the run's BullMQ keys (completed jobs are kept by removeOnComplete) under its own QUEUE_PREFIX. */
  private async dropQueues() {
    const redis = new Redis(this.opts.redisUrl, { maxRetriesPerRequest: 3 });
    try {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${this.queuePrefix}:*`, "COUNT", 1000);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== "0");
    } finally {
      redis.disconnect();
    }
  }

  async stop() {
    await this.stopAll([this.api, ...this.workers]);
    await this.db?.close();
    await this.dropQueues().catch(() => {});
    if (!this.opts.keepDb) {
      const admin = pgConnect(this.opts.pgServerUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists "${this.dbName}" with (force)`).catch(() => {});
      await admin.end();
    }
    await rm(this.scratch, { recursive: true, force: true });
  }
}
