import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startFaultStack, startReceiver, type FaultStack, type Receiver, type ReceivedWebhook } from "@insp/testing";
import { caller, employees, expectRecovered, report, sleep, until } from "./faults.fixtures.ts";

/**
 * Webhook delivery under faults: each event ends with exactly one recorded success per endpoint,
 * and whatever reached the receiver more than once carried the same webhook-id and body.
 */

let stack: FaultStack;
let receiver: Receiver;
beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startFaultStack({ workers: 2, env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,2,2,3,3,5,5,5,5,5", OUTBOX_SWEEP_SECONDS: "2" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

async function endpoint(t: DemoSeed, path: string, answers: number[] = [], delayMs = 0) {
  const res = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events: ["employee.created"] }, { auth: { bearer: t.apiKey } });
  expect(res.status, res.text).toBe(201);
  await receiver.configure(path, { secrets: [res.body.secret], answers, delayMs });
  return res.body.id as string;
}

/** Per event of the organization: succeeded deliveries to the endpoint (0 while pending). */
async function successes(endpointId: string, orgId: string): Promise<Map<string, number>> {
  const rows = await stack.db.sql<{ id: string; n: number }[]>`
    select c.id, count(d.id) filter (where d.status = 'succeeded')::int as n
    from change_events c left join webhook_deliveries d on d.event_id = c.id and d.endpoint_id = ${endpointId}
    where c.organization_id = ${orgId} and c.resource_type = 'employee' and c.change = 'created'
    group by c.id`;
  return new Map(rows.map((r) => [r.id, r.n]));
}

async function expectEachOnce(t: DemoSeed, endpointId: string, path: string, events: number, label: string, since: number) {
  await until(
    `${label}: every event delivered`,
    async () => {
      const s = await successes(endpointId, t.organization.id);
      return s.size === events && [...s.values()].every((n) => n >= 1);
    },
    180_000,
    200,
  );
  report(`${label}: every webhook delivered`, Date.now() - since);
  await sleep(1_000);
  const s = await successes(endpointId, t.organization.id);
  expect(s.size).toBe(events);
  expect([...s.values()].every((n) => n === 1)).toBe(true);
  const got = (await receiver.received(path)).filter((r) => r.answered === 200);
  const byId = new Map<string, ReceivedWebhook[]>();
  for (const r of got) byId.set(r.webhookId!, [...(byId.get(r.webhookId!) ?? []), r]);
  // Every event reached the receiver; a repeat carries the same id and the same body, and verifies.
  expect([...byId.keys()].sort()).toEqual([...s.keys()].sort());
  for (const copies of byId.values()) {
    for (const c of copies) {
      expect(c.body).toEqual(copies[0]!.body);
      expect(c.verified).toEqual([true]);
    }
  }
  return got.length - byId.size;
}

describe("webhooks under faults", () => {
  it("a worker killed while receivers are answering: the attempts in flight are sent again with the same webhook-id", async () => {
    const t = await stack.tenant();
    const path = `/kill-${t.organization.id}`;
    const ep = await endpoint(t, path, [], 1_500);
    const api = await caller(stack, t);
    const start = Date.now();
    expect((await api.post({ employees: employees(t, 40) })).status).toBe(200);
    await until(
      "deliveries under way",
      async () => (await stack.db.sql`select 1 from webhook_deliveries where endpoint_id = ${ep} limit 1`).length > 0,
      30_000,
    );
    await sleep(700);
    await stack.killWorker(0);
    await sleep(500);
    await stack.killWorker(1);
    await Promise.all([stack.startWorker(0), stack.startWorker(1)]);
    const repeats = await expectEachOnce(t, ep, path, 40, "worker killed mid-delivery", start);
    report(`worker killed mid-delivery: events received twice (${repeats})`, 0);
    await expectRecovered(stack, "worker killed mid-delivery");
  });

  it("a receiver answering 500 for a while: retried until it answers 200, one success each", async () => {
    const t = await stack.tenant();
    const path = `/flaky-${t.organization.id}`;
    const ep = await endpoint(t, path, Array(45).fill(500));
    const api = await caller(stack, t);
    const start = Date.now();
    expect((await api.post({ employees: employees(t, 30) })).status).toBe(200);
    await expectEachOnce(t, ep, path, 30, "receiver 500 then 200", start);
    const failures = (await receiver.received(path)).filter((r) => r.answered === 500);
    expect(failures).toHaveLength(45);
    const attempts = await stack.db.sql<
      { n: number }[]
    >`select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${ep} and a.status_code = 500`;
    expect(attempts[0]!.n).toBe(45);
  });

  it("Redis restarted empty with retries pending: the deliveries come back from Postgres", async () => {
    const t = await stack.tenant();
    const path = `/redis-${t.organization.id}`;
    const ep = await endpoint(t, path, Array(40).fill(503));
    const api = await caller(stack, t);
    const start = Date.now();
    expect((await api.post({ employees: employees(t, 20) })).status).toBe(200);
    await until(
      "retries scheduled",
      async () =>
        (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${ep} and attempts > 0`)[0]!.n >= 10,
      60_000,
    );
    await stack.redis.stop();
    await sleep(2_000);
    await stack.redis.start();
    await expectEachOnce(t, ep, path, 20, "Redis restarted empty with webhook retries pending", start);
    await expectRecovered(stack, "Redis restarted empty (webhooks)");
  });
});
