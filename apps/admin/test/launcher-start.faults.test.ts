import { existsSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { freePort, testServers } from "@insp/testing";
import { launcherSuite, redisRunning, type Demo } from "./launcher.fixtures.ts";

/**
 * `npm start` on a machine with nothing but Node (docs/local-development.md): the launcher runs
 * as a real process with embedded Postgres and Redis, seeds the demo with sample content, takes a
 * sync of 50 employees, stops on Ctrl-C leaving no server behind, starts again with the data still
 * there; an admin command beside it; reset-local; the one-line errors of settings that point
 * nowhere. The launcher killed with SIGKILL is launcher.faults.test.ts (npm run test:faults).
 */
const suite = launcherSuite();

describe("embedded servers when the default addresses do not answer", () => {
  it("starts an embedded Postgres and Redis that answer, and stops them", async () => {
    const dataDir = path.join(suite.dir(), "resolver");
    const closed = [await freePort(), await freePort()];
    const servers = await testServers(dataDir, {
      defaultDatabaseUrl: `postgres://postgres@127.0.0.1:${closed[0]}/inspection_service`,
      defaultRedisUrl: `redis://127.0.0.1:${closed[1]}`,
    });
    try {
      expect(servers.started).toBe(true);
      expect(servers.summary).toMatch(/^Embedded PostgreSQL \d+\.\d+ on 127\.0\.0\.1:\d+ and Redis \d+\.\d+\.\d+ on 127\.0\.0\.1:\d+, data in /);
      const sql = postgres(servers.databaseUrl, { max: 1, onnotice: () => {} });
      expect((await sql`select 1 as one`)[0]!.one).toBe(1);
      await sql.end();
      const redis = new Redis(servers.redisUrl);
      expect(await redis.ping()).toBe("PONG");
      redis.disconnect();
    } finally {
      await servers.stop();
    }
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
    expect(redisRunning(path.join(dataDir, "redis"))).toBe(false);
    expect(existsSync(path.join(dataDir, "owner.pid"))).toBe(false);
  });
});

describe("npm start with embedded servers", () => {
  let demo: Demo;
  const token = () => suite.token(demo);
  const get = suite.get;

  it("comes up on a fresh folder with the demo and its sample content, syncs 50 employees, and stops on Ctrl-C leaving nothing running", async () => {
    const env = suite.env();
    const l = suite.launch();
    demo = await suite.firstStart(l);
    const out = l.output();
    expect(out).toMatch(
      new RegExp(
        `Embedded PostgreSQL \\d+\\.\\d+ on 127\\.0\\.0\\.1:${env.EMBEDDED_POSTGRES_PORT} and Redis [\\d.]+ on 127\\.0\\.0\\.1:${env.EMBEDDED_REDIS_PORT}, data in ${suite.dataDir()}`,
      ),
    );
    expect(out).toContain(`KEY=${demo.apiKey}`);
    expect(out).toContain(`INSP_CLIENT_ID=${demo.oauthClient.clientId}`);

    const templates = await get("/api/templates", demo.apiKey);
    expect(templates.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual([["Forklift pre-use check", "PUBLISHED"]]);
    const detail = await get(`/api/templates/${templates[0].id}`, demo.apiKey);
    expect(detail.sections.length).toBe(2);
    expect(detail.sections.flatMap((s: { questions: { logicRules: unknown[] }[] }) => s.questions.flatMap((q) => q.logicRules)).length).toBe(2);
    const inspections = await get("/api/inspections", demo.apiKey);
    expect(inspections.inspections.map((i: { status: string }) => i.status).sort()).toEqual(["COMPLETED", "COMPLETED", "IN_PROGRESS"]);

    const employees = Array.from({ length: 50 }, (_, i) => ({
      externalEmployeeId: `L${i}`,
      firstName: "Test",
      lastName: `Person ${i}`,
      email: `l${i}@launcher.example`,
      roles: ["inspector"],
    }));
    const res = await fetch(`${suite.base()}/api/v1/sync/employees`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
      body: JSON.stringify({ employees }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { status: string }[]; errors: unknown[] };
    expect(body.errors).toEqual([]);
    expect(body.results.map((r) => r.status)).toEqual(Array(50).fill("CREATED"));

    await suite.stopped(l);
  }, 300_000);

  it("starts again on the same folder with the data still there and no new demo", async () => {
    const l = suite.launch();
    await suite.ready(l);
    expect(l.output()).not.toContain("Empty database");
    const page = await get("/api/v1/employees?limit=100", await token());
    expect(page.employees.filter((e: { externalEmployeeId: string }) => e.externalEmployeeId.startsWith("L")).length).toBe(50);
    // An admin command beside it uses the same embedded servers: its new organization's key works on this API.
    const seeded = suite.admin(["seed-demo", "--json"]);
    expect(seeded.status).toBe(0);
    const other = JSON.parse(seeded.stdout) as { apiKey: string };
    expect(await get("/api/templates", other.apiKey)).toEqual([]);
    // ... and reset-local refuses while the servers run.
    const refused = suite.admin(["reset-local", "--yes"]);
    expect(refused.status).toBe(78);
    expect(refused.stderr.trim()).toMatch(new RegExp(`^reset-local: the embedded servers in ${suite.dataDir()} are in use by process ${l.child.pid}; stop it`));
    await suite.stopped(l);
  }, 180_000);
});

describe("admin reset-local", () => {
  it("asks for a confirmation, then wipes the embedded servers' folder", async () => {
    const data = suite.dataDir();
    expect(existsSync(path.join(data, "postgres", "PG_VERSION"))).toBe(true);
    const unconfirmed = suite.admin(["reset-local"]);
    expect(unconfirmed.status).toBe(2);
    expect(unconfirmed.stderr.trim()).toBe(`reset-local: confirm with --yes to wipe ${data} without a terminal`);
    expect(existsSync(data)).toBe(true);
    const wiped = suite.admin(["reset-local", "--yes"]);
    expect(wiped.status).toBe(0);
    expect(wiped.stdout).toContain(`Wiped ${data}`);
    expect(existsSync(data)).toBe(false);
  });
});

describe("settings that point nowhere", () => {
  it("a DATABASE_URL where nothing answers is one line naming it and the address, exit 78", async () => {
    const port = await freePort();
    const l = suite.launch({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`, EMBEDDED_DATA_DIR: path.join(suite.dir(), "unused") });
    expect(await l.exited).toBe(78);
    expect(l.output().trim()).toBe(`DATABASE_URL: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`);
  }, 60_000);

  it("a REDIS_URL where nothing answers, likewise, before any embedded server is started", async () => {
    const port = await freePort();
    const l = suite.launch({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      EMBEDDED_SERVERS: "always",
      EMBEDDED_DATA_DIR: path.join(suite.dir(), "unused"),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
    });
    expect(await l.exited).toBe(78);
    expect(l.output().trim()).toBe(`REDIS_URL: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(existsSync(path.join(suite.dir(), "unused"))).toBe(false);
  }, 60_000);
});
