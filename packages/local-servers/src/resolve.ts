import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ServerSetupError } from "./errors.ts";
import { DataDirLock } from "./lock.ts";
import { outsideClusters } from "./placement.ts";
import { startEmbeddedPostgres, type EmbeddedServer } from "./postgres.ts";
import { addressOf, showAddress, tcpProblem } from "./probe.ts";
import { startEmbeddedRedis } from "./redis.ts";

/**
 * auto: a setting that is set is used; an unset one falls back to the default local address when
 * something answers there, else to an embedded server. always: an unset setting means an embedded
 * server, whatever answers at the default address. never: no embedded servers.
 */
export type EmbedMode = "auto" | "always" | "never";

export interface ServerRequest {
  /** DATABASE_URL / REDIS_URL as set by the user (undefined: unset). */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** REDIS_CLUSTER_NODES is set: Redis is the cluster's business, never embedded. */
  redisCluster: boolean;
  /** What the apps use for an unset setting (the env schema's defaults). */
  defaultDatabaseUrl: string;
  defaultRedisUrl: string;
  mode: EmbedMode;
  /** Folder of the embedded servers' data (EMBEDDED_DATA_DIR), made absolute by the caller. */
  dataDir: string;
  postgresPort: number;
  redisPort: number;
  /** false: throwaway servers for tests (no fsync, no append-only file). */
  durable: boolean;
  /** Database name in DATABASE_URL when Postgres is embedded. */
  database: string;
  /**
   * What to do when another live process already runs this folder's embedded servers: "share"
   * them (admin commands beside a running `npm start`) or "refuse" (a second `npm start`).
   */
  whenInUse: "share" | "refuse";
  /** false: the caller will not use Redis (most admin commands): it is neither checked nor embedded. Default true. */
  needsRedis?: boolean;
  /** Who asks, for messages ("npm start"). */
  who: string;
  log: (line: string) => void;
}

export interface ProvidedServers {
  databaseUrl: string;
  redisUrl: string;
  /** One line for the console: which servers are used, which are embedded and where their data is. */
  summary: string;
  /** Embedded servers this call started (none when it shares another process's). */
  started: boolean;
  stop(): Promise<void>;
  /** Synchronous best effort for an `exit` handler: asks the embedded servers to shut down. */
  stopNow(): void;
}

interface Credentials {
  postgres: string;
  redis: string;
}

const serversFile = (dataDir: string) => path.join(dataDir, "servers.json");
const credentialsFile = (dataDir: string) => path.join(dataDir, "credentials.json");

/** Passwords of the embedded servers, made on first use and kept (mode 0600) beside their data. */
function credentials(dataDir: string): Credentials {
  const file = credentialsFile(dataDir);
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Credentials;
  // The cluster may have been placed outside the folder for the user postgres (placement.ts).
  const cluster = [path.join(dataDir, "postgres"), ...outsideClusters(path.join(dataDir, "postgres"))].find((d) => existsSync(path.join(d, "PG_VERSION")));
  if (cluster) {
    throw new ServerSetupError(
      `embedded servers: ${file} is missing, so the embedded Postgres in ${cluster} cannot be logged into; wipe it (npm run admin -- reset-local) to start afresh`,
    );
  }
  const made = { postgres: randomBytes(18).toString("base64url"), redis: randomBytes(18).toString("base64url") };
  writeFileSync(file, JSON.stringify(made) + "\n", { mode: 0o600 });
  return made;
}

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** The one-line error for a server that is configured but does not answer. */
async function mustAnswer(setting: string, url: string, isDefault: boolean): Promise<void> {
  const addr = addressOf(url);
  const problem = await tcpProblem(addr.host, addr.port);
  if (problem === null) return;
  throw new ServerSetupError(
    isDefault
      ? `${setting} is not set and nothing answers at ${showAddress(addr)}, its default (${problem}); set ${setting}, or EMBEDDED_SERVERS=auto to run an embedded server`
      : `${setting}: nothing answers at ${showAddress(addr)} (${problem})`,
    "setting",
  );
}

/** Where one server comes from: a setting, the default local address, or an embedded server. */
interface Source {
  kind: "setting" | "default" | "embedded";
  url: string;
  setting: string;
}

const described = (c: Source, name: string) => `${name} at ${showAddress(addressOf(c.url))} (${c.kind === "setting" ? c.setting : "default address"})`;

/** Picks each server's source from the settings and EMBEDDED_SERVERS; a configured address that does not answer is a ServerSetupError. */
async function chooseSources(req: ServerRequest): Promise<{ pg: Source; redis: Source; unused: boolean }> {
  const defaultAnswers = async (url: string) => {
    const a = addressOf(url);
    return (await tcpProblem(a.host, a.port)) === null;
  };
  const choose = async (set: string | undefined, fallback: string, setting: string): Promise<Source> => {
    if (set !== undefined) return { kind: "setting", url: set, setting };
    if (req.mode === "never") return { kind: "default", url: fallback, setting };
    if (req.mode === "auto" && (await defaultAnswers(fallback))) return { kind: "default", url: fallback, setting };
    return { kind: "embedded", url: "", setting };
  };
  const pg = await choose(req.databaseUrl, req.defaultDatabaseUrl, "DATABASE_URL");
  const unused = req.needsRedis === false;
  const redis: Source =
    req.redisCluster || unused
      ? { kind: "setting", url: req.redisUrl ?? req.defaultRedisUrl, setting: req.redisCluster ? "REDIS_CLUSTER_NODES" : "REDIS_URL" }
      : await choose(req.redisUrl, req.defaultRedisUrl, "REDIS_URL");
  if (pg.kind !== "embedded") await mustAnswer("DATABASE_URL", pg.url, pg.kind === "default");
  if (redis.kind !== "embedded" && !req.redisCluster && !unused) await mustAnswer("REDIS_URL", redis.url, redis.kind === "default");
  return { pg, redis, unused };
}

/** The embedded servers another process of this data folder runs (whenInUse "share"), or a ServerSetupError. */
function shareRunning(req: ServerRequest, holder: number, pg: Source, redis: Source): ProvidedServers {
  if (req.whenInUse === "refuse")
    throw new ServerSetupError(`${req.who}: the embedded servers in ${req.dataDir} are in use by process ${holder} (another npm start?); stop it first`);
  const running = existsSync(serversFile(req.dataDir))
    ? (JSON.parse(readFileSync(serversFile(req.dataDir), "utf8")) as { databaseUrl: string | null; redisUrl: string | null })
    : null;
  if (!running || (pg.kind === "embedded" && !running.databaseUrl) || (redis.kind === "embedded" && !running.redisUrl))
    throw new ServerSetupError(`${req.who}: process ${holder} is starting the embedded servers in ${req.dataDir}; try again in a moment`);
  return {
    databaseUrl: pg.kind === "embedded" ? withDatabase(running.databaseUrl!, req.database) : pg.url,
    redisUrl: redis.kind === "embedded" ? running.redisUrl! : redis.url,
    summary: `Using the embedded servers of process ${holder} (data in ${req.dataDir})`,
    started: false,
    stop: async () => {},
    stopNow: () => {},
  };
}

/**
 * Decides where Postgres and Redis come from (setting, default local address, embedded), starts
 * the embedded ones, and says so in one line. A configured server that does not answer is a
 * ServerSetupError naming the setting and the address tried.
 */
export async function provideServers(req: ServerRequest): Promise<ProvidedServers> {
  const { pg, redis, unused } = await chooseSources(req);
  if (pg.kind !== "embedded" && redis.kind !== "embedded") {
    const using = unused ? described(pg, "Postgres") : `${described(pg, "Postgres")} and ${described(redis, "Redis")}`;
    return { databaseUrl: pg.url, redisUrl: redis.url, summary: `Using ${using}`, started: false, stop: async () => {}, stopNow: () => {} };
  }
  const holder = DataDirLock.holder(req.dataDir);
  if (holder !== null) return shareRunning(req, holder, pg, redis);
  const lock = DataDirLock.acquire(req.dataDir, req.who);
  const servers: EmbeddedServer[] = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    rmSync(serversFile(req.dataDir), { force: true });
    lock.release();
  };
  try {
    const secrets = credentials(req.dataDir);
    const common = { durable: req.durable, log: req.log };
    const starting = [
      pg.kind === "embedded"
        ? startEmbeddedPostgres({
            ...common,
            dataDir: path.join(req.dataDir, "postgres"),
            port: req.postgresPort,
            password: secrets.postgres,
            portSetting: "EMBEDDED_POSTGRES_PORT",
          }).then((s) => (servers.push(s), s))
        : null,
      redis.kind === "embedded"
        ? startEmbeddedRedis({
            ...common,
            dataDir: path.join(req.dataDir, "redis"),
            port: req.redisPort,
            password: secrets.redis,
            portSetting: "EMBEDDED_REDIS_PORT",
          }).then((s) => (servers.push(s), s))
        : null,
    ] as const;
    // Both settle before a failure is thrown: one that failed at once (a check before initdb)
    // must not leave the other, still starting, out of `servers` and running after we exit.
    await Promise.allSettled(starting);
    const [pgServer, redisServer] = await Promise.all(starting);
    const databaseUrl = pgServer ? withDatabase(pgServer.url, req.database) : pg.url;
    const redisUrl = redisServer ? redisServer.url : redis.url;
    writeFileSync(
      serversFile(req.dataDir),
      JSON.stringify({ pid: process.pid, databaseUrl: pgServer?.url ?? null, redisUrl: redisServer?.url ?? null }) + "\n",
      { mode: 0o600 },
    );
    const embedded = [pgServer && `${pgServer.version} on 127.0.0.1:${req.postgresPort}`, redisServer && `${redisServer.version} on 127.0.0.1:${req.redisPort}`]
      .filter(Boolean)
      .join(" and ");
    const others = [pg.kind !== "embedded" && described(pg, "Postgres"), redis.kind !== "embedded" && described(redis, "Redis")].filter(Boolean);
    // As root in a folder the user postgres cannot enter, its files are elsewhere: the one line says where.
    const placed = pgServer?.note ? ` (${pgServer.note})` : "";
    const summary = `Embedded ${embedded}, data in ${req.dataDir}${placed}${others.length ? `; using ${others.join(" and ")}` : ""}`;
    return {
      databaseUrl,
      redisUrl,
      summary,
      started: true,
      stop: stopAll,
      stopNow() {
        for (const s of servers) s.stopNow();
        rmSync(serversFile(req.dataDir), { force: true });
        lock.release();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
