import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { runMigrations } from "@insp/db";
import { ServerSetupError } from "@insp/local-servers";
import { testServers } from "./servers.ts";

/**
 * Runs once per `vitest run`: finds Postgres and Redis, migrates one template
 * database, and hands the URLs to the test files (inject). Each test file then
 * clones its own database from the template (CREATE DATABASE ... TEMPLATE, ~100 ms)
 * and uses its own queue prefix, so files never interfere.
 *
 * Where, for each of the two (docs/testing.md): DATABASE_URL / REDIS_URL when set; else the
 * default local addresses when something answers there; else embedded servers (the ones `npm
 * start` uses, here throwaway: a temporary folder, free ports, no fsync), removed at the end; else
 * containers started with testcontainers (needs Docker; imported lazily because it throws
 * without a container runtime).
 */
declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    redisUrl: string;
    templateDb: string;
    runId: string;
  }
}

const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

/** Postgres and Redis from settings, defaults or embedded servers; null when none of those can be had. */
async function localServers(stops: (() => Promise<unknown>)[]): Promise<{ pgUrl: string; redisUrl: string } | null> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "insp-test-servers-"));
  // As root the embedded Postgres runs as user postgres, which must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  stops.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const servers = await testServers(dataDir, { databaseUrl: process.env.DATABASE_URL || undefined, redisUrl: process.env.REDIS_URL || undefined, log: (line) => console.log(`test servers: ${line}`) });
    stops.unshift(() => servers.stop());
    if (servers.started) console.log(`test servers: ${servers.summary}`);
    return { pgUrl: servers.databaseUrl, redisUrl: servers.redisUrl };
  } catch (err) {
    // A setting that points nowhere is the user's to fix; embedded servers that cannot run here
    // leave containers as the last way.
    if (err instanceof ServerSetupError && err.source === "embedded") {
      console.warn(`test servers: ${err.message}; trying testcontainers`);
      return null;
    }
    throw err;
  }
}

export default async function setup(project: TestProject) {
  const stops: (() => Promise<unknown>)[] = [];
  let found = await localServers(stops);
  if (!found) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const { RedisContainer } = await import("@testcontainers/redis");
    const [pg, redis] = await Promise.all([new PostgreSqlContainer("postgres:15-alpine").start(), new RedisContainer("redis:7-alpine").start()]);
    stops.push(() => pg.stop(), () => redis.stop());
    found = { pgUrl: process.env.DATABASE_URL || pg.getConnectionUri(), redisUrl: process.env.REDIS_URL || redis.getConnectionUrl() };
  }
  const { pgUrl, redisUrl } = found;
  const runId = randomBytes(3).toString("hex");
  const templateDb = `insp_tmpl_${runId}`;
  await runMigrations(withDb(pgUrl, templateDb));
  project.provide("pgServerUrl", pgUrl);
  project.provide("redisUrl", redisUrl);
  project.provide("templateDb", templateDb);
  project.provide("runId", runId);

  return async () => {
    const admin = postgres(withDb(pgUrl, "postgres"), { max: 1, onnotice: () => {} });
    try {
      const dbs = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`insp_%_${runId}%`}`;
      for (const { datname } of dbs) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
    for (const stop of stops) await stop();
  };
}
