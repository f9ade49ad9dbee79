import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startReceiver, startStack, until, type Receiver, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { auditTemplateBody, createTemplate, importBody, importOk, noisyPng, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { dailySchedule } from "../fixtures/schedules.fixtures.ts";
import { ERROR, GROUP, scimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * The per-organization quotas (docs/operations.md, Quotas per organization), each set small so a
 * test reaches it: every refusal names its setting, leaves nothing behind, and touches no other
 * organization.
 */

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({
      workers: 1,
      env: {
        SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG: "5",
        WEBHOOK_MAX_ENDPOINTS_PER_ORG: "2",
        CREDENTIALS_MAX_ACTIVE_PER_ORG: "3",
        WEBHOOK_REPLAY_MAX_DELIVERIES: "3",
        MEDIA_MAX_STORED_MB_PER_ORG: "1",
        REPORTS_MAX_RENDERING_PER_ORG: "2",
        DIRECTORY_MAX_PER_ORG: "10",
        SCHEDULES_MAX_PER_ORG: "2",
        TEMPLATE_VERSIONS_MAX_PER_ORG: "12",
        WEBHOOK_ALLOW_PRIVATE: "true",
      },
    }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const auth = (t: DemoSeed) => ({ auth: { bearer: t.apiKey } });
const count = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n;

/** `n` employees queued for sync as far as the quota can tell: a processing request whose items are pending (no job: nothing runs them). */
async function queued(t: DemoSeed, n: number): Promise<string> {
  const [req] = await stack.db.sql`insert into sync_requests (organization_id, total) values (${t.organization.id}, ${n}) returning id`;
  await stack.db.sql`
    insert into sync_request_items (organization_id, request_id, idx, external_employee_id, status)
    select ${t.organization.id}, ${req!.id}, i, 'queued-' || i, 'pending' from generate_series(0, ${n - 1}) i`;
  return req!.id as string;
}

describe("quotas per organization", () => {
  it("SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG: a sync or session batch that would pass it is refused whole (429, Retry-After) and recorded nowhere", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const held = await queued(t, 4);
    const requests = () => count(stack.db.sql`select count(*)::int as n from sync_requests where organization_id = ${t.organization.id}`);
    const employees = [uniq("Q"), uniq("Q")].map((e) => ({ externalEmployeeId: e.id, email: e.email }));

    const refused = await api.post({ employees }, { headers: { "idempotency-key": "quota-1", prefer: "respond-async" } });
    expect(refused).toMatchObject({
      status: 429,
      body: {
        error:
          "This organization has 4 employees queued for sync; these 2 would pass its limit of 5 (SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG). Nothing was recorded: send the request again once some have been processed",
      },
    });
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(await requests()).toBe(1);

    // A session's batch is a sync request too: refused the same way, and the session records no batch.
    const session = await stack.http.post("/api/v1/sync/sessions", {}, { auth: { bearer: api.token } });
    expect(session.status).toBe(201);
    expect((await api.post({ employees }, { query: `sessionId=${session.body.sessionId}` })).status).toBe(429);
    expect((await stack.http.get(`/api/v1/sync/sessions/${session.body.sessionId}`, { auth: { bearer: api.token } })).body).toMatchObject({ batches: 0 });

    // Up to the limit it is taken, and another organization is not affected by this one's queue.
    expect((await api.sync(employees.slice(0, 1))).results).toHaveLength(1);
    const other = await stack.tenant();
    expect(
      (await (await syncCaller(stack, other)).sync([uniq("O"), uniq("O")].map((e) => ({ externalEmployeeId: e.id, email: e.email })))).results,
    ).toHaveLength(2);

    // Once the queued items are done there is room again, and the refused Idempotency-Key was never used.
    await stack.db.sql`update sync_request_items set status = 'done' where request_id = ${held}`;
    const retried = await api.post({ employees }, { headers: { "idempotency-key": "quota-1" } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.results).toHaveLength(2);
  });

  it("WEBHOOK_MAX_ENDPOINTS_PER_ORG: one endpoint more answers 409 until one is deleted", async () => {
    const t = await stack.tenant();
    const register = (n: number) =>
      stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}/limit-${t.organization.id}-${n}`, events: ["template.created"] }, auth(t));
    const [a, b] = [await register(1), await register(2)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await register(3)).toMatchObject({
      status: 409,
      body: {
        error:
          "This organization already has 2 webhook endpoints (at most 2: WEBHOOK_MAX_ENDPOINTS_PER_ORG); delete one it no longer needs first (DELETE /api/webhooks/{id})",
      },
    });
    expect(await count(stack.db.sql`select count(*)::int as n from webhook_endpoints where organization_id = ${t.organization.id}`)).toBe(2);
    expect(
      (await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}/limit-other`, events: ["template.created"] }, auth(await stack.tenant()))).status,
    ).toBe(201);
    expect((await stack.http.request("DELETE", `/api/webhooks/${a.body.id}`, auth(t))).status).toBe(204);
    expect((await register(4)).status).toBe(201);
  });

  it("WEBHOOK_REPLAY_MAX_DELIVERIES: a replay that would create more answers 422 with an until that fits, and creates none", async () => {
    const t = await stack.tenant();
    const since = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < 4; i++) await createTemplate(stack, t, auditTemplateBody(t, { name: `Replay ${i}` }), false);
    // Registered after the events: the dispatcher sends it none of them, only replays do.
    const ep = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}/replay-limit-${t.organization.id}`, events: ["template.created"] }, auth(t));
    expect(ep.status).toBe(201);
    const deliveries = () => count(stack.db.sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${ep.body.id}`);
    const events = await stack.db.sql<{ ms: number }[]>`
      select (extract(epoch from created_at) * 1000)::float8 as ms from change_events where organization_id = ${t.organization.id} and resource_type = 'template' and change = 'created' order by created_at, seq`;
    expect(events).toHaveLength(4);

    const refused = await stack.http.post(`/api/webhooks/${ep.body.id}/replay`, { since }, auth(t));
    const at = refused.body.until as string;
    expect(refused).toMatchObject({
      status: 422,
      body: {
        error: `This replay would create more than 3 deliveries (WEBHOOK_REPLAY_MAX_DELIVERIES) and created none; replay a shorter window: until ${at} first, then since ${at}`,
        limit: 3,
      },
    });
    // The fourth event's time (to the millisecond): the first three are before it.
    expect(Date.parse(at)).toBeGreaterThan(events[2]!.ms);
    expect(Date.parse(at)).toBeLessThanOrEqual(events[3]!.ms);
    expect(await deliveries()).toBe(0);

    // The window it names fits; the rest follows from there.
    expect(await stack.http.post(`/api/webhooks/${ep.body.id}/replay`, { since, until: refused.body.until }, auth(t))).toMatchObject({
      status: 202,
      body: { replayed: 3, hasMore: false },
    });
    expect(await stack.http.post(`/api/webhooks/${ep.body.id}/replay`, { since: refused.body.until }, auth(t))).toMatchObject({
      status: 202,
      body: { replayed: 1, hasMore: false },
    });
    expect(await deliveries()).toBe(4);
    expect(await stack.http.post(`/api/webhooks/${ep.body.id}/replay`, { since, until: since }, auth(t))).toMatchObject({
      status: 400,
      body: { details: ["until: until must be later than since"] },
    });
  });

  it("MEDIA_MAX_STORED_MB_PER_ORG: an upload, import or PATCH whose new images would pass it answers 413 and stores nothing", async () => {
    const t = await stack.tenant();
    const upload = (bytes: Buffer) =>
      fetch(`${stack.http.baseUrl}/api/media`, { method: "POST", headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" }, body: bytes });
    const stored = () => count(stack.db.sql`select count(*)::int as n from media where organization_id = ${t.organization.id}`);
    // Two images of about 400 KB each fit in 1 MB; a third does not, but the same bytes again add nothing.
    const [first, second, third] = [noisyPng(370, 370), noisyPng(370, 370), noisyPng(370, 370)];
    expect((await upload(first)).status).toBe(201);
    expect((await upload(second)).status).toBe(201);
    const refused = await upload(third);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^Storing these images would take this organization's media to 1\.\d MB, over its limit of 1 MB \(MEDIA_MAX_STORED_MB_PER_ORG\); nothing was stored$/,
    );
    expect((await upload(first)).status).toBe(201);
    expect(await stored()).toBe(2);

    const tpl: Tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const photo = (png: Buffer) => [
      { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
      { questionId: tpl.q.remarks!.id, answerText: "photo", media: [png.toString("base64")] },
    ];
    const imported = await stack.http.post("/api/inspections", importBody(t, tpl, { answers: photo(third) }), auth(t));
    expect(imported).toMatchObject({ status: 413, body: { error: expect.stringContaining("(MEDIA_MAX_STORED_MB_PER_ORG); nothing was stored") } });
    const inspection = await importOk(stack, t, importBody(t, tpl, { status: "IN_PROGRESS" }));
    const patched = await stack.http.patch(
      `/api/inspections/${inspection.id}`,
      { answers: photo(third).slice(1) },
      { ...auth(t), headers: { "if-match": '"r1"' } },
    );
    expect(patched).toMatchObject({ status: 413, body: { error: expect.stringContaining("(MEDIA_MAX_STORED_MB_PER_ORG)") } });
    expect(await stored()).toBe(2);

    // Another organization stores its own.
    const other = await stack.tenant();
    expect(
      (
        await fetch(`${stack.http.baseUrl}/api/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${other.apiKey}`, "content-type": "image/png" },
          body: third,
        })
      ).status,
    ).toBe(201);
  });

  it("REPORTS_MAX_RENDERING_PER_ORG: a report that would be one more in flight answers 429 with Retry-After", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const { id } = await importOk(stack, t, importBody(t, tpl));
    // Two reports rendering as far as the limit can tell (no job: a worker would finish them).
    await stack.db.sql`
      insert into inspection_reports (organization_id, inspection_id, cache_key, status)
      select ${t.organization.id}, ${id}, k, s from unnest(array['held-1', 'held-2'], array['QUEUED', 'RUNNING']) as x(k, s)`;
    const refused = await stack.http.get(`/api/inspections/${id}/report.pdf`, auth(t));
    expect(refused).toMatchObject({
      status: 429,
      body: { error: "This organization already has 2 reports being rendered (at most 2: REPORTS_MAX_RENDERING_PER_ORG); ask again in a few seconds" },
    });
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await count(stack.db.sql`select count(*)::int as n from inspection_reports where organization_id = ${t.organization.id}`)).toBe(2);

    const other = await stack.tenant();
    const theirs = await importOk(stack, other, importBody(other, await createTemplate(stack, other, auditTemplateBody(other))));
    expect([200, 202]).toContain((await stack.http.get(`/api/inspections/${theirs.id}/report.pdf`, auth(other))).status);
    // One finished: room for this one.
    await stack.db.sql`update inspection_reports set status = 'FAILED' where organization_id = ${t.organization.id} and cache_key = 'held-1'`;
    expect([200, 202]).toContain((await stack.http.get(`/api/inspections/${id}/report.pdf`, auth(t))).status);
    await until(
      "the report rendered",
      async () => (await stack.http.get(`/api/inspections/${id}/report.pdf`, auth(t))).status,
      (s) => s === 200,
    );
  });
});

describe("credentials", () => {
  it("CREDENTIALS_MAX_ACTIVE_PER_ORG: one active API key or OAuth client more answers 409 until one is revoked or has expired", async () => {
    const t = await stack.tenant();
    // The demo key is the first of three.
    const keys = [];
    for (const name of ["second", "third"]) keys.push((await stack.http.post("/api/api-keys", { name, scopes: ["media:read"] }, auth(t))).body);
    const refused = await stack.http.post("/api/api-keys", { name: "fourth", scopes: ["media:read"] }, auth(t));
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error:
          "This organization already has 3 active API keys (at most 3: CREDENTIALS_MAX_ACTIVE_PER_ORG); revoke one it no longer needs first (POST /api/api-keys/{id}/revoke)",
      },
    });
    await stack.http.post(`/api/api-keys/${keys[0].id}/revoke`, undefined, auth(t));
    expect((await stack.http.post("/api/api-keys", { name: "fourth", scopes: ["media:read"] }, auth(t))).status).toBe(201);
    await stack.db.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${keys[1].id}`;
    expect((await stack.http.post("/api/api-keys", { name: "fifth", scopes: ["media:read"] }, auth(t))).status).toBe(201);
    expect((await stack.http.post("/api/api-keys", { name: "sixth", scopes: ["media:read"] }, auth(t))).status).toBe(409);

    for (const name of ["c2", "c3"]) expect((await stack.http.post("/api/oauth-clients", { name, scopes: ["employees:sync"] }, auth(t))).status).toBe(201);
    const clients = await stack.http.post("/api/oauth-clients", { name: "c4", scopes: ["employees:sync"] }, auth(t));
    expect(clients.status).toBe(409);
    expect(clients.body.error).toMatch(/^This organization already has 3 active OAuth clients \(at most 3: CREDENTIALS_MAX_ACTIVE_PER_ORG\)/);
    // Another organization has its own quota.
    const other = await stack.tenant();
    expect((await stack.http.post("/api/api-keys", { name: "x", scopes: ["media:read"] }, auth(other))).status).toBe(201);
  });
});

describe("directory, schedules and templates", () => {
  const rows = (t: DemoSeed, table: "sites" | "groups" | "schedules" | "template_versions") =>
    count(stack.db.sql`select count(*)::int as n from ${stack.db.sql(table)} where organization_id = ${t.organization.id}`);

  it("DIRECTORY_MAX_PER_ORG: one site more answers 409 (archived ones count) until one is deleted; each kind and each organization is counted apart, SCIM's groups too", async () => {
    const t = await stack.tenant();
    const site = (code: string) => stack.http.post("/api/sites", { name: `Site ${code}`, code }, auth(t));
    const made = [];
    for (let i = await rows(t, "sites"); i < 10; i++) made.push((await site(`Q${i}`)).body);
    expect(made.every((s) => typeof s.id === "string")).toBe(true);
    const refused = await site("Q10");
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error:
          "This organization already has 10 sites (at most 10: DIRECTORY_MAX_PER_ORG); delete unused ones first (DELETE /api/sites/{id}); archived ones count too, and one still in use can only be archived, so past that ask the operator to raise the setting",
      },
    });
    expect(await rows(t, "sites")).toBe(10);
    // Archiving keeps the row: still full. Deleting makes room.
    expect((await stack.http.request("PATCH", `/api/sites/${made[0].id}`, { ...auth(t), body: { archived: true }, headers: { "if-match": "*" } })).status).toBe(
      200,
    );
    expect((await site("Q10")).status).toBe(409);
    expect((await stack.http.request("DELETE", `/api/sites/${made[0].id}`, auth(t))).status).toBe(204);
    expect((await site("Q10")).status).toBe(201);

    // Groups are counted apart from sites, over HTTP and SCIM alike; another organization has its own quota.
    for (let i = await rows(t, "groups"); i < 10; i++) expect((await stack.http.post("/api/groups", { name: `Group ${i}` }, auth(t))).status).toBe(201);
    expect((await stack.http.post("/api/groups", { name: "Group 10" }, auth(t))).body.error).toMatch(
      /^This organization already has 10 groups \(at most 10: DIRECTORY_MAX_PER_ORG\)/,
    );
    const scim = await scimCaller(stack, t);
    const viaScim = await scim.call("POST", "/Groups", { schemas: [GROUP], displayName: "From the IdP", externalId: "idp-1" });
    expect(viaScim.status).toBe(409);
    expect(viaScim.body).toMatchObject({ schemas: [ERROR], status: "409", detail: expect.stringMatching(/^This organization already has 10 groups/) });
    expect(await rows(t, "groups")).toBe(10);
    expect((await stack.http.post("/api/sites", { name: "Elsewhere", code: "Q10" }, auth(await stack.tenant()))).status).toBe(201);
  });

  it("SCHEDULES_MAX_PER_ORG: a third schedule answers 409 until one is deleted", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const first = await dailySchedule(stack, t, tpl.id);
    await dailySchedule(stack, t, tpl.id, { paused: true });
    const third = {
      name: "Third",
      templateId: tpl.id,
      recurrence: { rrule: "FREQ=WEEKLY" },
      timeZone: "UTC",
      startDate: "2030-01-07",
      startTime: "09:00",
      dueWithinMinutes: 60,
      assignees: { userIds: [t.users.inspector.id] },
    };
    const refused = await stack.http.post("/api/schedules", third, auth(t));
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error:
          "This organization already has 2 schedules (at most 2: SCHEDULES_MAX_PER_ORG); delete one it no longer needs first (DELETE /api/schedules/{id}; paused ones count too)",
      },
    });
    expect(await rows(t, "schedules")).toBe(2);
    expect((await stack.http.request("DELETE", `/api/schedules/${first.id}`, auth(t))).status).toBe(204);
    expect((await stack.http.post("/api/schedules", third, auth(t))).status).toBe(201);
  });

  it("TEMPLATE_VERSIONS_MAX_PER_ORG: a template or version that would be one more answers 409 and writes nothing", async () => {
    const t = await stack.tenant();
    let tpl: Tpl | undefined;
    for (let i = await rows(t, "template_versions"); i < 11; i++) tpl = await createTemplate(stack, t, auditTemplateBody(t, { name: `Fill ${i}` }));
    const version = await stack.http.post(`/api/templates/${tpl!.id}/versions`, {}, auth(t));
    expect(version.status).toBe(201);
    const refused = await stack.http.post("/api/templates", auditTemplateBody(t, { name: "One too many" }), auth(t));
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error:
          "This organization already has 12 template versions (at most 12: TEMPLATE_VERSIONS_MAX_PER_ORG); templates are kept for their inspections and cannot be deleted, so ask the operator to raise the setting",
      },
    });
    expect((await stack.http.post(`/api/templates/${tpl!.id}/publish`, {}, auth(t))).status).toBe(200);
    expect((await stack.http.post(`/api/templates/${tpl!.id}/versions`, {}, auth(t))).status).toBe(409);
    expect(await rows(t, "template_versions")).toBe(12);
    expect(
      await count(stack.db.sql`select count(*)::int as n from templates where organization_id = ${t.organization.id} and initial_title = 'One too many'`),
    ).toBe(0);
  });
});
