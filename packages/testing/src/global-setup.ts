import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { runMigrations } from "@insp/db";
import { NoTestServersError, findTestServers } from "./find-servers.ts";

/**
 * Runs once per `vitest run`: finds Postgres and Redis, migrates one template
 * database, and hands the URLs to the test files (inject). Each test file then
 * clones its own database from the template (CREATE DATABASE ... TEMPLATE, ~100 ms)
 * and uses its own queue prefix, so files never interfere.
 *
 * Where, for each of the two (docs/testing.md): DATABASE_URL / REDIS_URL when set; else the
 * default local addresses when something answers there; else embedded servers (the ones `npm
 * start` uses, here throwaway: a temporary folder, free ports, no fsync), removed at the end; else
 * containers started with testcontainers (needs Docker). When none can be had, one line says
 * what was tried and what to do, and the run exits with status 78 (find-servers.ts).
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

export default async function setup(project: TestProject) {
  const stops: (() => Promise<unknown>)[] = [];
  let found;
  try {
    found = await findTestServers(
      { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, EMBEDDED_SERVERS: process.env.EMBEDDED_SERVERS },
      stops,
    );
  } catch (err) {
    if (!(err instanceof NoTestServersError)) throw err;
    // One line and a non-zero exit: a thrown error would be printed by vitest with its stack,
    // under "Unhandled Error", which says nothing about what to do.
    console.error(err.message);
    for (const stop of stops) await stop().catch(() => {});
    process.exit(78);
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
