import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherSuite, type Demo } from "./launcher.fixtures.ts";

/**
 * `npm start` as root from a project in a folder other users cannot enter (a root user's clone in
 * /root, 0700; a `mktemp -d` folder), where the embedded Postgres, which runs as the user
 * postgres, can reach neither its binaries under node_modules nor the data folder
 * (docs/local-development.md, As root): the launcher places both outside the project, says where
 * in its summary line, comes up, syncs, stops, starts again on the same data, and reset-local
 * wipes the cluster placed outside. Runs as root only (CI, this machine); skipped elsewhere.
 */
const asRoot = process.getuid?.() === 0;
const suite = launcherSuite({ closed: asRoot });

describe.runIf(asRoot)("npm start as root in a folder closed to other users", () => {
  let demo: Demo;
  let cluster = "";
  let binaries = "";
  afterAll(() => {
    // The binaries' copy is kept for the next start of the same project; this one's project is gone.
    if (binaries) rmSync(binaries, { recursive: true, force: true });
  });
  const token = () => suite.token(demo);

  it("places Postgres's files outside the project, says where, comes up with the demo, syncs and stops", async () => {
    const l = suite.launch();
    demo = await suite.firstStart(l);
    const summary =
      l
        .output()
        .split("\n")
        .find((line) => line.startsWith("Embedded PostgreSQL")) ?? "";
    const placed = /\(Postgres runs as user postgres from outside the project, which it cannot reach: its cluster in (\S+), its binaries in (\S+)\)/.exec(
      summary,
    );
    expect(placed, l.output()).not.toBeNull();
    [cluster, binaries] = [placed![1]!, placed![2]!];
    expect(summary).toContain(`data in ${suite.dataDir()} (`);
    expect(cluster.startsWith(suite.project())).toBe(false);
    expect(existsSync(path.join(cluster, "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(binaries, "bin", "postgres"))).toBe(true);

    const employees = Array.from({ length: 5 }, (_, i) => ({
      externalEmployeeId: `R${i}`,
      firstName: "Root",
      lastName: `Person ${i}`,
      email: `r${i}@launcher.example`,
      roles: ["inspector"],
    }));
    const res = await fetch(`${suite.base()}/api/v1/sync/employees`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
      body: JSON.stringify({ employees }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(Array(5).fill("CREATED"));

    await suite.stopped(l);
    expect(existsSync(path.join(cluster, "postmaster.pid"))).toBe(false);
  }, 300_000);

  it("starts again on the same data, and reset-local wipes the cluster placed outside with the data folder", async () => {
    const l = suite.launch();
    await suite.ready(l);
    expect(l.output()).not.toContain("Empty database");
    expect(l.output()).toContain(`its cluster in ${cluster}`);
    const page = await suite.get("/api/v1/employees?limit=100", await token());
    expect(page.employees.map((e: { externalEmployeeId: string }) => e.externalEmployeeId).sort()).toEqual(["R0", "R1", "R2", "R3", "R4"]);
    await suite.stopped(l);

    const wiped = suite.admin(["reset-local", "--yes"]);
    expect(wiped.status, wiped.stderr).toBe(0);
    expect(wiped.stdout).toContain(`Wiped ${suite.dataDir()} and ${cluster};`);
    expect(existsSync(cluster)).toBe(false);
    expect(existsSync(suite.dataDir())).toBe(false);
  }, 240_000);
});
