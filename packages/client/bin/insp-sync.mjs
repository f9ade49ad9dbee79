#!/usr/bin/env node
// The package's command. It runs the compiled dist/ (npm run build) with plain Node. It runs the
// TypeScript sources through tsx instead when Node was started with the "source" export condition
// (`node --conditions=source .../insp-sync.mjs`, as the tests do, so they never run a stale build),
// or when there is no build yet (a fresh checkout: `npx insp-sync` still works).
import { existsSync } from "node:fs";
import { register } from "node:module";

const dist = new URL("../dist/cli/main.js", import.meta.url);
// Node's own flags, given on its command line or in NODE_OPTIONS (not configuration of ours).
// eslint-disable-next-line no-restricted-properties
const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const sourceCondition = nodeFlags.some((f, i) => /^(--conditions|-C)=source$/.test(f) || (/^(--conditions|-C)$/.test(f) && nodeFlags[i + 1] === "source"));

if (sourceCondition || !existsSync(dist)) {
  if (!sourceCondition) {
    // Without the flag, @insp/* imports would resolve to dist/ that does not exist: add the
    // condition to every resolution of this process.
    register("data:text/javascript,export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, 'source'] });");
  }
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  await import("../src/cli/main.ts");
} else {
  await import(dist.href);
}
