import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCliStack, type CliStack } from "./cli-harness.ts";

// insp-sync --snapshot against the service's sync sessions: a full export, a second one without
// three leavers (deactivated on commit), a third without half of them (held by the deletion guard).

let h: CliStack;
beforeAll(async () => {
  h = await startCliStack("insp-sync-snap-");
});
afterAll(async () => {
  await h?.stop();
});

const ids = Array.from({ length: 60 }, (_, i) => `S${String(i).padStart(3, "0")}`);
const csv = (rows: string[]) =>
  ["externalEmployeeId,firstName,lastName,email", ...rows.map((id) => `${id},Snap,${id},${id.toLowerCase()}@example.test`)].join("\n") + "\n";

async function sync(name: string, rows: string[], extra: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const file = path.join(h.dir, `${name}.csv`);
  await writeFile(file, csv(rows));
  const run = h.run([file, "--snapshot", ...extra]);
  const code = await run.exited;
  return { code, stderr: run.stderr() };
}

const statuses = async () =>
  Object.fromEntries(
    (
      await h.stack.db.sql<
        { external_employee_id: string; status: string }[]
      >`select external_employee_id, status from employees where organization_id = ${h.tenant.organization.id}`
    ).map((r) => [r.external_employee_id, r.status]),
  );

it("a snapshot run commits its session: leavers are deactivated, a mass deactivation is held for approval (exit 3)", async () => {
  const first = await sync("full", ids);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toMatch(/opened snapshot session [0-9a-f-]{36}/);
  expect(first.stderr).toMatch(/committed: 0 employees deactivated/);
  expect(Object.values(await statuses()).filter((s) => s === "ACTIVE")).toHaveLength(60);

  // Three leavers: 3 of 60 is under the guard (more than 10 and more than 5 %).
  const preview = await sync("preview", ids.slice(3), ["--commit-dry-run"]);
  expect(preview.code, preview.stderr).toBe(0);
  expect(preview.stderr).toMatch(/3 employees would be deactivated; the session stays open/);
  expect(Object.values(await statuses()).filter((s) => s === "ACTIVE")).toHaveLength(60);
  const second = await sync("leavers", ids.slice(3));
  expect(second.code, second.stderr).toBe(0);
  expect(second.stderr).toMatch(/committed: 3 employees deactivated/);
  for (const id of ids.slice(0, 3)) expect(second.stderr).toContain(`  ${id} (`);
  const after = await statuses();
  expect(ids.slice(0, 3).map((id) => after[id])).toEqual(["INACTIVE", "INACTIVE", "INACTIVE"]);
  expect(ids.slice(3).every((id) => after[id] === "ACTIVE")).toBe(true);

  // Half of them gone at once: quarantined, nothing changes, exit 3.
  const third = await sync("half", ids.slice(3, 30));
  expect(third.code, third.stderr).toBe(3);
  expect(third.stderr).toMatch(/quarantined: the commit would deactivate 30 employees/);
  expect(Object.values(await statuses()).filter((s) => s === "ACTIVE")).toHaveLength(57);
  const [session] = await h.stack.db.sql<
    { status: string }[]
  >`select status from sync_sessions where organization_id = ${h.tenant.organization.id} order by created_at desc limit 1`;
  expect(session!.status).toBe("quarantined");
});
