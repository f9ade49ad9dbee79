import { defineConfig } from "vitest/config";

// Tests run the TypeScript sources of @insp/* packages (the "source" export condition), never
// a dist/ that `npm run build` may have left behind: vitest's default conditions for Node (vite's
// without "module", whose bundler-only builds Node cannot load), plus "source". Every project
// below extends this root config to get them; vitest also passes them to its worker processes.
const conditions = ["source", "node", "development|production"];

// Three tiers (docs/testing.md): unit tests are pure and fast; integration and process
// tests talk to real Postgres and Redis (DATABASE_URL / REDIS_URL, else testcontainers).
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  // The environment vitest loads globalSetup files in: without this, a clean clone (no dist/
  // yet) cannot resolve @insp/* there.
  environments: { __vitest__: { resolve: { conditions } } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          // A limit for hangs, not a timing: the exhaustive property tests take 1-2 s alone and
          // 7 s beside an install and a suite on 2 cores (vitest's default of 5 s failed them).
          testTimeout: 30_000,
          include: ["packages/*/test/**/*.unit.test.ts", "apps/*/test/**/*.unit.test.ts", "deploy/test/**/*.unit.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // Runs after the unit tests; each file starts its own processes.
          sequence: { groupOrder: 1 },
          include: ["packages/*/test/**/*.int.test.ts", "apps/*/test/**/*.int.test.ts"],
          globalSetup: ["packages/testing/src/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores, three files at a time: most of a file's time is spent waiting on the API and
          // worker processes it started, Postgres and Redis (711 s with two at a time).
          maxWorkers: 3,
          fileParallelism: true,
          // A worker keeps the modules it has loaded from one file to the next instead of importing
          // @insp/testing, core, db, ... again for each of the ~70 files (about 240 s of imports
          // in all before). The files keep no state in shared modules: each makes its own
          // database, queue prefix, processes and tenants, and nothing is mocked.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:faults`: kills processes and stops servers of its own (docs/failure-behaviour.md).
          name: "faults",
          include: ["apps/*/test/**/*.faults.test.ts", "packages/*/test/**/*.faults.test.ts"],
          // For the files that use the shared servers (startStack): the others start their own.
          globalSetup: ["packages/testing/src/global-setup.ts"],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          // One file at a time: each starts a Postgres, a Redis, an API and workers of its own.
          fileParallelism: false,
        },
      },
    ],
  },
});
