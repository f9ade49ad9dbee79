import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ServerSetupError } from "../src/errors.ts";
import { placeForPostgresUser, postgresUser, reaches } from "../src/placement.ts";

// As root, the embedded Postgres runs as the user `postgres`: what that user cannot reach in the
// project (a clone under /root, a `mktemp -d` folder) is placed in a folder outside it.
// Real folders and the real `postgres` user of this machine (CI runs as root, with Postgres
// installed); skipped elsewhere. The launcher doing so end to end: launcher-root.faults.test.ts.

const root = mkdtempSync(path.join(os.tmpdir(), "insp-root-access-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project folder `name` under the test's folder with fake initdb, pg_ctl and postgres in native/bin/. */
function layout(name: string, mode: number) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "native", "bin"), { recursive: true });
  mkdirSync(path.join(dir, "native", "lib"), { recursive: true });
  writeFileSync(path.join(dir, "native", "lib", "libpq.so"), "");
  const bin = (b: string) => path.join(dir, "native", "bin", b);
  const bins = { initdb: bin("initdb"), pg_ctl: bin("pg_ctl"), postgres: bin("postgres") };
  for (const b of Object.values(bins)) writeFileSync(b, "#!/bin/sh\n", { mode: 0o755 });
  mkdirSync(path.join(dir, ".data"), { mode: 0o755 });
  chmodSync(dir, mode);
  return { dir, bins, cluster: path.join(dir, ".data", "postgres") };
}

const user = process.getuid?.() === 0 ? postgresUser() : null;

describe.runIf(user)("the embedded Postgres as root", () => {
  const base = path.join(root, "outside");

  it("copies the binaries and places the cluster outside a project the user postgres cannot enter, where it can", () => {
    const closed = layout("closed", 0o700);
    expect(reaches(user!, closed.bins.initdb)).toBe(false);
    const placed = placeForPostgresUser(closed.bins, closed.cluster, user!, [base]);
    expect(path.dirname(placed.dataDir)).toBe(base);
    expect(placed.bins.initdb.startsWith(base + path.sep)).toBe(true);
    for (const b of Object.values(placed.bins)) expect(reaches(user!, b)).toBe(true);
    // The libraries beside them are readable by it too.
    expect(spawnSync("test", ["-r", path.join(path.dirname(path.dirname(placed.bins.initdb)), "lib", "libpq.so")], user!).status).toBe(0);
    expect(statSync(placed.dataDir).uid).toBe(user!.uid);
    expect(placed.note).toBe(
      `Postgres runs as user postgres from outside the project, which it cannot reach: its cluster in ${placed.dataDir}, its binaries in ${path.dirname(path.dirname(placed.bins.initdb))}`,
    );
    // The next start finds the same places.
    expect(placeForPostgresUser(closed.bins, closed.cluster, user!, [base])).toEqual(placed);
  });

  it("keeps everything in place where the user postgres can reach it, and moves only what it cannot", () => {
    const open = layout("open", 0o755);
    expect(placeForPostgresUser(open.bins, open.cluster, user!, [base])).toEqual({ bins: open.bins, dataDir: open.cluster, note: null });
    const closedData = layout("closed-data", 0o755);
    chmodSync(path.dirname(closedData.cluster), 0o700);
    const placed = placeForPostgresUser(closedData.bins, closedData.cluster, user!, [base]);
    expect(placed.bins).toEqual(closedData.bins);
    expect(path.dirname(placed.dataDir)).toBe(base);
  });

  it("keeps using a cluster placed outside once the project opens up, so its data is not left behind", () => {
    const closed = layout("reopened", 0o700);
    const first = placeForPostgresUser(closed.bins, closed.cluster, user!, [base]);
    writeFileSync(path.join(first.dataDir, "PG_VERSION"), "17\n");
    chmodSync(closed.dir, 0o755);
    const again = placeForPostgresUser(closed.bins, closed.cluster, user!, [base]);
    expect(again.dataDir).toBe(first.dataDir);
    expect(again.bins).toEqual(closed.bins);
  });

  it("removes copies of binaries whose project is gone when it makes another, never a cluster", () => {
    const gone = layout("gone", 0o700);
    const first = placeForPostgresUser(gone.bins, gone.cluster, user!, [base]);
    const copy = path.dirname(path.dirname(first.bins.initdb));
    rmSync(gone.dir, { recursive: true, force: true });
    const other = layout("other", 0o700);
    placeForPostgresUser(other.bins, other.cluster, user!, [base]);
    expect(existsSync(copy)).toBe(false);
    expect(existsSync(first.dataDir)).toBe(true);
  });

  it("is one line when no folder outside the project can be made", () => {
    const closed = layout("nowhere", 0o700);
    const file = path.join(root, "a-file");
    writeFileSync(file, "");
    const where = path.join(file, "inspection-service");
    expect(() => placeForPostgresUser(closed.bins, closed.cluster, user!, [where])).toThrow(ServerSetupError);
    expect(() => placeForPostgresUser(closed.bins, closed.cluster, user!, [where])).toThrow(
      `embedded Postgres runs as user postgres (Postgres refuses root), which cannot reach the project, and none of ${where} could be made for it; run as a user other than root`,
    );
  });
});
