import { existsSync } from "node:fs";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "@insp/testing";
import { startCliStack, type CliStack } from "./cli-harness.ts";

// The 20,000-row acceptance test with its SIGKILL is insp-sync-acceptance.faults.test.ts (npm run test:faults).
let h: CliStack;
beforeAll(async () => {
  h = await startCliStack("insp-sync-");
});
afterAll(async () => {
  await h?.stop();
});

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));

const countEmployees = async (orgId: string) =>
  (await h.stack.db.sql<{ n: number }[]>`select count(*)::int as n from employees where organization_id = ${orgId}`)[0]!.n;

describe("insp-sync, other paths", () => {
  it("SIGINT: exit 130 with the state saved; a changed input is refused unless --force", async () => {
    const tenant = await h.stack.tenant();
    const file = path.join(h.dir, "small.csv");
    const lines = ["externalEmployeeId,firstName,email"];
    for (let i = 1; i <= 3000; i++) lines.push(`S${i},Small ${i},s${i}@example.test`);
    await writeFile(file, lines.join("\n") + "\n");
    const state = `${file}.insp-sync-state.json`;
    const run = h.run([file, "--batch-size", "100", "--concurrency", "1"], tenant);
    await until(
      "500 rows acknowledged",
      async () => (existsSync(state) ? ((await readJson(state).catch(() => null))?.counts?.rows ?? 0) : 0),
      (n) => n >= 500,
      30_000,
    );
    run.child.kill("SIGINT");
    expect(await run.exited, run.stderr()).toBe(130);
    expect(run.stderr()).toMatch(/interrupted: the state is saved; run the same command again to resume/);
    const saved = await readJson(state);
    expect(saved.done).toBe(false);
    expect(saved.counts.rows).toBeLessThan(3000);

    await appendFile(file, "S3001,Late,s3001@example.test\n");
    const refused = h.run([file, "--batch-size", "100"], tenant);
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toMatch(/cannot resume: the input changed/);

    const forced = h.run([file, "--batch-size", "100", "--force"], tenant);
    expect(await forced.exited, forced.stderr()).toBe(0);
    expect(await countEmployees(tenant.organization.id)).toBe(3001);
  }, 90_000);

  it("dry run of JSON Lines: reports, writes nothing, keeps no state", async () => {
    const tenant = await h.stack.tenant();
    const file = path.join(h.dir, "dry.jsonl");
    await writeFile(
      file,
      ['{"externalEmployeeId":"D1","email":"d1@example.test","roles":["inspector"]}', '{"externalEmployeeId":"D2","status":"GONE"}', "not json"].join("\n") +
        "\n",
    );
    const run = h.run([file, "--dry-run"], tenant);
    expect(await run.exited, run.stderr()).toBe(1);
    expect(run.stderr()).toMatch(/DRY RUN/);
    expect(run.stderr()).toMatch(/dry run finished: 3 rows .* 1 created, 0 updated, 2 rows with errors/);
    expect(existsSync(`${file}.insp-sync-state.json`)).toBe(false);
    expect(await countEmployees(tenant.organization.id)).toBe(0);
    const report = parse(await readFile(`${file}.dry-run.errors.csv`, "utf8"), { columns: true }) as Record<string, string>[];
    expect(report.map((r) => [r.row, r.kind, (r.message ?? "").replace(/:.*/, "")])).toEqual([
      ["2", "error", "Invalid status 'GONE'"],
      ["3", "error", "Invalid JSON"],
    ]);
  });

  it("a JSON array without a mapping file, in async mode: exit 0; a wrong secret: exit 4", async () => {
    const tenant = await h.stack.tenant();
    const file = path.join(h.dir, "people.json");
    const employees = Array.from({ length: 30 }, (_, i) => ({
      externalEmployeeId: `J${i}`,
      firstName: "J",
      sites: [{ id: tenant.sites[0]!.id }],
      supervisor: { name: "Boss" },
    }));
    await writeFile(file, JSON.stringify({ exportedAt: "2026-03-01", employees }));
    const run = h.run([file, "--json-key", "employees", "--async", "--batch-size", "10"], tenant);
    expect(await run.exited, run.stderr()).toBe(0);
    expect(await countEmployees(tenant.organization.id)).toBe(30);

    const denied = h.run([file, "--json-key", "employees", "--restart"], tenant, "ics_wrong");
    expect(await denied.exited).toBe(4);
    expect(denied.stderr()).toMatch(/authentication failed/);
    expect(denied.stderr()).not.toContain("ics_wrong");
  });

  it("a mapping column missing from the CSV header: exit 2 before anything is sent", async () => {
    const tenant = await h.stack.tenant();
    const file = path.join(h.dir, "typo.csv");
    const map = path.join(h.dir, "typo.json");
    await writeFile(file, "emp_no,mail\nX1,x1@example.test\n");
    await writeFile(map, JSON.stringify({ columns: { externalEmployeeId: "emp_no", email: "e_mail" } }));
    const run = h.run([file, "-m", map], tenant);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(/the mapping names columns the CSV header does not have: e_mail \(header: emp_no, mail\)/);
    expect(await countEmployees(tenant.organization.id)).toBe(0);
  });
});
