import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetLocalData } from "@insp/local-servers";
import { freePort, testServers, until } from "@insp/testing";

/**
 * `npm start` on a machine with nothing but Node (docs/local-development.md): the launcher runs
 * as a real process with embedded Postgres and Redis, seeds the demo with sample content, takes a
 * sync of 50 employees, stops on Ctrl-C leaving no server behind, starts again with the data still
 * there, and survives its own SIGKILL. Plus the one-line errors of settings that point nowhere.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const launcher = path.join(root, "apps/admin/src/start-all.ts");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "insp-launcher-"));
  // As root, the embedded Postgres runs as user postgres, which must be able to enter the folder.
  chmodSync(dir, 0o755);
});
const launched: Launcher[] = [];
afterAll(async () => {
  // A failed test may leave a launcher running: Ctrl-C it (it stops its servers), then wipe.
  for (const l of launched) if (l.child.exitCode === null && l.child.signalCode === null) process.kill(-l.child.pid!, "SIGINT");
  await Promise.all(launched.map((l) => Promise.race([l.exited, new Promise((r) => setTimeout(r, 60_000))])));
  await resetLocalData(path.join(dir, "data"));
  rmSync(dir, { recursive: true, force: true });
}, 90_000);

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Redis removes its pid file when it exits cleanly; a file left names a process that must be gone. */
const redisRunning = (redisDir: string) => {
  const file = path.join(redisDir, "redis.pid");
  return existsSync(file) && alive(Number(readFileSync(file, "utf8").trim()));
};

interface Launcher {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** The launcher in a process group of its own, as a terminal runs it (Ctrl-C reaches the whole group). */
function launch(env: Record<string, string>): Launcher {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", launcher], {
    cwd: root,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const l = { child, output: () => out, exited };
  launched.push(l);
  return l;
}

/** `npm run admin -- <args>` against the launcher tests' folder. */
function admin(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", path.join(root, "apps/admin/src/main.ts"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", ...adminEnv, ...extra },
    timeout: 120_000,
  });
}
let adminEnv: Record<string, string> = {};

describe("embedded servers when the default addresses do not answer", () => {
  it("starts an embedded Postgres and Redis that answer, and stops them", async () => {
    const dataDir = path.join(dir, "resolver");
    const closed = [await freePort(), await freePort()];
    const servers = await testServers(dataDir, { defaultDatabaseUrl: `postgres://postgres@127.0.0.1:${closed[0]}/inspection_service`, defaultRedisUrl: `redis://127.0.0.1:${closed[1]}` });
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
  let env: Record<string, string>;
  let base: string;
  let demo: { apiKey: string; oauthClient: { clientId: string; clientSecret: string } };
  const dataDir = () => path.join(dir, "data");

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      EMBEDDED_SERVERS: "always",
      EMBEDDED_DATA_DIR: dataDir(),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      EMBEDDED_REDIS_PORT: String(await freePort()),
      PORT: String(port),
      MEDIA_DIR: path.join(dir, "media"),
      MAIL_DIR: path.join(dir, "mail"),
    };
    adminEnv = { EMBEDDED_SERVERS: "always", EMBEDDED_DATA_DIR: dataDir(), EMBEDDED_POSTGRES_PORT: env.EMBEDDED_POSTGRES_PORT!, EMBEDDED_REDIS_PORT: env.EMBEDDED_REDIS_PORT! };
  });

  const token = async () => {
    const res = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${demo.oauthClient.clientId}:${demo.oauthClient.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const get = async (p: string, bearer: string) => (await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${bearer}` } })).json() as Promise<any>;
  const stopped = async (l: Launcher) => {
    process.kill(-l.child.pid!, "SIGINT"); // Ctrl-C
    expect(await l.exited).toBe(0);
    // Nothing left: no postmaster, no redis-server, no lock, the ports closed.
    expect(existsSync(path.join(dataDir(), "postgres", "postmaster.pid"))).toBe(false);
    expect(redisRunning(path.join(dataDir(), "redis"))).toBe(false);
    expect(existsSync(path.join(dataDir(), "owner.pid"))).toBe(false);
    for (const p of [env.EMBEDDED_POSTGRES_PORT, env.EMBEDDED_REDIS_PORT, env.PORT]) expect(await portOpen(Number(p))).toBe(false);
  };

  it("comes up on a fresh folder with the demo and its sample content, syncs 50 employees, and stops on Ctrl-C leaving nothing running", async () => {
    const l = launch(env);
    await until("the launcher's 'Try it' lines", async () => l.output(), (o) => o.includes("Try it") || l.child.exitCode !== null, 180_000);
    const out = l.output();
    expect(out).toMatch(new RegExp(`Embedded PostgreSQL \\d+\\.\\d+ on 127\\.0\\.0\\.1:${env.EMBEDDED_POSTGRES_PORT} and Redis [\\d.]+ on 127\\.0\\.0\\.1:${env.EMBEDDED_REDIS_PORT}, data in ${dataDir()}`));
    demo = JSON.parse(out.slice(out.indexOf("{", out.indexOf("shown once.")), out.indexOf("\n}\n", out.indexOf("shown once.")) + 2));
    expect(out).toContain(`KEY=${demo.apiKey}`);
    expect(out).toContain(`INSP_CLIENT_ID=${demo.oauthClient.clientId}`);

    const templates = await get("/api/templates", demo.apiKey);
    expect(templates.map((t: { title: string; status: string }) => [t.title, t.status])).toEqual([["Forklift pre-use check", "PUBLISHED"]]);
    const detail = await get(`/api/templates/${templates[0].id}`, demo.apiKey);
    expect(detail.sections.length).toBe(2);
    expect(detail.sections.flatMap((s: { questions: { logicRules: unknown[] }[] }) => s.questions.flatMap((q) => q.logicRules)).length).toBe(1);
    const inspections = await get("/api/inspections", demo.apiKey);
    expect(inspections.inspections.map((i: { status: string }) => i.status).sort()).toEqual(["COMPLETED", "COMPLETED", "IN_PROGRESS"]);

    const employees = Array.from({ length: 50 }, (_, i) => ({ externalEmployeeId: `L${i}`, firstName: "Test", lastName: `Person ${i}`, email: `l${i}@launcher.example`, roles: ["inspector"] }));
    const res = await fetch(`${base}/api/v1/sync/employees`, { method: "POST", headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" }, body: JSON.stringify({ employees }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { status: string }[]; errors: unknown[] };
    expect(body.errors).toEqual([]);
    expect(body.results.map((r) => r.status)).toEqual(Array(50).fill("CREATED"));

    await stopped(l);
  }, 300_000);

  it("starts again on the same folder with the data still there and no new demo", async () => {
    const l = launch(env);
    await until("the API", () => fetch(`${base}/readyz`).then((r) => r.ok, () => false), (ok) => ok || l.child.exitCode !== null, 120_000);
    expect(l.output()).not.toContain("Empty database");
    const page = await get("/api/v1/employees?limit=100", await token());
    expect(page.employees.filter((e: { externalEmployeeId: string }) => e.externalEmployeeId.startsWith("L")).length).toBe(50);
    // An admin command beside it uses the same embedded servers: its new organization's key works on this API.
    const seeded = admin(["seed-demo", "--json"]);
    expect(seeded.status).toBe(0);
    const other = JSON.parse(seeded.stdout) as { apiKey: string };
    expect(await get("/api/templates", other.apiKey)).toEqual([]);
    // ... and reset-local refuses while the servers run.
    const refused = admin(["reset-local", "--yes"]);
    expect(refused.status).toBe(78);
    expect(refused.stderr.trim()).toMatch(new RegExp(`^reset-local: the embedded servers in ${dataDir()} are in use by process ${l.child.pid}; stop it`));
    await stopped(l);
  }, 180_000);

  it("a launcher killed with SIGKILL takes its apps with it, and the next start stops the servers it left and comes up", async () => {
    const first = launch(env);
    await until("the API", () => fetch(`${base}/readyz`).then((r) => r.ok, () => false), (ok) => ok || first.child.exitCode !== null, 120_000);
    first.child.kill("SIGKILL");
    // The apps see the launcher's IPC channel close and stop: the API's port is free again.
    await until("the API to stop", () => portOpen(Number(env.PORT)), (open) => !open, 30_000);

    const second = launch(env);
    await until("the API", () => fetch(`${base}/readyz`).then((r) => r.ok, () => false), (ok) => ok || second.child.exitCode !== null, 120_000);
    expect(second.output()).toMatch(/stopping the embedded Postgres left running by an earlier start/);
    expect(second.output()).toMatch(/stopping the embedded Redis left running by an earlier start/);
    expect((await get("/api/inspections", demo.apiKey)).inspections.length).toBe(3);
    await stopped(second);
  }, 240_000);
});

describe("admin reset-local", () => {
  it("asks for a confirmation, then wipes the embedded servers' folder", async () => {
    const data = path.join(dir, "data");
    expect(existsSync(path.join(data, "postgres", "PG_VERSION"))).toBe(true);
    const unconfirmed = admin(["reset-local"], { EMBEDDED_DATA_DIR: data });
    expect(unconfirmed.status).toBe(2);
    expect(unconfirmed.stderr.trim()).toBe(`reset-local: confirm with --yes to wipe ${data} without a terminal`);
    expect(existsSync(data)).toBe(true);
    const wiped = admin(["reset-local", "--yes"], { EMBEDDED_DATA_DIR: data });
    expect(wiped.status).toBe(0);
    expect(wiped.stdout).toContain(`Wiped ${data}`);
    expect(existsSync(data)).toBe(false);
  });
});

describe("settings that point nowhere", () => {
  it("a DATABASE_URL where nothing answers is one line naming it and the address, exit 78", async () => {
    const port = await freePort();
    const l = launch({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`, EMBEDDED_DATA_DIR: path.join(dir, "unused") });
    expect(await l.exited).toBe(78);
    expect(l.output().trim()).toBe(`DATABASE_URL: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`);
  }, 60_000);

  it("a REDIS_URL where nothing answers, likewise, before any embedded server is started", async () => {
    const port = await freePort();
    const l = launch({ REDIS_URL: `redis://127.0.0.1:${port}`, EMBEDDED_SERVERS: "always", EMBEDDED_DATA_DIR: path.join(dir, "unused"), EMBEDDED_POSTGRES_PORT: String(await freePort()) });
    expect(await l.exited).toBe(78);
    expect(l.output().trim()).toBe(`REDIS_URL: nothing answers at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(existsSync(path.join(dir, "unused"))).toBe(false);
  }, 60_000);
});
