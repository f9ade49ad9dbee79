/**
 * `npm start`: one command for a newcomer. Applies migrations, seeds a demo
 * organization when the database is empty (printing its credentials once), then
 * runs the API and WORKER_REPLICAS worker processes (default 1) and forwards
 * signals. In production, run the API and workers as separate services instead
 * (`npm run start:api`, `npm run start:worker`; see docker-compose.yml).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { seedDemo } from "@insp/core";
import { createDb, runMigrations } from "@insp/db";
import { organizations } from "@insp/db/schema";
import { loadAdminEnv } from "./env.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

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

function run(name: string, script: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, stdio: "inherit", env: { ...process.env, MIGRATE_ON_START: "false" } });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping the others`);
      stop(code ?? 1);
    }
  });
  return child;
}

let stopping = false;
const children: ChildProcess[] = [];
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  let alive = children.length;
  for (const c of children) c.on("exit", () => --alive === 0 && process.exit(code));
  setTimeout(() => process.exit(code), 30_000).unref();
}

await seedIfEmpty();
const replicas = Math.max(1, Number(process.env.WORKER_REPLICAS ?? "1") || 1);
children.push(run("api", "apps/api/src/main.ts"));
for (let i = 0; i < replicas; i++) children.push(run(`worker ${i + 1}`, "apps/worker/src/main.ts"));
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
