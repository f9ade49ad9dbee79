import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry, DemoSeed } from "@insp/core";
import { startStack, type JsonResponse, type Stack } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { auditTemplateBody, createTemplate, importBody } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

type Entry = AuditEntry;

const audit = async (t: DemoSeed, query = ""): Promise<Entry[]> => {
  const res = await stack.http.get(`/api/audit?limit=200${query}`, { auth: { bearer: t.apiKey } });
  expect(res.status, res.text).toBe(200);
  return res.body.items;
};
const apiKeyId = async (t: DemoSeed) => (await stack.db.sql<{ id: string }[]>`select id from api_keys where organization_id = ${t.organization.id}`)[0]!.id;
const reqId = (res: { headers: Headers }) => res.headers.get("x-request-id");

describe("audit log", () => {
  it("templates and imports: the API key, the action, the resource and the request id", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const created = await stack.http.post("/api/templates", auditTemplateBody(t), { auth });
    const id = created.body.template.id as string;
    const published = await stack.http.post(`/api/templates/${id}/publish`, {}, { auth });
    await stack.http.post(`/api/templates/${id}/publish`, {}, { auth }); // no change, no entry
    const tpl = await createTemplate(stack, t, auditTemplateBody(t, { name: "Second" }));
    const imported = await stack.http.post("/api/inspections", importBody(t, tpl), { auth });
    expect(imported.status).toBe(201);
    const key = await apiKeyId(t);
    const entries = await audit(t);
    const of = (action: string, resourceId: string) => entries.filter((e) => e.action === action && e.resourceId === resourceId);
    expect(of("template.created", id)).toEqual([
      expect.objectContaining({ actor: { type: "api_key", id: key }, resourceType: "template", requestId: reqId(created), changedFields: [] }),
    ]);
    expect(of("template.published", id)).toEqual([
      expect.objectContaining({ actor: { type: "api_key", id: key }, requestId: reqId(published), changedFields: ["status", "isActive", "publishedAt"] }),
    ]);
    expect(of("inspection.created", imported.body.id)).toEqual([
      expect.objectContaining({ actor: { type: "api_key", id: key }, resourceType: "inspection", requestId: reqId(imported) }),
    ]);
    // Newest first.
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort().reverse());
  });

  it("each employee change names the OAuth client, the changed fields and the sync's request id; no entry for nothing or for a refused record", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [a, b] = [uniq("A"), uniq("A")];
    const first = await api.post({ employees: [{ externalEmployeeId: a.id, email: a.email, firstName: "Ada", roles: ["inspector"], userAccount: {} }] });
    const employeeId = first.body.results[0].employeeId as string;
    await api.sync([{ externalEmployeeId: a.id, email: a.email, firstName: "Ada", roles: ["inspector"], userAccount: {} }]); // unchanged
    const second = await api.post({
      employees: [{ externalEmployeeId: a.id, email: a.email, firstName: "Ada", jobTitle: "Lead", roles: ["inspector"], userAccount: {} }],
    });
    const third = await api.post({ employees: [{ externalEmployeeId: a.id, email: a.email, status: "TERMINATED" }] });
    await api.sync([{ externalEmployeeId: b.id, email: a.email }]); // a's e-mail: refused
    const entries = (await audit(t, "&resourceType=employee")).reverse();
    expect(entries.map((e) => [e.action, e.resourceId, e.requestId])).toEqual([
      ["employee.created", employeeId, reqId(first)],
      ["employee.updated", employeeId, reqId(second)],
      ["employee.deactivated", employeeId, reqId(third)],
    ]);
    for (const e of entries) expect(e.actor).toEqual({ type: "oauth_client", id: t.oauthClient.clientId });
    expect(entries[0]!.changedFields).toEqual(expect.arrayContaining(["status", "firstName", "email", "roles", "userAccount"]));
    expect(entries[1]!.changedFields).toEqual(["jobTitle"]);
    expect(entries[2]!.changedFields).toEqual(expect.arrayContaining(["status", "roles", "userAccount"]));
    // Filters: by resource, by actor, by action.
    expect((await audit(t, `&resourceId=${employeeId}`)).length).toBe(3);
    expect((await audit(t, `&actorId=${t.oauthClient.clientId}`)).length).toBe(3);
    expect((await audit(t, "&action=employee.updated")).map((e) => e.requestId)).toEqual([reqId(second)]);
  });

  it("logins, failed logins and password changes, never with a value", async () => {
    const t = await stack.tenant();
    const u = t.users.inspector;
    const bad = await stack.http.post("/api/auth/login", { email: u.email, password: "wrong password here" });
    expect(bad.status).toBe(401);
    const token = await userToken(stack, u);
    const changed = await stack.http.post(
      "/api/auth/password",
      { currentPassword: u.password, newPassword: "a brand new password 123" },
      { auth: { bearer: token } },
    );
    expect(changed.status).toBe(204);
    const entries = (await audit(t, `&resourceType=user&resourceId=${u.id}`)).reverse();
    expect(entries.map((e) => [e.action, e.actor.type, e.resourceId])).toEqual([
      // The demo's users are made by the same function as POST /api/users, by the operator.
      ["user.created", "admin_cli", u.id],
      ["user.login_failed", "anonymous", u.id],
      ["user.login", "user", u.id],
      ["user.password_changed", "user", u.id],
    ]);
    expect(entries[1]!.requestId).toBe(reqId(bad));
    expect(entries[3]).toMatchObject({ changedFields: ["password"], requestId: reqId(changed) });
    const text = JSON.stringify(await audit(t));
    for (const secret of [u.password, "a brand new password 123", "wrong password here", u.email]) expect(text).not.toContain(secret);
  });

  it("webhook endpoint changes, with the names of the fields a PATCH changed", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const ep = (await stack.http.post("/api/webhooks", { url: "https://hooks.example.com/a", events: ["employee.created"] }, { auth })).body;
    await stack.http.request("PATCH", `/api/webhooks/${ep.id}`, { auth, body: { description: "ERP", enabled: false } });
    await stack.http.post(`/api/webhooks/${ep.id}/rotate-secret`, undefined, { auth });
    await stack.http.request("DELETE", `/api/webhooks/${ep.id}`, { auth });
    const entries = (await audit(t, "&resourceType=webhook_endpoint")).reverse();
    expect(entries.map((e) => [e.action, e.changedFields])).toEqual([
      ["webhook.created", []],
      ["webhook.updated", ["description", "enabled"]],
      ["webhook.secret_rotated", ["secret"]],
      ["webhook.deleted", []],
    ]);
    expect(JSON.stringify(entries)).not.toContain(ep.secret);
  });

  it("pages with a cursor, filters by time, and is sealed per organization and role", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const auth = { bearer: t.apiKey };
    const since = new Date().toISOString();
    for (let i = 0; i < 5; i++) await stack.http.post("/api/templates", auditTemplateBody(t, { name: `T${i}` }), { auth });
    const until = new Date(Date.now() + 1000).toISOString();
    const all = await audit(t, `&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
    expect(all.map((e) => e.action)).toEqual(Array(5).fill("template.created"));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: JsonResponse = await stack.http.get(`/api/audit?limit=2&since=${encodeURIComponent(since)}${cursor ? `&cursor=${cursor}` : ""}`, { auth });
      seen.push(...res.body.items.map((e: Entry) => e.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
    expect(await audit(other, `&since=${encodeURIComponent(since)}`)).toEqual([]);
    // Newest first by sequence number across a power of ten (as text, '9' sorts after '10').
    await stack.db.sql`
      insert into audit_log (organization_id, seq, actor_type, action, resource_type, changed_fields, created_at)
      select ${other.organization.id}, s, 'system', 'test.entry', 'test', '{}', '2001-01-01T00:00:00Z' from generate_series(95::bigint, 104::bigint) s`;
    const order: string[] = [];
    for (let next: string | null = "", n = 0; next !== null && n < 10; n++) {
      const res: JsonResponse = await stack.http.get(`/api/audit?limit=3&action=test.entry${next ? `&cursor=${next}` : ""}`, {
        auth: { bearer: other.apiKey },
      });
      order.push(...res.body.items.map((e: Entry) => e.id));
      next = res.body.nextCursor;
    }
    const ids = await stack.db.sql<
      { id: string }[]
    >`select id from audit_log where organization_id = ${other.organization.id} and action = 'test.entry' order by seq desc`;
    expect(order).toEqual(ids.map((r) => r.id));
    for (const q of ["cursor=abc", "since=yesterday", "limit=0", `action=${"x".repeat(300)}`]) {
      const res = await stack.http.get(`/api/audit?${q}`, { auth });
      expect(res.status, q).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
    const inspector = { bearer: await userToken(stack, t.users.inspector) };
    expect(await stack.http.get("/api/audit", { auth: inspector })).toMatchObject({ status: 403, body: { error: "Only admin users can read the audit log" } });
    const admin = { bearer: await userToken(stack, t.users.admin) };
    expect((await stack.http.get("/api/audit", { auth: admin })).status).toBe(200);
    expect((await stack.http.get("/api/audit", { auth: null })).status).toBe(401);
  });
});
