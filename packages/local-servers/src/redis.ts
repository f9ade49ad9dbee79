import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Redis } from "ioredis";
import { ServerSetupError, lastLines } from "./errors.ts";
import { answers } from "./probe.ts";
import { isAlive, isRunning, readPid, terminate } from "./pids.ts";
import type { EmbeddedOptions, EmbeddedServer } from "./postgres.ts";

/** dataDir holds redis.conf, the append-only files, the pid file and the log. */
export type EmbeddedRedisOptions = EmbeddedOptions;

function onPath(name: string): string | null {
  // PATH says where programs are, it is no setting of ours (eslint.config.js lets this file read it).
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * A redis-server to run: one on PATH, else the redis-memory-server
 * package's build (it downloads Redis's source and compiles it once, which needs make and a C
 * compiler; it is cached in node_modules/.cache).
 */
export async function redisServerBinary(log: (line: string) => void): Promise<string> {
  const found = onPath("redis-server");
  if (found) return found;
  log("no redis-server on PATH: building one with redis-memory-server (downloads Redis's source; needs make and a C compiler; once)");
  try {
    const { RedisBinary } = await import("redis-memory-server");
    return await RedisBinary.getPath();
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    throw new ServerSetupError(
      `embedded Redis: no redis-server on PATH and redis-memory-server could not build one (${reason}); install Redis 7 (apt install redis-server, brew install redis) or set REDIS_URL`,
    );
  }
}

/**
 * Starts a redis-server on 127.0.0.1:`port` with its data in `dataDir`: append-only file on
 * (fsync every second), so queued jobs survive a restart; `noeviction`, as BullMQ needs. The
 * password is in the config file (mode 0600), not on the command line where `ps` would show it.
 * The server runs in a session of its own (a Ctrl-C reaches the apps first; the launcher stops
 * it after them). A server left running on this folder by an earlier start is stopped first.
 */
export async function startEmbeddedRedis(opts: EmbeddedRedisOptions): Promise<EmbeddedServer> {
  const bin = await redisServerBinary(opts.log);
  const version = `Redis ${(/v=(\S+)/.exec(spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout) ?? ["", "?"])[1]}`;
  await mkdir(opts.dataDir, { recursive: true });
  const pidFile = path.join(opts.dataDir, "redis.pid");
  const logFile = path.join(opts.dataDir, "redis.log");
  const leftover = readPid(pidFile);
  if (leftover !== null && isRunning(leftover, "redis-server")) {
    opts.log(`stopping the embedded Redis left running by an earlier start (pid ${leftover})`);
    await terminate(leftover, 15_000);
  }
  if (await answers("127.0.0.1", opts.port))
    throw new ServerSetupError(`${opts.portSetting}: 127.0.0.1:${opts.port} is taken by another program; set ${opts.portSetting} to a free port`);

  const conf = path.join(opts.dataDir, "redis.conf");
  const lines = [
    `port ${opts.port}`,
    "bind 127.0.0.1",
    "protected-mode yes",
    `dir "${opts.dataDir}"`,
    `pidfile "${pidFile}"`,
    `logfile "${logFile}"`,
    "daemonize no",
    'save ""',
    `appendonly ${opts.durable ? "yes" : "no"}`,
    "appendfsync everysec",
    "maxmemory-policy noeviction",
    `requirepass "${opts.password}"`,
  ];
  await writeFile(conf, lines.join("\n") + "\n", { mode: 0o600 });
  const child = spawn(bin, [conf], { detached: true, stdio: "ignore" });
  child.unref();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}`;
  await waitUntilReady(url, exited, logFile);

  const pid = child.pid!;
  return {
    url,
    version,
    async stop() {
      // SIGTERM: Redis flushes the append-only file and exits.
      if (isAlive(pid)) await terminate(pid, 30_000);
    },
    stopNow() {
      if (isAlive(pid)) process.kill(pid, "SIGTERM");
    },
  };
}

/** PING until it answers (loading a large append-only file takes a while), or the server has exited. */
async function waitUntilReady(url: string, exited: Promise<void>, logFile: string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 120_000;
  while (!gone && Date.now() < deadline) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    client.on("error", () => {});
    try {
      await client.connect();
      if ((await client.ping()) === "PONG") return;
    } catch {
      // not yet (or LOADING)
    } finally {
      client.disconnect();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Redis log lines: "<pid>:<role> <date> <time> <level> <message>".
  const last = (lastLines(logFile, 5).at(-1) ?? "no log").replace(/^\d+:\w \d+ \w+ \d+ [\d:.]+ [#*.-] /, "");
  throw new ServerSetupError(`embedded Redis did not start: ${last} (log: ${logFile})`);
}
