import os from "node:os";
import path from "node:path";
import { rm } from "node:fs/promises";
import { Cluster, Redis } from "ioredis";
import { seedDemo, type DemoSeed } from "@insp/core";
import { createTestDatabase, queuePrefix, redisUrl, type TestDatabase } from "./db.ts";
import { client, type Client } from "./http.ts";
import { startApi, startWorker, type ApiProcess, type RunningProcess } from "./processes.ts";

export interface Stack {
  db: TestDatabase;
  api: ApiProcess;
  workers: RunningProcess[];
  env: Record<string, string>;
  http: Client;
  /** A fresh, isolated tenant (seed-demo) for one test. */
  tenant(): Promise<DemoSeed>;
  /**
   * Resolves once a worker has made its first check of the queue marker, which requeues every
   * pending piece of work in Postgres (a worker's start on a fresh queue prefix is taken for a
   * Redis that lost its data): rows a test writes after this stay as the test left them.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole service as real processes on this file's own database and queue prefix:
 * the API and `workers` worker processes. Use in beforeAll; stop in afterAll.
 */
export async function startStack(opts: { workers?: number; env?: Record<string, string> } = {}): Promise<Stack> {
  const db = await createTestDatabase();
  // A test may choose the prefix (e.g. one with a Redis Cluster hash tag); settled() waits on its marker.
  const prefix = opts.env?.QUEUE_PREFIX ?? queuePrefix();
  // Media and development mail go to this file's own temporary folders.
  const scratch = path.join(os.tmpdir(), `insp-${prefix}`);
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl(),
    QUEUE_PREFIX: prefix,
    MEDIA_DIR: path.join(scratch, "media"),
    MAIL_DIR: path.join(scratch, "mail"),
    ...opts.env,
  };
  const [api, ...workers] = await Promise.all([startApi(env), ...Array.from({ length: opts.workers ?? 0 }, () => startWorker(env))]);
  return {
    db,
    api: api as ApiProcess,
    workers: workers as RunningProcess[],
    env,
    http: client((api as ApiProcess).baseUrl),
    tenant: () => seedDemo(db.db),
    async settled() {
      const nodes = opts.env?.REDIS_CLUSTER_NODES?.split(",");
      const redis = nodes ? new Cluster(nodes.map((n) => ({ host: n.split(":")[0]!, port: Number(n.split(":")[1]) }))) : new Redis(env.REDIS_URL);
      try {
        for (let i = 0; !(await redis.exists(`${prefix}:epoch`)); i++) {
          if (i === 400) throw new Error("no worker claimed the queue marker within 20 s (is a worker running?)");
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        redis.disconnect();
      }
    },
    async stop() {
      await Promise.all([api!.stop(), ...workers.map((w) => w.stop())]);
      await db.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
