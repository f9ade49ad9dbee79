import os from "node:os";
import path from "node:path";
import { rm } from "node:fs/promises";
import postgres from "postgres";
import { seedDemo, type DemoSeed } from "@insp/core";
import { createDb, runMigrations, type DbHandle } from "@insp/db";
import { withDb, queuePrefix } from "./db.ts";
import { client, type Client } from "./http.ts";
import { freePort, startApi, startWorker, type ApiProcess, type RunningProcess } from "./processes.ts";
import { startSmtpServer, type SmtpTestServer } from "./smtp.ts";
import { startThrowawayPostgres, startThrowawayRedis, type ThrowawayPostgres, type ThrowawayRedis } from "./throwaway.ts";

/**
 * The whole service for fault tests: its own Postgres and Redis servers (which the test
 * may stop, restart empty or cut off), an SMTP test server, the API and `workers` worker
 * processes. Each can be killed and started again on the same ports.
 */
export interface FaultStack {
  pg: ThrowawayPostgres;
  redis: ThrowawayRedis;
  smtp: SmtpTestServer;
  /** The test's own connection to the service's database (reconnects after a restart). */
  db: DbHandle;
  env: Record<string, string>;
  api: ApiProcess;
  workers: RunningProcess[];
  http: Client;
  tenant(): Promise<DemoSeed>;
  killApi(): Promise<void>;
  startApi(): Promise<void>;
  killWorker(i: number): Promise<void>;
  startWorker(i: number): Promise<void>;
  /** SMTP server down (connections refused) and back on the same port, keeping the messages received. */
  stopSmtp(): Promise<void>;
  startSmtp(): Promise<void>;
  /** pg_terminate_backend on every connection of the API and the workers; how many. */
  terminateServiceConnections(): Promise<number>;
  /** Milliseconds until the API's and every worker's /readyz answer 200. */
  waitReady(timeoutMs?: number): Promise<number>;
  /** Every process still running (none exited on its own). */
  alive(): boolean;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200;
  } catch {
    return false;
  }
}

export async function startFaultStack(opts: { workers?: number; env?: Record<string, string> } = {}): Promise<FaultStack> {
  const [pg, redis] = await Promise.all([startThrowawayPostgres(), startThrowawayRedis()]);
  let smtp = await startSmtpServer();
  const dbUrl = withDb(pg.url, "inspection_service");
  await runMigrations(dbUrl);
  const scratch = path.join(os.tmpdir(), `insp-faults-${queuePrefix()}`);
  const apiPort = await freePort();
  const healthPorts = await Promise.all(Array.from({ length: opts.workers ?? 2 }, () => freePort()));
  const env: Record<string, string> = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: queuePrefix(),
    MEDIA_DIR: path.join(scratch, "media"),
    MAIL_DIR: path.join(scratch, "mail"),
    SMTP_URL: smtp.url,
    PORT: String(apiPort),
    // Faults must not trip the per-credential limits of the test's own traffic.
    RATE_LIMIT_PER_MINUTE: "100000",
    RATE_LIMIT_ORG_PER_MINUTE: "1000000",
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: "100000",
    LOG_LEVEL: "info",
    ...opts.env,
  };
  const workerEnv = (i: number) => ({ ...env, HEALTH_PORT: String(healthPorts[i]) });
  const db = createDb(dbUrl, { max: 3, applicationName: "fault-test" });
  const stack: FaultStack = {
    pg,
    redis,
    smtp,
    db,
    env,
    api: await startApi(env),
    workers: await Promise.all(healthPorts.map((_, i) => startWorker(workerEnv(i)))),
    http: client(`http://127.0.0.1:${apiPort}`),
    tenant: () => seedDemo(db.db),
    async killApi() {
      stack.api.child.kill("SIGKILL");
      await stack.api.exited;
    },
    async startApi() {
      stack.api = await startApi(env);
    },
    async killWorker(i) {
      stack.workers[i]!.child.kill("SIGKILL");
      await stack.workers[i]!.exited;
    },
    async startWorker(i) {
      stack.workers[i] = await startWorker(workerEnv(i));
    },
    async stopSmtp() {
      await smtp.stop();
    },
    async startSmtp() {
      smtp = await startSmtpServer({ port: smtp.port, messages: smtp.messages });
      stack.smtp = smtp;
    },
    async terminateServiceConnections() {
      const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
      try {
        const rows =
          await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'inspection_service' and application_name like 'inspection-%'`;
        return rows.length;
      } finally {
        await admin.end();
      }
    },
    async waitReady(timeoutMs = 60_000) {
      const started = Date.now();
      const urls = [`${stack.http.baseUrl}/readyz`, ...healthPorts.map((p) => `http://127.0.0.1:${p}/readyz`)];
      while (!(await Promise.all(urls.map(isReady))).every(Boolean)) {
        if (Date.now() - started > timeoutMs) throw new Error(`not ready within ${timeoutMs} ms`);
        await sleep(100);
      }
      return Date.now() - started;
    },
    alive: () => [stack.api, ...stack.workers].every((p) => p.child.exitCode === null && p.child.signalCode === null),
    async stop() {
      await Promise.all([stack.api.stop(), ...stack.workers.map((w) => w.stop())]);
      await db.close().catch(() => {});
      await Promise.all([pg.destroy(), redis.destroy(), smtp.stop().catch(() => {})]);
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return stack;
}
