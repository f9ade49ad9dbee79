import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startReceiver, startStack, until, type Receiver, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

/**
 * Shared queues serve organizations fairly (docs/operations.md, Fair queues): one organization's
 * backlog does not hold another's small request behind it. Asserted on what each organization
 * has left when the other's work is done, not on times: first in, first out would finish B's work
 * only after all of A's.
 */

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({
      workers: 1,
      env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_SECONDS: "3", WEBHOOK_RETRY_SCHEDULE: "0,60", WEBHOOK_MAX_IN_FLIGHT_PER_ORG: "2" },
    }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const pendingItems = async (orgId: string) => {
  const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from sync_request_items where organization_id = ${orgId} and status = 'pending'`;
  return row!.n;
};
/** Deliveries of an organization not attempted yet. */
const unattempted = async (orgId: string) => {
  const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where organization_id = ${orgId} and attempts = 0`;
  return row!.n;
};
const employees = (n: number) =>
  Array.from({ length: n }, () => uniq("F")).map((e) => ({ externalEmployeeId: e.id, email: e.email, firstName: "Fair", lastName: "Queue" }));

describe("fair queues across organizations", () => {
  it("a 10-employee synchronous sync answers while another organization still has thousands of employees queued", async () => {
    const [a, b] = [await stack.tenant(), await stack.tenant()];
    const [syncA, syncB] = [await syncCaller(stack, a), await syncCaller(stack, b)];
    for (let i = 0; i < 8; i++) expect((await syncA.post({ employees: employees(500) }, { headers: { prefer: "respond-async" } })).status).toBe(202);
    const queuedBefore = await pendingItems(a.organization.id);
    const res = await syncB.sync(employees(10));
    const leftOfA = await pendingItems(a.organization.id);
    console.log(`[fair] A had ${queuedBefore} employees queued; when B's 10 were done A still had ${leftOfA}`);
    expect(res.results).toHaveLength(10);
    expect(res.errors).toEqual([]);
    expect(queuedBefore).toBeGreaterThan(3_000);
    // First in, first out: none of A's 4,000 would be left.
    expect(leftOfA).toBeGreaterThan(2_000);
  }, 120_000);

  it("a receiver that hangs until its timeout, with many deliveries queued, does not hold another organization's deliveries", async () => {
    const [a, b] = [await stack.tenant(), await stack.tenant()];
    const register = async (t: DemoSeed, path: string) => {
      const res = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events: ["employee.created"] }, { auth: { bearer: t.apiKey } });
      expect(res.status, res.text).toBe(201);
      await receiver.configure(path, { secrets: [res.body.secret], ...(path.startsWith("/hang") ? { delayMs: 60_000 } : {}) });
    };
    await register(a, `/hang-${a.organization.id}`);
    await register(b, `/ok-${b.organization.id}`);
    await (await syncCaller(stack, a)).sync(employees(40));
    await until(
      "A's 40 deliveries made",
      () => unattempted(a.organization.id),
      (n) => n >= 36,
      30_000,
    );

    await (await syncCaller(stack, b)).sync(employees(5));
    const got = await until(
      "B's 5 deliveries",
      () => receiver.received(`/ok-${b.organization.id}`),
      (rs) => rs.length >= 5,
      20_000,
    );
    const leftOfA = await unattempted(a.organization.id);
    console.log(`[fair] B's 5 deliveries arrived while ${leftOfA} of A's 40 were not attempted yet`);
    expect(got.map((r) => r.body.type)).toEqual(Array(5).fill("employee.created"));
    // A's receiver takes 3 s to time out each attempt, at most 2 at once (WEBHOOK_MAX_IN_FLIGHT_PER_ORG):
    // A's 40 first attempts take about a minute; B's came in between.
    expect(leftOfA).toBeGreaterThan(20);
  }, 120_000);
});
