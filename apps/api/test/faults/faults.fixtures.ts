/** Shared pieces of the fault tests (not a test file): batches, waits and the exactly-once checks. */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { DemoSeed } from "@insp/core";
import type { FaultStack, JsonResponse } from "@insp/testing";
import { completedSync, syncCaller, type SyncCaller } from "../fixtures/employee-sync.fixtures.ts";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Prints a measured recovery figure where the test report shows it. */
export function report(what: string, ms: number): void {
  console.log(`[faults] ${what}: ${(ms / 1000).toFixed(1)} s`);
}

/** `n` new employees with an account, a role and a site, unique to this call. */
export function employees(t: DemoSeed, n: number, opts: { welcome?: boolean } = {}) {
  const tag = randomBytes(3).toString("hex");
  return Array.from({ length: n }, (_, i) => ({
    externalEmployeeId: `F${tag}-${i}`,
    firstName: "Fault",
    lastName: `Tester ${i}`,
    email: `f${tag}-${i}@faults.example`,
    roles: ["inspector"],
    sites: [{ id: t.sites[0]!.id }],
    userAccount: opts.welcome ? { sendWelcomeEmail: true } : {},
  }));
}

export async function caller(stack: FaultStack, t: DemoSeed): Promise<SyncCaller> {
  return syncCaller(stack, t);
}

/** Polls until `check` is true or `timeoutMs` passes (then throws with `what`). */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(everyMs);
  }
}

/** Items of the organization's sync requests that have an outcome. */
export async function processedItems(stack: FaultStack, orgId: string): Promise<number> {
  const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from sync_request_items where organization_id = ${orgId} and status <> 'pending'`;
  return row!.n;
}

/** The final answer of a sync request: the synchronous 200, or the status URL polled until completed. */
export async function finalSyncAnswer(api: SyncCaller, res: JsonResponse, timeoutMs = 120_000): Promise<{ results: any[]; errors: any[] }> {
  expect([200, 202], res.text).toContain(res.status);
  return completedSync(api.get, res, timeoutMs);
}

/** Every employee sent is in the answer exactly once, CREATED, without errors. */
export function expectAllCreatedOnce(answer: { results: any[]; errors: any[] }, sent: { externalEmployeeId: string }[]): void {
  expect(answer.errors).toEqual([]);
  expect(answer.results.map((r) => r.externalEmployeeId)).toEqual(sent.map((e) => e.externalEmployeeId));
  expect(new Set(answer.results.map((r) => r.status))).toEqual(new Set(["CREATED"]));
}

/** In the database: one employee per external id, one user per e-mail, nothing else of the organization's. */
export async function expectNoDuplicates(stack: FaultStack, orgId: string, sent: { externalEmployeeId: string; email: string }[]): Promise<void> {
  const emps = await stack.db.sql<{ external_employee_id: string; n: number }[]>`
    select external_employee_id, count(*)::int as n from employees where organization_id = ${orgId} group by 1`;
  expect(emps.filter((r) => r.n !== 1)).toEqual([]);
  expect(emps.map((r) => r.external_employee_id).sort()).toEqual(sent.map((e) => e.externalEmployeeId).sort());
  const users = await stack.db.sql<{ email: string; n: number }[]>`
    select lower(email) as email, count(*)::int as n from users where organization_id = ${orgId} and email like '%@faults.example' group by 1`;
  expect(users.filter((r) => r.n !== 1)).toEqual([]);
  expect(users.length).toBe(sent.length);
}

/** The processes are alive and every /readyz answers 200 again; prints how long that took. */
export async function expectRecovered(stack: FaultStack, label: string): Promise<void> {
  report(`${label}: /readyz of API and workers back to 200 after`, await stack.waitReady());
  expect(stack.alive()).toBe(true);
}

/** A Postgres trigger that makes every insert into `table` take `seconds` (a slow database), so a fault lands mid-work. */
export async function slowInserts(stack: FaultStack, table: "employees" | "inspections", seconds: number): Promise<() => Promise<void>> {
  await stack.db.sql.unsafe(`
    create or replace function fault_slow() returns trigger language plpgsql as $$ begin perform pg_sleep(${seconds}); return new; end $$;
    create trigger fault_slow before insert on ${table} for each row execute function fault_slow();`);
  return async () => void (await stack.db.sql.unsafe(`drop trigger if exists fault_slow on ${table}`));
}
