/**
 * `npm start`: one command for a newcomer. Finds Postgres and Redis (settings, else the default
 * local addresses, else embedded servers it starts: docs/local-development.md), applies
 * migrations, seeds a demo organization with sample content when the database is empty (printing
 * its credentials once), then runs the API and WORKER_REPLICAS worker processes (default 1),
 * restarts any that dies, and forwards signals. On Ctrl-C or SIGTERM the apps stop first, then the
 * embedded servers. In production, run the API and workers as separate services instead
 * (`npm run start:api`, `npm run start:worker`; docs/operations.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { ConfigError, portInUse } from "@insp/config";
import { seedDemo, type DemoSeed } from "@insp/core";
import { createDb, runMigrations } from "@insp/db";
import { organizations } from "@insp/db/schema";
import { ServerSetupError, tcpProblem, type ProvidedServers } from "@insp/local-servers";
import type { AdminEnv } from "./env.ts";
import { demoFileContent, writeDemoFile } from "./demo-file.ts";
import { seedSamples } from "./samples.ts";
import { checkRedis, databaseProblem } from "./server-checks.ts";
import { withServers } from "./servers.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The launcher starts the apps the way it runs itself: from the sources through tsx (`npm start`,
 * no build step for a newcomer) or, compiled (`node apps/admin/dist/start-all.js`), the apps'
 * dist/ entry points with plain Node.
 */
const fromSource = import.meta.url.endsWith(".ts");
const entry = (app: "api" | "worker") => (fromSource ? `apps/${app}/src/main.ts` : `apps/${app}/dist/main.js`);
const nodeArgs = fromSource ? ["--conditions=source", "--import", "tsx"] : [];

/** A configuration error (exit 78) will not go away by itself: everything stops instead. */
const EX_CONFIG = 78;

let stopping = false;
let servers: ProvidedServers | null = null;
const children = new Set<ChildProcess>();

/** Stops the apps (SIGTERM, they finish their work), then the embedded servers, then exits. */
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    const exited = [...children].map(
      (c) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once("exit", () => resolve()))),
    );
    for (const c of children) c.kill("SIGTERM");
    // The apps bound their own shutdown (SHUTDOWN_TIMEOUT_SECONDS); this is the launcher's backstop.
    await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 60_000).unref())]);
    await servers?.stop();
    process.exit(code);
  }
  return new Promise<never>(() => {});
}

/** One line, no stack trace, exit 78: for settings that point nowhere and servers that cannot start. */
function fail(message: string): Promise<never> {
  console.error(message);
  return stop(EX_CONFIG);
}

async function seedIfEmpty(env: AdminEnv): Promise<DemoSeed | null> {
  await runMigrations(env.DATABASE_URL);
  const { db, close } = createDb(env.DATABASE_URL, { max: 1 });
  try {
    const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    if (n > 0) return null;
    return await seedDemo(db, { pepper: env.SECRET_PEPPER, name: "Demo Organization" });
  } finally {
    await close();
  }
}

/**
 * Runs an app and keeps it running: a child that exits on its own (a crash, an uncaught
 * exception's exit 70, a kill -9) is started again after a backoff of 1 s, doubling up to
 * 30 s, back to 1 s once a run has lasted a minute. The others keep running meanwhile. The
 * IPC channel lets the apps notice a launcher that died without stopping them (they stop too).
 */
function supervise(name: string, script: string, env: Record<string, string>): void {
  let backoffMs = 1_000;
  const start = () => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [...nodeArgs, script], {
      cwd: root,
      stdio: ["inherit", "inherit", "inherit", "ipc"],
      env: { ...process.env, MIGRATE_ON_START: "false", ...env },
    });
    children.add(child);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      if (code === EX_CONFIG) {
        console.error(`${name} exited: configuration error; stopping the others`);
        void stop(EX_CONFIG);
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

async function waitForApi(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    // Bounded: a request that is never answered must not hold the launcher (and its "Try it" lines).
    const ok = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * The demo's credentials in a few lines (the whole seed, ids included, is in the file the guides
 * read): a long JSON among the apps' log lines is where nobody finds the key.
 */
function credentials(demo: DemoSeed, file: string): string {
  return [
    "",
    `Empty database: created the demo organization "${demo.organization.name}"; its credentials, shown once here, are kept in ${file}:`,
    `  API key        ${demo.apiKey}`,
    `  OAuth client   ${demo.oauthClient.clientId} / ${demo.oauthClient.clientSecret}`,
    `  admin user     ${demo.users.admin.email} / ${demo.users.admin.password}`,
    `  inspector      ${demo.users.inspector.email} / ${demo.users.inspector.password}`,
    "",
  ].join("\n");
}

/** What to try first, with this demo's credentials filled in. */
function tryThis(baseUrl: string, demo: DemoSeed): string {
  return [
    "Try it (this demo's credentials are filled in):",
    `  export BASE=${baseUrl} KEY=${demo.apiKey}`,
    `  curl -s $BASE/api/templates -H "Authorization: Bearer $KEY"      # the sample template`,
    `  curl -s $BASE/api/inspections -H "Authorization: Bearer $KEY"    # three sample inspections`,
    "  node docs/examples/demo-mapping.mjs > demo-mapping.json          # the example mapping with this demo's site ids",
    `  INSP_URL=$BASE INSP_CLIENT_ID=${demo.oauthClient.clientId} INSP_CLIENT_SECRET=${demo.oauthClient.clientSecret} \\`,
    "    npm run insp-sync -- docs/examples/employees.csv --mapping demo-mapping.json",
    `  open ${baseUrl}/docs for every endpoint; docs/README.md for the guides`,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop(0));
  // `npm start` runs us under npm and a shell: when npm is sent SIGTERM, the shell dies and the
  // signal never reaches us. Being handed to another parent is the sign to stop as well.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void stop(0), 1_000).unref();
  // A launcher that crashes still asks its embedded servers to stop (the next start would stop them anyway).
  process.on("exit", () => servers?.stopNow());

  // Another program on the API's port: said at once, before any server starts. The API refuses a
  // taken port itself too (exit 78), but where the system lets it bind 0.0.0.0 beside a program on
  // 127.0.0.1 (macOS), only this check sees it.
  const apiPortSetting = process.env.PORT ?? "3000";
  const apiPort = Number(apiPortSetting);
  if (Number.isInteger(apiPort) && apiPort > 0 && apiPort < 65_536 && (await tcpProblem("127.0.0.1", apiPort)) === null)
    return void (await fail(new ConfigError([portInUse("PORT", apiPort)]).message));

  let env: AdminEnv;
  try {
    ({ env, servers } = await withServers("npm start", "refuse", (line) => console.log(line)));
  } catch (err) {
    if (err instanceof ServerSetupError) return void (await fail(err.message));
    if (err instanceof ConfigError) return void (await fail(err.message));
    throw err;
  }
  console.log(servers.summary);
  const redisProblem = await checkRedis(env);
  if (redisProblem) return void (await fail(redisProblem));
  let demo: DemoSeed | null;
  try {
    demo = await seedIfEmpty(env);
  } catch (err) {
    return void (await fail(databaseProblem(env.DATABASE_URL, err)));
  }

  const replicas = env.WORKER_REPLICAS;
  // One METRICS_PORT for all would collide on one host: the API takes it, worker n takes it + n;
  // likewise HEALTH_PORT, which only workers have: worker n takes it + n - 1.
  const metricsPort = Number(process.env.METRICS_PORT ?? "0") || 0;
  const healthPort = Number(process.env.HEALTH_PORT ?? "0") || 0;
  const portsOf = (n: number): Record<string, string> => ({
    ...(metricsPort ? { METRICS_PORT: String(metricsPort + n) } : {}),
    ...(healthPort && n > 0 ? { HEALTH_PORT: String(healthPort + n - 1) } : {}),
  });
  const appEnv = { DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL };
  supervise("api", entry("api"), { ...appEnv, ...portsOf(0) });
  for (let i = 0; i < replicas; i++) supervise(`worker ${i + 1}`, entry("worker"), { ...appEnv, ...portsOf(i + 1) });

  if (!demo) return;
  const baseUrl = `http://127.0.0.1:${apiPortSetting}`;
  const demoFile = path.resolve(env.DEMO_CREDENTIALS_FILE);
  await writeDemoFile(demoFile, demoFileContent(baseUrl, demo, null));
  console.log(credentials(demo, demoFile));
  if (!(await waitForApi(baseUrl, 120_000))) {
    if (!stopping)
      console.error(`The API did not answer ${baseUrl}/readyz within 120 s (its lines above say why); the demo organization is there without sample content.`);
    return;
  }
  try {
    // An import waits for its job at most IMPORT_WAIT_SECONDS (30 s by default); one still
    // unanswered 30 s after that never will be.
    const samples = await seedSamples(baseUrl, demo, ((Number(process.env.IMPORT_WAIT_SECONDS) || 30) + 30) * 1000);
    await writeDemoFile(demoFile, demoFileContent(baseUrl, demo, samples));
    console.log(`Sample content: the published template "Forklift pre-use check" (${samples.templateId}) and inspections ${samples.inspections.join(", ")}.\n`);
  } catch (err) {
    console.error(`Could not add the sample content (${err instanceof Error ? err.message : String(err)}); the demo organization is there without it.`);
  }
  console.log(tryThis(baseUrl, demo));
}

await main();
