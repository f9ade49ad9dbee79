import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpReceiver, startStack, until, type OtlpReceiver, type ReceivedSpan, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

// OpenTelemetry (docs/operations.md, Metrics, dashboards and tracing): one employee sync is one trace, from
// the API's HTTP span through the enqueue to the worker's processing and its transaction.

const KIND = { INTERNAL: 1, SERVER: 2, PRODUCER: 4, CONSUMER: 5 };

let receiver: OtlpReceiver;
let stack: Stack;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startStack({
    workers: 1,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "200" },
  });
  await stack.settled();
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe("tracing", () => {
  it("joins the sync request, its enqueue, the worker's job and its transaction in one trace", async () => {
    const t = await stack.tenant();
    const sync = await syncCaller(stack, t);
    const e = uniq();
    const body = await sync.sync([{ externalEmployeeId: e.id, firstName: "Grace", lastName: "Hopper", email: e.email }]);
    expect(body.results[0]).toMatchObject({ status: "CREATED" });

    const find = (spans: ReceivedSpan[], service: string, kind: number, name: string, traceId?: string) =>
      spans.find((s) => s.service === service && s.kind === kind && s.name === name && (!traceId || s.traceId === traceId));
    const show = () =>
      JSON.stringify(receiver.spans.map((s) => [s.service, s.kind, s.name, s.traceId.slice(0, 8), s.spanId.slice(0, 8), s.parentSpanId.slice(0, 8)]));
    const chain = await until(
      "the trace's four spans",
      async () => {
        const server = find(receiver.spans, "inspection-api", KIND.SERVER, "POST /api/v1/sync/employees");
        const producer = server && find(receiver.spans, "inspection-api", KIND.PRODUCER, "addBulk employee-sync", server.traceId);
        const consumer = server && find(receiver.spans, "inspection-worker", KIND.CONSUMER, "process employee-sync", server.traceId);
        const tx = server && find(receiver.spans, "inspection-worker", KIND.INTERNAL, "employee-sync item transaction", server.traceId);
        return { server, producer, consumer, tx };
      },
      (c) => !!(c.server && c.producer && c.consumer && c.tx),
      20_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\nspans: ${show()}`);
    });
    const [server, producer, consumer, tx] = [chain.server!, chain.producer!, chain.consumer!, chain.tx!];
    expect(server.parentSpanId).toBe("");
    expect(server.attributes["http.route"]).toBe("/api/v1/sync/employees");
    expect(producer.parentSpanId, show()).toBe(server.spanId);
    expect(consumer.parentSpanId, show()).toBe(producer.spanId);
    expect(tx.parentSpanId, show()).toBe(consumer.spanId);
    // No tenant data or request content in span names.
    for (const s of receiver.spans) expect(s.name).not.toContain(t.organization.id);
  });

  it("records the route pattern, never the URL sent (ids, query strings)", async () => {
    const t = await stack.tenant();
    const id = t.organization.id;
    expect((await stack.http.get(`/api/templates/${id}?secretQuery=needle-in-query`, { auth: { bearer: t.apiKey } })).status).toBe(404);
    const span = await until(
      "the detail's server span",
      async () => receiver.spans.find((s) => s.kind === KIND.SERVER && s.name === "GET /api/templates/:id"),
      (s) => !!s,
      20_000,
    );
    const attributes = JSON.stringify(span!.attributes);
    expect(attributes).toContain("/api/templates/:id");
    expect(attributes).not.toContain(id);
    expect(attributes).not.toContain("needle-in-query");
  });

  it("leaves health checks and BullMQ's polling out", async () => {
    // Workers poll and check for stalled jobs every few seconds: give their spans time to arrive.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(
      receiver.spans
        .filter((s) => /healthz|readyz|getNextJob|moveStalledJobsToWait/.test(s.name))
        .map((s) => [s.name, receiver.spans.find((p) => p.spanId === s.parentSpanId)?.name ?? s.parentSpanId]),
    ).toEqual([]);
  });
});
