/**
 * `npm start`: one command for a newcomer. Applies migrations, seeds a demo
 * organization when the database is empty (printing its credentials once), then
 * runs the API and WORKER_REPLICAS worker processes (default 1), restarts any that
 * dies, and forwards signals. In production, run the API and workers as separate
 * services instead (`npm run start:api`, `npm run start:worker`; docker-compose.yml
 * restarts them the same way).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { seedDemo } from "@insp/core";
import { createDb, runMigrations } from "@insp/db";
import { organizations } from "@insp/db/schema";
import { loadAdminEnv } from "./env.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The launcher starts the apps the way it runs itself: from the sources through tsx (`npm start`,
 * no build step for a newcomer) or, compiled (`node apps/admin/dist/start-all.js`), the apps'
 * dist/ entry points with plain Node.
 */
const fromSource = import.meta.url.endsWith(".ts");
const entry = (app: "api" | "worker") => (fromSource ? `apps/${app}/src/main.ts` : `apps/${app}/dist/main.js`);
const nodeArgs = fromSource ? ["--conditions=source", "--import", "tsx"] : [];

async function seedIfEmpty(): Promise<void> {
  const env = loadAdminEnv();
  await runMigrations(env.DATABASE_URL);
  const { db, close } = createDb(env.DATABASE_URL, { max: 1 });
  try {
    const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    if (n > 0) return;
    const demo = await seedDemo(db, { pepper: env.SECRET_PEPPER, name: "Demo Organization" });
    console.log(
      [
        "",
        "Empty database: created a demo organization. These credentials are shown once.",
        JSON.stringify(demo, null, 2),
        "",
        "Try:  curl -H 'Authorization: Bearer " + demo.apiKey + "' http://127.0.0.1:" + (process.env.PORT ?? "3000") + "/api/templates",
        "",
      ].join("\n"),
    );
  } finally {
    await close();
  }
}

/** A configuration error (exit 78) will not go away by itself: everything stops instead. */
const EX_CONFIG = 78;

/**
 * Runs an app and keeps it running: a child that exits on its own (a crash, an uncaught
 * exception's exit 70, a kill -9) is started again after a backoff of 1 s, doubling up to
 * 30 s, back to 1 s once a run has lasted a minute. The others keep running meanwhile.
 */
function supervise(name: string, script: string, env: Record<string, string> = {}): void {
  let backoffMs = 1_000;
  const start = () => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [...nodeArgs, script], { cwd: root, stdio: "inherit", env: { ...process.env, MIGRATE_ON_START: "false", ...env } });
    children.add(child);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      if (code === EX_CONFIG) {
        console.error(`${name} exited: configuration error; stopping the others`);
        stop(EX_CONFIG);
        return;
      }
      if (Date.now() - startedAt > 60_000) backoffMs = 1_000;
      console.error(`${name} exited (${signal ?? code}); restarting in ${backoffMs / 1000} s`);
      setTimeout(() => !stopping && start(), backoffMs);
      backoffMs = Math.min(backoffMs * 2, 30_000);
    });
  };
  start();
}

let stopping = false;
const children = new Set<ChildProcess>();
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (children.size === 0) process.exit(code);
  for (const c of children) c.kill("SIGTERM");
  for (const c of children) c.on("exit", () => children.size === 0 && process.exit(code));
  setTimeout(() => process.exit(code), 30_000).unref();
}

await seedIfEmpty();
const replicas = Math.max(1, Number(process.env.WORKER_REPLICAS ?? "1") || 1);
// One METRICS_PORT for all would collide on one host: the API takes it, worker n takes it + n.
const metricsPort = Number(process.env.METRICS_PORT ?? "0") || 0;
const metricsPortOf = (n: number): Record<string, string> => (metricsPort ? { METRICS_PORT: String(metricsPort + n) } : {});
supervise("api", entry("api"), metricsPortOf(0));
for (let i = 0; i < replicas; i++) supervise(`worker ${i + 1}`, entry("worker"), metricsPortOf(i + 1));
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
