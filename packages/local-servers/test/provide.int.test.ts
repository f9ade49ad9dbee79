import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "@insp/testing";
import { answers } from "../src/probe.ts";
import { provideServers } from "../src/resolve.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "insp-provide-"));
// As root, a folder other users cannot enter fails as fast, for another reason: open it.
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a Postgres that fails at once leaves no embedded Redis running behind it", async () => {
  // A cluster of another major version: refused before initdb, while Redis is still starting.
  mkdirSync(path.join(dir, "postgres"), { recursive: true });
  writeFileSync(path.join(dir, "postgres", "PG_VERSION"), "9\n");
  writeFileSync(path.join(dir, "credentials.json"), JSON.stringify({ postgres: "pg-secret", redis: "redis-secret" }));
  const [postgresPort, redisPort] = [await freePort(), await freePort()];
  const started = provideServers({
    databaseUrl: undefined,
    redisUrl: undefined,
    redisCluster: false,
    defaultDatabaseUrl: "postgres://postgres@127.0.0.1:5432/postgres",
    defaultRedisUrl: "redis://127.0.0.1:6379",
    mode: "always",
    dataDir: dir,
    postgresPort,
    redisPort,
    durable: false,
    database: "postgres",
    whenInUse: "refuse",
    who: "the test",
    log: () => {},
  });
  await expect(started).rejects.toThrow(`holds a PostgreSQL 9 cluster`);
  // A Redis left starting would begin to answer a moment later: watch for longer than it takes.
  for (let i = 0; i < 30; i++) {
    expect(await answers("127.0.0.1", redisPort)).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
  }
});
