/** The launcher (`npm start`) as a real process, for launcher-start.faults.test.ts and launcher.faults.test.ts. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { resetLocalData } from "@insp/local-servers";
import { freePort, until } from "@insp/testing";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * A copy of this project in `dir`, as a clone there would be: hard links (the same disk, no
 * space, a few seconds), node_modules included; its workspace links are relative, so they
 * point into the copy. Nothing writes to the copy's files in place, so the originals stay as
 * they are.
 */
function linkedCopy(dir: string): string {
  const project = path.join(dir, "project");
  mkdirSync(project);
  const entries = readdirSync(root).filter((e) => ![".git", ".data"].includes(e));
  const r = spawnSync("cp", ["-al", ...entries.map((e) => path.join(root, e)), project], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`copying the project into ${project} failed: ${r.stderr}`);
  return project;
}

export const portOpen = (port: number) =>
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
export const redisRunning = (redisDir: string) => {
  const file = path.join(redisDir, "redis.pid");
  return existsSync(file) && alive(Number(readFileSync(file, "utf8").trim()));
};

/** A wait that timed out, with the end of what the launcher printed (where its apps' errors are). */
const withTail = (l: Launcher) => (err: Error) => {
  throw new Error(`${err.message.split(":")[0]}: not reached; the launcher's last output:\n${l.output().slice(-4_000)}`);
};

export interface Launcher {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export interface Demo {
  apiKey: string;
  oauthClient: { clientId: string; clientSecret: string };
}

/**
 * A temporary folder for a test file's launchers (made in beforeAll; afterAll Ctrl-Cs any launcher
 * a failed test left running, stops leftover servers and removes the folder), and the settings of
 * a launcher with embedded servers on free ports whose data is in `<folder>/data`. `closed`: the
 * folder is left as mkdtemp makes it (0700, closed to other users) and the launcher runs from a
 * copy of the project inside it, as from a root user's clone in /root.
 */
export function launcherSuite(opts: { closed?: boolean } = {}) {
  let dir = "";
  let project = root;
  let env: Record<string, string> = {};
  const launched: Launcher[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "insp-launcher-"));
    // As root, the embedded Postgres runs as user postgres: it can enter an open folder; a closed
    // one makes the launcher place Postgres's files outside it.
    if (opts.closed) project = linkedCopy(dir);
    else chmodSync(dir, 0o755);
    env = {
      EMBEDDED_SERVERS: "always",
      EMBEDDED_DATA_DIR: path.join(dir, "data"),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      EMBEDDED_REDIS_PORT: String(await freePort()),
      PORT: String(await freePort()),
      MEDIA_DIR: path.join(dir, "media"),
      MAIL_DIR: path.join(dir, "mail"),
      DEMO_CREDENTIALS_FILE: path.join(dir, "demo-credentials.json"),
    };
  });
  afterAll(async () => {
    for (const l of launched) if (l.child.exitCode === null && l.child.signalCode === null) process.kill(-l.child.pid!, "SIGINT");
    await Promise.all(launched.map((l) => Promise.race([l.exited, new Promise((r) => setTimeout(r, 60_000))])));
    await resetLocalData(path.join(dir, "data"));
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  const suite = {
    dir: () => dir,
    /** The project folder the launcher runs from (a copy inside dir() when closed). */
    project: () => project,
    dataDir: () => path.join(dir, "data"),
    /** The launcher's environment: embedded servers in dataDir() on this file's ports. */
    env: () => env,
    base: () => `http://127.0.0.1:${env.PORT}`,
    /** The launcher in a process group of its own, as a terminal runs it (Ctrl-C reaches the whole group). */
    launch(extra: Record<string, string> = env): Launcher {
      const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", path.join(project, "apps/admin/src/start-all.ts")], {
        cwd: project,
        detached: true,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", LOG_LEVEL: "warn", ...extra },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      const l = { child, output: () => out, exited };
      launched.push(l);
      return l;
    },
    /** `npm run admin -- <args>` with the launcher's embedded-server settings. */
    admin(args: string[], extra: Record<string, string> = {}) {
      const { EMBEDDED_SERVERS, EMBEDDED_DATA_DIR, EMBEDDED_POSTGRES_PORT, EMBEDDED_REDIS_PORT } = env;
      return spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", path.join(project, "apps/admin/src/main.ts"), ...args], {
        cwd: project,
        encoding: "utf8",
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          NODE_ENV: "development",
          EMBEDDED_SERVERS,
          EMBEDDED_DATA_DIR,
          EMBEDDED_POSTGRES_PORT,
          EMBEDDED_REDIS_PORT,
          ...extra,
        } as Record<string, string>,
        timeout: 120_000,
      });
    },
    /** Waits for the first start's "Try it" lines and reads the demo's credentials from what it printed. */
    async firstStart(l: Launcher): Promise<Demo> {
      await until(
        "the launcher's 'Try it' lines",
        async () => l.output(),
        (o) => o.includes("Try it") || l.child.exitCode !== null,
        180_000,
      ).catch(withTail(l));
      const out = l.output();
      const file = /credentials, shown once here, are kept in (.+):\n/.exec(out)?.[1];
      expect(file, out).toBe(env.DEMO_CREDENTIALS_FILE);
      const demo = JSON.parse(readFileSync(file!, "utf8")) as Demo;
      expect(out).toContain(`API key        ${demo.apiKey}`);
      return demo;
    },
    async ready(l: Launcher): Promise<void> {
      await until(
        "the API",
        () =>
          fetch(`${suite.base()}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
            (r) => r.ok,
            () => false,
          ),
        (ok) => ok || l.child.exitCode !== null,
        120_000,
      ).catch(withTail(l));
    },
    /** Ctrl-C, then nothing is left: no postmaster, no redis-server, no lock, the ports closed. */
    async stopped(l: Launcher): Promise<void> {
      process.kill(-l.child.pid!, "SIGINT");
      expect(await l.exited).toBe(0);
      const data = suite.dataDir();
      expect(existsSync(path.join(data, "postgres", "postmaster.pid"))).toBe(false);
      expect(redisRunning(path.join(data, "redis"))).toBe(false);
      expect(existsSync(path.join(data, "owner.pid"))).toBe(false);
      for (const p of [env.EMBEDDED_POSTGRES_PORT, env.EMBEDDED_REDIS_PORT, env.PORT]) expect(await portOpen(Number(p))).toBe(false);
    },
    get: async (p: string, bearer: string) => (await fetch(`${suite.base()}${p}`, { headers: { authorization: `Bearer ${bearer}` } })).json() as Promise<any>,
    /** An access token of the demo's OAuth client (client credentials, Basic). */
    async token(demo: Demo): Promise<string> {
      const res = await fetch(`${suite.base()}/oauth/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${demo.oauthClient.clientId}:${demo.oauthClient.clientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials",
      });
      return ((await res.json()) as { access_token: string }).access_token;
    },
  };
  return suite;
}
