import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { freePort, parsePrometheusText, startReceiver, startStack, startWorker, until, type Receiver, type RunningProcess, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { auditTemplateBody, createTemplate } from "../fixtures/inspections.fixtures.ts";
import { lockAsWorker, lockWaiters } from "../fixtures/scim.fixtures.ts";

/**
 * Job timeouts (docs/operations.md, Job timeouts): a job that hangs fails its attempt at its kind's
 * timeout, its work is stopped, and the worker's only slot takes the next job. One worker with one
 * slot per queue, so a hung job that kept its slot would hold everything behind it.
 */

let stack: Stack;
let worker: RunningProcess;
let receiver: Receiver;
let metricsPort = 0;

beforeAll(async () => {
  metricsPort = await freePort();
  [stack, receiver] = await Promise.all([
    startStack({
      env: {
        WEBHOOK_ALLOW_PRIVATE: "true",
        // A receiver may take a minute to answer; the delivery job may not.
        WEBHOOK_TIMEOUT_SECONDS: "60",
        WEBHOOK_JOB_TIMEOUT_SECONDS: "2",
        WEBHOOK_RETRY_SCHEDULE: "0,600",
        WEBHOOK_CONCURRENCY: "1",
        SYNC_JOB_TIMEOUT_SECONDS: "3",
        WORKER_CONCURRENCY: "1",
      },
    }),
    startReceiver(),
  ]);
  worker = await startWorker({ ...stack.env, METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1" });
  await stack.settled();
});
afterAll(async () => {
  await Promise.all([worker?.stop(), stack?.stop(), receiver?.stop()]);
});

const timeouts = async (queue: string) => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return (
    parsePrometheusText(text)
      .get("insp_job_timeouts_total")
      ?.samples.find((s) => s.labels.queue === queue)?.value ?? 0
  );
};

async function endpoint(t: DemoSeed, path: string, delayMs = 0) {
  const res = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events: ["template.created"] }, { auth: { bearer: t.apiKey } });
  expect(res.status, res.text).toBe(201);
  await receiver.configure(path, { secrets: [res.body.secret], delayMs });
  return res.body.id as string;
}

describe("job timeouts", () => {
  it("a webhook receiver that never answers: the attempt fails at WEBHOOK_JOB_TIMEOUT_SECONDS, is recorded, and the slot delivers another tenant's event", async () => {
    const [a, b] = [await stack.tenant(), await stack.tenant()];
    const hung = await endpoint(a, `/hang-${a.organization.id}`, 600_000);
    await endpoint(b, `/ok-${b.organization.id}`);
    await createTemplate(stack, a, auditTemplateBody(a), false);
    // A's delivery holds the one webhook slot (its transaction waits for the receiver), then B's event comes.
    await until(
      "A's delivery in flight",
      async () =>
        (
          await stack.db.sql<
            { n: number }[]
          >`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and query like '%pg_try_advisory_xact_lock%'`
        )[0]!.n,
      (n) => n === 1,
    );
    await createTemplate(stack, b, auditTemplateBody(b), false);

    // Without the timeout B waits for A's receiver (60 s, past this wait).
    const got = await until(
      "B's delivery",
      () => receiver.received(`/ok-${b.organization.id}`),
      (rs) => rs.length === 1,
    );
    expect(got[0]!.body).toMatchObject({ type: "template.created", organizationId: b.organization.id });
    // A's attempt was stopped and recorded as failed, its next attempt scheduled.
    const deliveries = await until(
      "A's attempt recorded",
      async () => (await stack.http.get(`/api/webhooks/${hung}/deliveries`, { auth: { bearer: a.apiKey } })).body.deliveries,
      (ds: any[]) => ds[0]?.attempts?.length === 1,
    );
    expect(deliveries[0]).toMatchObject({
      status: "pending",
      attempts: [{ attempt: 1, statusCode: null, error: "no answer before the delivery job was stopped (its time limit)" }],
    });
    expect(await timeouts("webhook")).toBeGreaterThanOrEqual(1);
    expect(await receiver.received(`/hang-${a.organization.id}`)).toEqual([]);
  });

  it("a sync item waiting for a lock: each attempt fails at SYNC_JOB_TIMEOUT_SECONDS with its statement cancelled, another tenant's sync runs meanwhile, and the item is done once the lock is free", async () => {
    const [c, d] = [await stack.tenant(), await stack.tenant()];
    const [apiC, apiD] = [await syncCaller(stack, c), await syncCaller(stack, d)];
    const e = uniq("L");
    const held = await stack.db.sql.reserve();
    try {
      // The test's transaction holds the lock a worker takes for this employee.
      await held`begin`;
      await lockAsWorker(held, c.organization.id, e.id);
      const accepted = await apiC.post({ employees: [{ externalEmployeeId: e.id, email: e.email }] }, { headers: { prefer: "respond-async" } });
      expect(accepted.status).toBe(202);
      await lockWaiters(stack, 1);

      // D's synchronous sync gets the one sync slot once C's attempt has timed out (without the timeout: never, while the lock is held).
      const other = uniq("D");
      expect((await apiD.sync([{ externalEmployeeId: other.id, email: other.email }])).results).toMatchObject([{ status: "CREATED" }]);

      // Each timed-out attempt's statement was cancelled: at most the current attempt waits for the lock, never one per attempt.
      await until(
        "two timed-out attempts",
        () => timeouts("employee-sync"),
        (n) => n >= 2,
        30_000,
      );
      const [waiting] = await stack.db.sql<
        { n: number }[]
      >`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      expect(waiting!.n).toBeLessThanOrEqual(1);
    } finally {
      await held`rollback`;
      held.release();
    }
    // The lock is free: a later attempt does the work.
    const status = await until(
      "C's request done",
      async () => (await apiC.get(`/api/v1/sync/requests/${(await requestOf(c)).id}`)).body,
      (b) => b.status === "completed",
      30_000,
    );
    expect(status).toMatchObject({ status: "completed", results: [{ externalEmployeeId: e.id, status: "CREATED" }] });
  });
});

async function requestOf(t: DemoSeed): Promise<{ id: string }> {
  const [row] = await stack.db.sql<{ id: string }[]>`select id from sync_requests where organization_id = ${t.organization.id}`;
  return row!;
}
