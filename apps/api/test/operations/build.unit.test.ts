import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// The build, the packages' export maps, the image and docker-compose.yml agree with each other:
// checked on the files, without building or running anything (compiled.int.test.ts does that).

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const tsconfig = (file: string) => ts.readConfigFile(path.join(root, file), ts.sys.readFile).config;

const workspaces = ["apps", "packages"]
  .flatMap((d) => readdirSync(path.join(root, d)).map((n) => `${d}/${n}`))
  .filter((d) => existsSync(path.join(root, d, "package.json")));
/** Test-only: never built, never shipped. */
const TEST_ONLY = ["packages/testing"];
const built: string[] = tsconfig("tsconfig.build.json").references.map((r: { path: string }) => path.dirname(r.path));
const manifest = (dir: string) => JSON.parse(read(`${dir}/package.json`));

describe("npm run build", () => {
  it("builds every workspace but the test harness, each from src/ into dist/", () => {
    expect([...built].sort()).toEqual(workspaces.filter((w) => !TEST_ONLY.includes(w)).sort());
    for (const project of built) {
      const config = tsconfig(`${project}/tsconfig.build.json`);
      expect(config.extends, project).toBe("../../tsconfig.emit.json");
      expect(config.compilerOptions, project).toMatchObject({ rootDir: "src", outDir: "dist" });
      expect(config.include, project).toEqual(["src"]);
    }
    const emit = tsconfig("tsconfig.emit.json").compilerOptions;
    expect(emit).toMatchObject({ noEmit: false, rewriteRelativeImportExtensions: true, customConditions: [] });
    expect(tsconfig("tsconfig.json").compilerOptions.customConditions).toEqual(["source"]);
  });

  it('every export of a built package has the sources under "source" and the same path in dist/ by default', () => {
    for (const dir of built.filter((d) => d.startsWith("packages/"))) {
      const exports = manifest(dir).exports as Record<string, unknown>;
      expect(Object.keys(exports).length, dir).toBeGreaterThan(0);
      for (const [key, target] of Object.entries(exports)) {
        expect(target, `${dir} ${key}`).toEqual({ source: expect.stringMatching(/^\.\/src\/.*\.ts$/), default: expect.any(String) });
        const { source, default: compiled } = target as { source: string; default: string };
        expect(compiled, `${dir} ${key}`).toBe(source.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".js"));
        if (!source.includes("*")) expect(existsSync(path.join(root, dir, source)), `${dir} ${source}`).toBe(true);
      }
    }
  });

  it("vitest runs the packages' sources, not a dist/ left by a build", async () => {
    // The same module instance whether reached by package name or by its source path.
    expect(await import("@insp/config")).toBe(await import("../../../../packages/config/src/index.ts"));
    expect(await import("@insp/contracts")).toBe(await import("../../../../packages/contracts/src/index.ts"));
    expect(await import("@insp/logic")).toBe(await import("../../../../packages/logic/src/index.ts"));
    expect(await import("@insp/queue")).toBe(await import("../../../../packages/queue/src/index.ts"));
    expect(await import("@insp/db/schema")).toBe(await import("../../../../packages/db/src/schema/index.ts"));
  });

  it("start:api and start:worker run the compiled output; scripts through tsx pass the source condition", () => {
    const scripts = manifest(".").scripts as Record<string, string>;
    expect(scripts.build).toBe("tsc -b tsconfig.build.json");
    expect(scripts["start:api"]).toBe("node apps/api/dist/main.js");
    expect(scripts["start:worker"]).toBe("node apps/worker/dist/main.js");
    // Through tsx's CLI, or (npm start, whose launcher must see npm as its parent) tsx as Node's loader.
    const viaTsx = Object.entries(scripts).filter(([, s]) => /^(tsx\b|node .*--import tsx\b)/.test(s));
    expect(viaTsx.map(([name]) => name)).toEqual(expect.arrayContaining(["start", "admin", "db:migrate", "bench", "insp-sync", "docs:config"]));
    for (const [name, s] of viaTsx) expect(s, name).toMatch(/^(tsx --conditions=source |node --conditions=source --import tsx )/);
    // No TypeScript loader among what production installs.
    for (const dir of [".", ...workspaces]) expect(Object.keys(manifest(dir).dependencies ?? {}), dir).not.toContain("tsx");
  });
});

/** `node <file>` of a compiled entry point: its source exists and its project is built. */
function expectCompiledEntry(command: string[]) {
  expect(command[0]).toBe("node");
  const file = command[1]!;
  const m = /^((?:apps|packages)\/[^/]+)\/dist\/(.+)\.js$/.exec(file);
  expect(m, file).not.toBeNull();
  expect(built).toContain(m![1]);
  expect(existsSync(path.join(root, m![1]!, "src", `${m![2]}.ts`)), `${file} from ${m![1]}/src/${m![2]}.ts`).toBe(true);
}

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile").replace(/\\\n\s*/g, "");
  const lines = dockerfile.split("\n").filter((l) => l.trim() && !l.trimStart().startsWith("#"));
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it("builds in one stage and runs the build's dist/ on node:22-bookworm-slim with production dependencies only", () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^node:22-bookworm-slim AS build\n/);
    expect(stages[0]).toMatch(/^RUN npm ci\b(?!.*--omit)/m);
    expect(stages[0]).toMatch(/^RUN npm run build$/m);
    expect(runtime).toMatch(/^node:22-bookworm-slim AS runtime\n/);
    expect(runtime).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(runtime).toMatch(/^COPY patches\/ patches\/$/m);
    expect(runtime).toMatch(/^COPY drizzle\/ drizzle\/$/m);
    for (const project of built) expect(runtime, project).toContain(`COPY --from=build /app/${project}/dist ${project}/dist\n`);
    // npm ci needs every workspace's manifest, in both stages.
    for (const stage of stages) for (const w of workspaces) expect(stage, w).toContain(`COPY ${w}/package.json ${w}/\n`);
    // Sources never reach the runtime stage.
    expect(runtime).not.toMatch(/^COPY (apps|packages)\/ /m);
  });

  it("runs as the non-root node user, checks /healthz, and starts the compiled API by default", () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(lines.filter((l) => l.startsWith("USER ")).at(-1)).toBe("USER node");
    const health = lines.find((l) => l.startsWith("HEALTHCHECK "));
    expect(health).toMatch(/CMD \["node", "-e", .*\/healthz/);
    const cmd = lines.filter((l) => l.startsWith("CMD ")).at(-1)!;
    const command = JSON.parse(cmd.slice(4));
    expect(command).toEqual(["node", "apps/api/dist/main.js"]);
    expectCompiledEntry(command);
    expect(dockerfile).not.toMatch(/tsx/);
  });

  it(".dockerignore keeps local builds and dependencies out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(["**/node_modules", "**/dist", ".git"]));
  });
});

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml"), { merge: true });
  const services = compose.services as Record<string, Record<string, any>>;

  it("restarts every service and checks its health", () => {
    expect(Object.keys(services).sort()).toEqual(["api", "mailpit", "postgres", "redis", "worker"]);
    for (const [name, service] of Object.entries(services)) {
      expect(service.restart, name).toBe("unless-stopped");
      expect(service.healthcheck?.test?.[0], name).toBe("CMD");
    }
  });

  it("runs the compiled API and worker from the image, workers replicated, after Postgres and Redis are healthy", () => {
    for (const app of ["api", "worker"]) {
      const service = services[app]!;
      expect(service.build, app).toBe(".");
      expectCompiledEntry(service.command);
      expect(service.command[1]).toBe(`apps/${app}/dist/main.js`);
      expect(service.depends_on, app).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
      expect(JSON.stringify(service)).not.toMatch(/tsx|src\/main\.ts/);
    }
    expect(services.worker!.deploy.replicas).toBeGreaterThanOrEqual(2);
    // Each health check asks the port its process serves health on.
    expect(services.api!.healthcheck.test.join(" ")).toContain(`127.0.0.1:${services.api!.environment.PORT}/healthz`);
    expect(services.worker!.healthcheck.test.join(" ")).toContain(`127.0.0.1:${services.worker!.environment.HEALTH_PORT}/healthz`);
  });
});
