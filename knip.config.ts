import { existsSync, readdirSync } from "node:fs";
import type { KnipConfig } from "knip";

/**
 * Unused exports and types (npm run lint): a package's index exports what other packages, apps and
 * tests use, nothing else, and a file exports only what another file imports. @insp/client is a
 * library for integrators too (its README), so its index stays whole.
 *
 * knip resolves @insp/* through their package.json exports without the "source" condition the
 * tests and the typecheck use: once `npm run build` has written a dist/, it follows the imports
 * there and takes every source export for unused. So the check refuses to run beside a build.
 */
const holdsFiles = (dir: string) => existsSync(dir) && readdirSync(dir, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile());
const built = ["apps", "packages"].flatMap((top) => readdirSync(top).map((name) => `${top}/${name}/dist`)).filter(holdsFiles);
if (built.length) {
  console.error(`unused exports: the check reads the sources, and build output is there (${built.join(", ")}): run npm run build:clean, then npm run lint`);
  process.exit(2);
}

const config: KnipConfig = {
  include: ["exports", "types"],
  includeEntryExports: true,
  ignore: ["drizzle/**", "bench/results/**"],
  workspaces: {
    ".": {},
    "apps/*": {},
    "packages/*": {},
    "packages/client": { includeEntryExports: false },
  },
};

export default config;
