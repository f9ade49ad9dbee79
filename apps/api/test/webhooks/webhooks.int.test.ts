import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { holdTransaction, otherDatabaseUrl, startReceiver, startStack, until, type Receiver, type ReceivedWebhook, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { auditTemplateBody, createTemplate, importBody, importOk } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    // Retries 1 s apart so the schedule runs out within a test; the receiver is on loopback.
    startStack({ workers: 1, env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,1", OUTBOX_SWEEP_SECONDS: "2" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const ALL = [
  "template.created",
  "template.published",
  "template.archived",
  "template.draft_created",
  "inspection.created",
  "inspection.updated",
  "inspection.completed",
  "employee.created",
  "employee.updated",
  "employee.deactivated",
  "sync.request.completed",
];

/** Registers an endpoint at the receiver's `path` and tells the receiver its secret. */
async function endpoint(t: DemoSeed, path: string, events = ALL, answers: number[] = []) {
  const res = await stack.http.post(
    "/api/webhooks",
    { url: `${receiver.baseUrl}${path}`, events, description: `test ${path}` },
    { auth: { bearer: t.apiKey } },
  );
  expect(res.status, res.text).toBe(201);
  await receiver.configure(path, { secrets: [res.body.secret], answers });
  return res.body as { id: string; secret: string; url: string; events: string[]; enabled: boolean };
}

/** The first received webhook of each type. */
const byType = (rs: ReceivedWebhook[]) => new Map([...rs].reverse().map((r) => [r.body.type as string, r]));
const deliveries = async (t: DemoSeed, id: string) => (await stack.http.get(`/api/webhooks/${id}/deliveries?limit=100`, { auth: { bearer: t.apiKey } })).body;

describe("webhooks", () => {
  it("delivers every event type to a receiver process, signed so the standardwebhooks library verifies it", async () => {
    const t = await stack.tenant();
    const path = `/all-${t.organization.id}`;
    const ep = await endpoint(t, path);
    expect(ep).toMatchObject({ enabled: true, events: ALL, url: `${receiver.baseUrl}${path}` });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    expect((await stack.http.post(`/api/templates/${tpl.id}/archive`, {}, { auth: { bearer: t.apiKey } })).status).toBe(200);
    const live = await createTemplate(stack, t, auditTemplateBody(t, { name: "Live" }));
    const inspection = await importOk(stack, t, importBody(t, live, { status: "IN_PROGRESS" }));
    const completing = await stack.http.patch(
      `/api/inspections/${inspection.id}`,
      { status: "COMPLETED" },
      { auth: { bearer: t.apiKey }, headers: { "if-match": '"r1"' } },
    );
    expect(completing.status).toBe(200);
    expect((await stack.http.post(`/api/templates/${live.id}/versions`, undefined, { auth: { bearer: t.apiKey } })).status).toBe(201);
    const api = await syncCaller(stack, t);
    const e = uniq("W");
    const created = await api.sync([{ externalEmployeeId: e.id, email: e.email }]);
    await api.sync([{ externalEmployeeId: e.id, email: e.email, jobTitle: "Lead" }]);
    await api.sync([{ externalEmployeeId: e.id, email: e.email, status: "TERMINATED" }]);

    // Every type, and the very events asserted below where a type has several (two templates, three syncs), which arrive in any order.
    const got = await until(
      "every event type",
      () => receiver.received(path),
      (rs) =>
        ALL.every((type) => rs.some((r) => r.body.type === type)) &&
        rs.some((r) => r.body.type === "template.created" && r.body.data.id === tpl.id) &&
        rs.some((r) => r.body.type === "sync.request.completed" && r.body.data.requestId === created.requestId),
    );
    for (const r of got) {
      expect(r.verified, r.body.type).toEqual([true]);
      expect(r.webhookId).toBe(r.body.id);
      expect(Object.keys(r.body).sort()).toEqual(["data", "id", "organizationId", "timestamp", "type"]);
      expect(r.body.organizationId).toBe(t.organization.id);
      expect(Math.abs(Number(r.timestamp) * 1000 - Date.now())).toBeLessThan(120_000);
    }
    const types = byType(got);
    expect(got.find((r) => r.body.type === "template.created" && r.body.data.id === tpl.id)!.body.data).toMatchObject({ id: tpl.id, title: "Plant audit" });
    expect(types.get("template.archived")!.body.data).toMatchObject({ id: tpl.id, status: "ARCHIVED" });
    expect(types.get("inspection.created")!.body.data).toMatchObject({ id: inspection.id, inspectionNumber: inspection.inspectionNumber });
    expect(types.get("inspection.completed")!.body.data).toMatchObject({ id: inspection.id, status: "COMPLETED" });
    expect(types.get("inspection.updated")!.body.data).toMatchObject({ id: inspection.id });
    expect(types.get("template.draft_created")!.body.data).toMatchObject({ id: live.id, version: 1, draftVersion: 2 });
    expect(types.get("employee.created")!.body.data).toMatchObject({ id: created.results[0].employeeId, externalEmployeeId: e.id });
    expect(types.get("employee.deactivated")!.body.data).toMatchObject({ externalEmployeeId: e.id, status: "TERMINATED" });
    const completed = got.filter((r) => r.body.type === "sync.request.completed").map((r) => r.body.data);
    expect(completed).toContainEqual(
      expect.objectContaining({ requestId: created.requestId, total: 1, created: 1, updated: 0, errors: 0, status: "completed", dryRun: false }),
    );
    // Each event once (the receiver answered 200 every time).
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(got.length);
  });

  it("retries a failing receiver with the same webhook-id and records every attempt", async () => {
    const t = await stack.tenant();
    const path = `/flaky-${t.organization.id}`;
    const ep = await endpoint(t, path, ["template.created"], [500, 503]);
    const tpl = await createTemplate(stack, t, auditTemplateBody(t), false);
    const got = await until(
      "three attempts",
      () => receiver.received(path),
      (rs) => rs.length >= 3,
    );
    expect(got.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(new Set(got.map((r) => r.webhookId)).size).toBe(1);
    expect(got.every((r) => r.body.data.id === tpl.id && r.verified[0])).toBe(true);
    const list = await until(
      "delivery succeeded",
      () => deliveries(t, ep.id),
      (b) => b.deliveries[0]?.status === "succeeded",
    );
    const [d] = list.deliveries;
    expect(d).toMatchObject({ eventId: got[0]!.webhookId, eventType: "template.created", status: "succeeded", nextAttemptAt: null });
    expect(d.attempts.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, null],
      [2, 503, null],
      [3, 200, null],
    ]);
    for (const a of d.attempts) {
      expect(Buffer.byteLength(a.response)).toBeLessThanOrEqual(1024);
      expect(a.response).toMatch(/^answered \d{3} x+$/);
      expect(a.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("gives up after the last scheduled attempt, and a 410 answer disables the endpoint", async () => {
    const t = await stack.tenant();
    const failing = await endpoint(t, `/down-${t.organization.id}`, ["template.created"], Array(10).fill(500));
    const gone = await endpoint(t, `/gone-${t.organization.id}`, ["template.created"], [410]);
    await createTemplate(stack, t, auditTemplateBody(t), false);
    const down = await until(
      "delivery failed",
      () => deliveries(t, failing.id),
      (b) => b.deliveries[0]?.status === "failed",
    );
    expect(down.deliveries[0].attempts.map((a: any) => a.statusCode)).toEqual([500, 500, 500, 500]);
    expect(down.deliveries[0]).toMatchObject({ nextAttemptAt: null, failureReason: "no success after 4 attempts" });
    const auth = { bearer: t.apiKey };
    const disabled = await until(
      "endpoint disabled",
      async () => (await stack.http.get(`/api/webhooks/${gone.id}`, { auth })).body,
      (b) => b.enabled === false,
    );
    expect(disabled.disabledReason).toMatch(/410/);
    expect((await deliveries(t, gone.id)).deliveries[0]).toMatchObject({
      status: "failed",
      failureReason: "endpoint disabled: the endpoint answered 410 Gone",
    });
    // A disabled endpoint gets nothing; enabled again, it gets what happens next.
    await createTemplate(stack, t, auditTemplateBody(t, { name: "While disabled" }), false);
    await until(
      "dispatcher past every change",
      async () =>
        (
          await stack.db
            .sql`select count(*)::int as n from change_events c, webhook_dispatch w where c.organization_id = ${t.organization.id} and (c.xid, c.seq) > (w.xid, w.seq)`
        )[0]!.n,
      (n) => n === 0,
    );
    const patched = await stack.http.request("PATCH", `/api/webhooks/${gone.id}`, { auth, body: { enabled: true } });
    expect(patched.body).toMatchObject({ enabled: true, disabledReason: null });
    await createTemplate(stack, t, auditTemplateBody(t, { name: "After enabling" }), false);
    const got = await until(
      "delivery after enabling",
      () => receiver.received(`/gone-${t.organization.id}`),
      (rs) => rs.length >= 2,
    );
    expect(got.map((r) => r.body.data.title)).toEqual(["Plant audit", "After enabling"]);
  });

  it("rotating the secret signs with both secrets for a day", async () => {
    const t = await stack.tenant();
    const path = `/rotate-${t.organization.id}`;
    const ep = await endpoint(t, path, ["template.created"]);
    const rotated = await stack.http.post(`/api/webhooks/${ep.id}/rotate-secret`, undefined, { auth: { bearer: t.apiKey } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await receiver.configure(path, { secrets: [ep.secret, rotated.body.secret, "whsec_" + Buffer.alloc(24, 1).toString("base64")] });
    await createTemplate(stack, t, auditTemplateBody(t), false);
    const [r] = await until(
      "delivery",
      () => receiver.received(path),
      (rs) => rs.length >= 1,
    );
    expect(r!.signatures).toBe(2);
    expect(r!.verified).toEqual([true, true, false]);
  });

  it("replays one event or every event since an instant, with the events' own ids", async () => {
    const t = await stack.tenant();
    const path = `/replay-${t.organization.id}`;
    const ep = await endpoint(t, path, ["template.created", "template.published"]);
    const since = new Date().toISOString();
    await createTemplate(stack, t, auditTemplateBody(t));
    const first = await until(
      "two events",
      () => receiver.received(path),
      (rs) => rs.length >= 2,
    );
    const auth = { bearer: t.apiKey };
    // The receiver counts a request before it answers, and the worker records the delivery after the
    // answer: an event whose delivery is still pending is not replayed, so wait for them to settle.
    const settled = () =>
      until(
        "no delivery pending",
        () => deliveries(t, ep.id),
        (b) => b.deliveries.length > 0 && b.deliveries.every((d: { status: string }) => d.status !== "pending"),
      );
    await settled();
    const one = await stack.http.post(`/api/webhooks/${ep.id}/replay`, { eventId: first[0]!.webhookId }, { auth });
    expect(one).toMatchObject({ status: 202, body: { replayed: 1, hasMore: false } });
    await until(
      "the replayed event",
      () => receiver.received(path),
      (rs) => rs.length >= 3,
    );
    await settled();
    const all = await stack.http.post(`/api/webhooks/${ep.id}/replay`, { since }, { auth });
    expect(all).toMatchObject({ status: 202, body: { replayed: 2, hasMore: false } });
    const got = await until(
      "replays",
      () => receiver.received(path),
      (rs) => rs.length >= 5,
    );
    // Deliveries run in parallel: compare as sets. The original event twice more, the other once more.
    const [e0, e1] = [first[0]!.webhookId, first[1]!.webhookId];
    expect(got.map((r) => r.webhookId).sort()).toEqual([e0, e0, e0, e1, e1].sort());
    // The same bytes as the first time.
    for (const r of got) expect(r.body).toEqual(first.find((f) => f.webhookId === r.webhookId)!.body);
    expect((await stack.http.post(`/api/webhooks/${ep.id}/replay`, { eventId: "00000000-0000-4000-8000-000000000000" }, { auth })).status).toBe(404);
    expect((await stack.http.post(`/api/webhooks/${ep.id}/replay`, {}, { auth })).status).toBe(400);
  });

  it("does not queue again an event still waiting to be delivered, nor replay a type the endpoint does not receive", async () => {
    const t = await stack.tenant();
    const path = `/replay-pending-${t.organization.id}`;
    const ep = await endpoint(
      t,
      path,
      ["template.created"],
      Array.from({ length: 20 }, () => 500),
    ); // every attempt refused: retries stay pending
    const since = new Date().toISOString();
    await createTemplate(stack, t, auditTemplateBody(t));
    await until(
      "the first attempt, refused",
      () => receiver.received(path),
      (rs) => rs.length >= 1,
    );
    const auth = { bearer: t.apiKey };
    for (let i = 0; i < 3; i++)
      expect(await stack.http.post(`/api/webhooks/${ep.id}/replay`, { since }, { auth })).toMatchObject({ status: 202, body: { replayed: 0 } });
    const [queued] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${ep.id}`;
    expect(queued!.n).toBe(1);
    // The template's other event (published) is not a type this endpoint receives.
    const [other] = await stack.db.sql<{ id: string }[]>`
      select c.id from change_events c where c.organization_id = ${t.organization.id} and c.resource_type = 'template'
        and not exists (select 1 from webhook_deliveries d where d.event_id = c.id)`;
    const refused = await stack.http.post(`/api/webhooks/${ep.id}/replay`, { eventId: other!.id }, { auth });
    expect(refused).toMatchObject({ status: 400, body: { error: "The event's type is not one the endpoint receives" } });
  });

  it("manages endpoints: list, read, change and delete; the secret is shown once and stored encrypted", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const ep = await endpoint(t, `/crud-${t.organization.id}`, ["employee.created"]);
    const list = await stack.http.get("/api/webhooks", { auth });
    expect(list.body).toEqual([
      expect.objectContaining({ id: ep.id, events: ["employee.created"], description: `test /crud-${t.organization.id}`, enabled: true, disabledReason: null }),
    ]);
    expect(list.text).not.toContain(ep.secret);
    expect((await stack.http.get(`/api/webhooks/${ep.id}`, { auth })).text).not.toContain(ep.secret);
    const [row] = await stack.db.sql`select secret_enc from webhook_endpoints where id = ${ep.id}`;
    expect(row!.secret_enc).not.toContain(ep.secret.slice(6));
    const changed = await stack.http.request("PATCH", `/api/webhooks/${ep.id}`, {
      auth,
      body: { events: ["employee.updated", "employee.updated"], description: null, enabled: false },
    });
    expect(changed.body).toMatchObject({ events: ["employee.updated"], description: null, enabled: false, disabledReason: null });
    expect((await stack.http.request("DELETE", `/api/webhooks/${ep.id}`, { auth })).status).toBe(204);
    expect((await stack.http.get(`/api/webhooks/${ep.id}`, { auth })).status).toBe(404);
    expect((await stack.http.request("DELETE", `/api/webhooks/${ep.id}`, { auth })).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field, and is sealed per organization and role", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const auth = { bearer: t.apiKey };
    for (const [body, field] of [
      [{ url: "ftp://example.com/x", events: ["template.created"] }, "url"],
      [{ url: "not a url", events: ["template.created"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["template.created"] }, "url"],
      [{ url: "https://example.com/x", events: [] }, "events"],
      [{ url: "https://example.com/x", events: ["template.deleted"] }, "events.0"],
      [{ url: "https://example.com/x", events: ["template.created"], secret: "mine" }, ""],
      [{ events: ["template.created"] }, "url"],
    ] as const) {
      const res = await stack.http.post("/api/webhooks", body, { auth });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("Invalid request body");
      expect(res.body.details.join(" "), JSON.stringify(body)).toContain(field);
    }
    expect((await stack.http.request("PATCH", "/api/webhooks/00000000-0000-4000-8000-000000000000", { auth, body: {} })).status).toBe(400);
    const ep = await endpoint(t, `/sealed-${t.organization.id}`, ["template.created"]);
    const theirs = { bearer: other.apiKey };
    expect((await stack.http.get(`/api/webhooks/${ep.id}`, { auth: theirs })).status).toBe(404);
    expect((await stack.http.get(`/api/webhooks/${ep.id}/deliveries`, { auth: theirs })).status).toBe(404);
    expect((await stack.http.request("PATCH", `/api/webhooks/${ep.id}`, { auth: theirs, body: { enabled: false } })).status).toBe(404);
    expect((await stack.http.request("DELETE", `/api/webhooks/${ep.id}`, { auth: theirs })).status).toBe(404);
    expect((await stack.http.post(`/api/webhooks/${ep.id}/rotate-secret`, undefined, { auth: theirs })).status).toBe(404);
    expect((await stack.http.get("/api/webhooks", { auth: theirs })).body).toEqual([]);
    expect((await stack.http.get("/api/webhooks", { auth: null })).status).toBe(401);
    const inspector = { bearer: await userToken(stack, t.users.inspector) };
    expect(await stack.http.get("/api/webhooks", { auth: inspector })).toMatchObject({ status: 403, body: { error: "Only admin users can manage webhooks" } });
    const admin = { bearer: await userToken(stack, t.users.admin) };
    expect((await stack.http.get("/api/webhooks", { auth: admin })).body.map((x: any) => x.id)).toEqual([ep.id]);
    const client = await syncCaller(stack, t);
    expect((await stack.http.get("/api/webhooks", { auth: { bearer: client.token } })).status).toBe(401);
    // Another organization's events never reach this endpoint.
    await createTemplate(stack, other, auditTemplateBody(other), false);
    await createTemplate(stack, t, auditTemplateBody(t, { name: "Ours" }), false);
    const got = await until(
      "our event",
      () => receiver.received(`/sealed-${t.organization.id}`),
      (rs) => rs.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await receiver.received(`/sealed-${t.organization.id}`)).map((r) => r.body.data.title)).toEqual(["Ours"]);
    expect(got[0]!.body.organizationId).toBe(t.organization.id);
  });

  it("delivers while a long transaction runs in another database of the same Postgres server", async () => {
    const t = await stack.tenant();
    const path = `/elsewhere-${t.organization.id}`;
    await endpoint(t, path, ["template.created"]);
    const elsewhere = await holdTransaction(otherDatabaseUrl());
    try {
      const tpl = await createTemplate(stack, t, auditTemplateBody(t, { name: "Not held back" }), false);
      const [r] = await until(
        "the delivery",
        () => receiver.received(path),
        (rs) => rs.length >= 1,
      );
      expect(r!.body).toMatchObject({ type: "template.created", data: { id: tpl.id } });
    } finally {
      await elsewhere.end();
    }
  });
});

describe("an endpoint failing for longer than WEBHOOK_DISABLE_AFTER_SECONDS", () => {
  let short: Stack;
  beforeAll(async () => {
    // 5 days in production; 2 s here, with retries 1 s apart.
    short = await startStack({
      workers: 1,
      env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1", WEBHOOK_DISABLE_AFTER_SECONDS: "2" },
    });
  });
  afterAll(() => short?.stop());

  it("is disabled, and its deliveries say why", async () => {
    const t = await short.tenant();
    const auth = { bearer: t.apiKey };
    const path = `/failing-${t.organization.id}`;
    const ep = (await short.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events: ["template.created"] }, { auth })).body;
    await receiver.configure(path, { secrets: [ep.secret], answers: Array(20).fill(500) });
    await createTemplate(short, t, auditTemplateBody(t), false);
    const disabled = await until(
      "disabled",
      async () => (await short.http.get(`/api/webhooks/${ep.id}`, { auth })).body,
      (b) => b.enabled === false,
    );
    expect(disabled.disabledReason).toBe("every delivery failed for 2 seconds");
    const list = (await short.http.get(`/api/webhooks/${ep.id}/deliveries`, { auth })).body;
    expect(list.deliveries[0]).toMatchObject({
      status: "failed",
      failureReason: "endpoint disabled: every delivery failed for 2 seconds",
      nextAttemptAt: null,
    });
    expect(list.deliveries[0].attempts.length).toBeGreaterThanOrEqual(3);
    expect(list.deliveries[0].attempts.every((a: { statusCode: number }) => a.statusCode === 500)).toBe(true);
  });
});
