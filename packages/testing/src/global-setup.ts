import { randomBytes } from "node:crypto";
import net from "node:net";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { runMigrations } from "@insp/db";

/**
 * Runs once per `vitest run`: finds Postgres and Redis, migrates one template
 * database, and hands the URLs to the test files (inject). Each test file then
 * clones its own database from the template (CREATE DATABASE ... TEMPLATE, ~100 ms)
 * and uses its own queue prefix, so files never interfere.
 *
 * Where: DATABASE_URL / REDIS_URL when set; else Postgres and Redis at their default
 * local addresses when they answer; else containers started with testcontainers
 * (needs Docker; imported lazily because it throws without a container runtime).
 */
declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    redisUrl: string;
    templateDb: string;
    runId: string;
  }
}

const canConnect = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host, port, timeout: 1000 });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
    s.once("timeout", () => (s.destroy(), resolve(false)));
  });

const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

export default async function setup(project: TestProject) {
  const stops: (() => Promise<unknown>)[] = [];
  let pgUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  if (!pgUrl && (await canConnect("127.0.0.1", 5432))) pgUrl = "postgres://postgres@127.0.0.1:5432/postgres";
  if (!redisUrl && (await canConnect("127.0.0.1", 6379))) redisUrl = "redis://127.0.0.1:6379";
  if (!pgUrl) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const c = await new PostgreSqlContainer("postgres:15-alpine").start();
    stops.push(() => c.stop());
    pgUrl = c.getConnectionUri();
  }
  if (!redisUrl) {
    const { RedisContainer } = await import("@testcontainers/redis");
    const c = await new RedisContainer("redis:7-alpine").start();
    stops.push(() => c.stop());
    redisUrl = c.getConnectionUrl();
  }
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
