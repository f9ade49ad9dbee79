import { randomBytes, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import ExcelJS from "exceljs";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { auditTemplateBody, createTemplate, importBody, importOk } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";
import { useMailStack } from "../fixtures/mail.fixtures.ts";

/**
 * Erasing a former employee (docs/erasure.md): a synced employee with a user account, a welcome
 * mail, webhook deliveries, an inspection, an action, a stored PDF report and an export is
 * terminated by the HR sync and erased; then everything is read back (API, feed, exports, PDF,
 * stored webhook payloads, audit, every row of every table) for the erased values.
 */
const ctx = useMailStack();

const key = (t: DemoSeed) => ({ auth: { bearer: t.apiKey } });
const asAdmin = async (t: DemoSeed) => ({ auth: { bearer: await userToken(ctx.stack, t.users.admin) } });
const eraseOf = (id: string) => `/api/v1/employees/${id}/erase`;

/** A person whose every value is unique to this test, so finding one anywhere means it was not erased. */
function person() {
  const s = randomBytes(4).toString("hex");
  const digits = String(parseInt(s, 16)).padStart(10, "0").slice(0, 8);
  return {
    externalEmployeeId: `ERASE-${s}`,
    firstName: `Zelinda${s}`,
    lastName: `Quorrington${s}`,
    email: `zq-${s}@example.test`,
    phone: `+44 7700 ${digits}`,
    badge: `badge-${s}`,
  };
}
type Person = ReturnType<typeof person>;
const valuesOf = (p: Person) => [p.externalEmployeeId, p.firstName, p.lastName, p.email, p.phone, p.badge];
const expectNone = (what: string, text: string, p: Person) => {
  for (const v of valuesOf(p)) expect(text.toLowerCase(), `${what} still holds ${v}`).not.toContain(v.toLowerCase());
};

const standardFontDataUrl = path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts") + path.sep;
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) pages.push((await (await doc.getPage(i)).getTextContent()).items.map((it) => ("str" in it ? it.str : "")).join(" "));
  await doc.destroy();
  return pages.join("\n");
}
async function pdf(t: DemoSeed, inspectionId: string): Promise<string> {
  const res = await fetch(`${ctx.stack.http.baseUrl}/api/inspections/${inspectionId}/report.pdf`, { headers: { authorization: `Bearer ${t.apiKey}` } });
  expect(res.status).toBe(200);
  return pdfText(Buffer.from(await res.arrayBuffer()));
}

/** An export's file as text (a workbook: every cell's value). */
async function exported(t: DemoSeed, format: "csv" | "xlsx"): Promise<string> {
  const made = await ctx.stack.http.post("/api/exports", { format }, key(t));
  expect(made.status, made.text).toBe(202);
  await until(
    "export finished",
    async () => (await ctx.stack.http.get(`/api/exports/${made.body.id}`, key(t))).body,
    (b) => b.status === "SUCCEEDED",
    60_000,
  );
  const res = await fetch(`${ctx.stack.http.baseUrl}/api/exports/${made.body.id}/download`, { headers: { authorization: `Bearer ${t.apiKey}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (format === "csv") return bytes.toString("utf8");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((c) => cells.push(String(c.value)))));
  return cells.join("\n");
}

/** Every row of every table of the database, as text, that holds one of the person's values (table name: rows). */
async function rowsHolding(p: Person): Promise<Record<string, string[]>> {
  const tables = await ctx.stack.db.sql<
    { name: string }[]
  >`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
  const patterns = valuesOf(p).map((v) => `%${v}%`);
  const found: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = await ctx.stack.db.sql.unsafe<{ row: string }[]>(`select t::text as row from "${name}" t where t::text ilike any($1::text[])`, [patterns]);
    if (rows.length) found[name] = rows.map((r) => r.row);
  }
  return found;
}

interface Former {
  p: Person;
  employeeId: string;
  userId: string;
  colleagueId: string;
  inspectionId: string;
  actionId: string;
  endpointId: string;
}

/** The whole life of a former employee, ending TERMINATED by the HR sync. */
async function formerEmployee(t: DemoSeed, files = false): Promise<Former> {
  const p = person();
  const hooks = `/erase-${t.organization.id}`;
  const ep = await ctx.stack.http.post(
    "/api/webhooks",
    {
      url: `${ctx.receiver.baseUrl}${hooks}`,
      events: [
        "employee.created",
        "employee.updated",
        "employee.deactivated",
        "employee.erased",
        "user.disabled",
        "user.updated",
        "inspection.created",
        "action.created",
      ],
    },
    key(t),
  );
  expect(ep.status, ep.text).toBe(201);
  await ctx.receiver.configure(hooks, { secrets: [ep.body.secret] });

  const api = await syncCaller(ctx.stack, t);
  const record = {
    externalEmployeeId: p.externalEmployeeId,
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    phone: p.phone,
    supervisor: { name: "Pat Boss", email: "pat.boss@example.test" },
    metadata: { badge: p.badge },
    roles: ["inspector"],
    groups: [{ groupName: "Safety Team" }],
    sites: [{ id: t.sites[0]!.id }],
    userAccount: { sendWelcomeEmail: true, forcePasswordReset: true },
  };
  // A colleague whose HR record names the person as supervisor.
  const colleague = { externalEmployeeId: uniq("COL").id, supervisor: { name: `${p.firstName} ${p.lastName}`, email: p.email } };
  const { results } = await api.sync([record, colleague]);
  expect(results[0]).toMatchObject({ status: "CREATED" });
  const { employeeId, userId } = results[0] as { employeeId: string; userId: string };
  await ctx.smtp.waitFor((m) => m.envelopeTo.includes(p.email));

  const tpl = await createTemplate(ctx.stack, t, auditTemplateBody(t, { name: "Erasure check" }));
  const inspection = await importOk(ctx.stack, t, importBody(t, tpl, { conductedBy: userId }));
  const action = await ctx.stack.http.post("/api/actions", { title: "Fix the gate", inspectionId: inspection.id, assigneeId: userId }, key(t));
  expect(action.status, action.text).toBe(201);
  if (files) {
    // A stored PDF report and a stored export, both naming the inspector.
    expect(await pdf(t, inspection.id)).toContain(p.firstName);
    expect(await exported(t, "csv")).toContain(p.firstName);
  }

  // With an Idempotency-Key: its stored answer (the results) names the person too.
  const terminated = await api.post(
    { employees: [{ ...record, status: "TERMINATED", terminationDate: "2026-06-30" }] },
    { headers: { "idempotency-key": `leave-${randomUUID()}` } },
  );
  expect(terminated.status, terminated.text).toBe(200);
  expect(terminated.body.results[0]).toMatchObject({ status: "UPDATED", externalEmployeeId: p.externalEmployeeId });
  // The stored payloads this test then looks for: the person's events and the inspection's.
  await until(
    "webhooks of the former employee delivered",
    () => ctx.receiver.received(hooks),
    (rs) => ["employee.created", "employee.deactivated", "inspection.created", "action.created"].every((type) => rs.some((r) => r.body.type === type)),
    30_000,
  );
  return { p, employeeId, userId, colleagueId: results[1].employeeId, inspectionId: inspection.id, actionId: action.body.id, endpointId: ep.body.id };
}

describe("POST /api/v1/employees/{id}/erase", () => {
  it("leaves nothing of the person but a pseudonym: API, feed, exports, PDF, webhooks, audit and every row of the database", async () => {
    const t = await ctx.stack.tenant();
    const f = await formerEmployee(t, true);
    expect(Object.keys(await rowsHolding(f.p)).length).toBeGreaterThan(3);

    const admin = await asAdmin(t);
    const erased = await ctx.stack.http.post(eraseOf(f.employeeId), undefined, admin);
    expect(erased.status, erased.text).toBe(200);
    const pseudonym = erased.body.pseudonym as string;
    expect(pseudonym).toMatch(/^erased-[0-9a-f]{12}$/);
    expect(erased.body.employee).toMatchObject({
      id: f.employeeId,
      externalEmployeeId: pseudonym,
      status: "TERMINATED",
      firstName: null,
      lastName: null,
      displayName: pseudonym,
      email: null,
      phone: null,
      supervisor: null,
      metadata: null,
      userId: f.userId,
      accountEnabled: false,
      roles: [],
      groups: [],
      sites: [],
    });
    // Idempotent: the same answer, nothing changed.
    const again = await ctx.stack.http.post(eraseOf(f.employeeId), undefined, key(t));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(erased.body);

    const employee = await ctx.stack.http.get(`/api/v1/employees/${f.employeeId}`, key(t));
    expect(employee.body).toEqual(erased.body.employee);
    const colleague = await ctx.stack.http.get(`/api/v1/employees/${f.colleagueId}`, key(t));
    expect(colleague.body.supervisor).toBeNull();
    const user = await ctx.stack.http.get(`/api/users/${f.userId}`, admin);
    expect(user.body).toMatchObject({ name: pseudonym, disabled: true, isAdmin: false, mustResetPassword: false });
    expect(user.body.email).toMatch(/^erased-.*@erased\.invalid$/);
    const users = await ctx.stack.http.get("/api/users?limit=100", admin);
    const inspection = await ctx.stack.http.get(`/api/inspections/${f.inspectionId}`, key(t));
    expect(inspection.status).toBe(200);
    expect(JSON.stringify(inspection.body)).toContain(pseudonym);
    const action = await ctx.stack.http.get(`/api/actions/${f.actionId}`, key(t));
    expect(action.status).toBe(200);
    const report = await pdf(t, f.inspectionId);
    expect(report).toContain(pseudonym);
    const [csv, xlsx] = [await exported(t, "csv"), await exported(t, "xlsx")];
    expect(csv).toContain(pseudonym);
    const exports = await ctx.stack.http.get("/api/exports?limit=100", key(t));
    const feed = await ctx.stack.http.get("/api/v1/feed/employees?limit=100", key(t));
    expect(feed.body.items.map((i: { change: string }) => i.change)).toContain("erased");
    const audit = await ctx.stack.http.get(`/api/audit?resourceId=${f.employeeId}`, key(t));
    expect(audit.body.items.map((e: { action: string }) => e.action)).toContain("employee.erased");
    const erasedEntry = audit.body.items.find((e: { action: string }) => e.action === "employee.erased");
    expect(erasedEntry.changedFields).toEqual(expect.arrayContaining(["firstName", "email", "phone", "externalEmployeeId"]));
    const userAudit = await ctx.stack.http.get(`/api/audit?resourceId=${f.userId}`, key(t));

    // employee.erased reaches the ctx.receiver, with the pseudonym.
    const delivered = await until(
      "employee.erased delivered",
      async () => (await ctx.receiver.received(`/erase-${t.organization.id}`)).find((r) => r.body.type === "employee.erased"),
      (r) => r !== undefined,
      30_000,
    );
    expect(delivered!.body.data).toMatchObject({ id: f.employeeId, externalEmployeeId: pseudonym });
    const deliveries = await ctx.stack.http.get(`/api/webhooks/${f.endpointId}/deliveries?limit=100`, key(t));
    expect(deliveries.status).toBe(200);

    for (const [what, body] of Object.entries({ erased, employee, colleague, user, users, inspection, action, exports, feed, audit, userAudit, deliveries }))
      expectNone(what, JSON.stringify(body.body), f.p);
    expectNone("the PDF report", report, f.p);
    expectNone("the CSV export", csv, f.p);
    expectNone("the XLSX export", xlsx, f.p);
    // Stored webhook bodies, pending or sent, are rewritten; the welcome mail is gone.
    const payloads = await ctx.stack.db.sql<{ payload: string }[]>`select payload from webhook_deliveries where organization_id = ${t.organization.id}`;
    expect(payloads.length).toBeGreaterThan(3);
    expectNone("stored webhook payloads", payloads.map((r) => r.payload).join("\n"), f.p);
    expect(await ctx.stack.db.sql`select id from mail_outbox where organization_id = ${t.organization.id} and user_id = ${f.userId}`).toHaveLength(0);
    expect(await rowsHolding(f.p)).toEqual({});
  });

  it("disables the account for good: no sign-in, no PATCH back to enabled, no password mail", async () => {
    const t = await ctx.stack.tenant();
    const f = await formerEmployee(t);
    const admin = await asAdmin(t);
    expect((await ctx.stack.http.post(eraseOf(f.employeeId), undefined, admin)).status).toBe(200);
    const enable = await ctx.stack.http.request("PATCH", `/api/users/${f.userId}`, { ...admin, body: { disabled: false }, headers: { "if-match": "*" } });
    expect(enable.status).toBe(409);
    expect(enable.body.error).toMatch(/erased/);
    const admin2 = await ctx.stack.http.request("PATCH", `/api/users/${f.userId}`, { ...admin, body: { isAdmin: true }, headers: { "if-match": "*" } });
    expect(admin2.status).toBe(409);
    expect((await ctx.stack.http.post(`/api/users/${f.userId}/reset-password`, undefined, admin)).status).toBe(409);
    // The database refuses it too, whoever writes.
    await expect(ctx.stack.db.sql`update users set disabled = false where id = ${f.userId}`).rejects.toThrow(/users_erased_disabled_check/);
    const login = await ctx.stack.http.post("/api/auth/login", { email: f.p.email, password: "anything at all" });
    expect(login.status).toBe(401);
  });

  it("a later sync with the same externalEmployeeId and e-mail creates a new employee and a new account", async () => {
    const t = await ctx.stack.tenant();
    const f = await formerEmployee(t);
    expect((await ctx.stack.http.post(eraseOf(f.employeeId), undefined, key(t))).status).toBe(200);
    const api = await syncCaller(ctx.stack, t);
    const { results } = await api.sync([{ externalEmployeeId: f.p.externalEmployeeId, firstName: "Back", email: f.p.email, userAccount: {} }]);
    expect(results[0]).toMatchObject({ status: "CREATED" });
    expect(results[0].employeeId).not.toBe(f.employeeId);
    expect(results[0].userId).not.toBe(f.userId);
    const old = await ctx.stack.http.get(`/api/v1/employees/${f.employeeId}`, key(t));
    expect(old.body).toMatchObject({ externalEmployeeId: expect.stringMatching(/^erased-/), firstName: null, accountEnabled: false });
    const byId = await ctx.stack.http.get(`/api/v1/employees?externalEmployeeId=${f.p.externalEmployeeId}`, key(t));
    expect(byId.body.employees.map((e: { id: string }) => e.id)).toEqual([results[0].employeeId]);
  });

  it("an ACTIVE employee is a 409 saying to deactivate first; unknown and other organizations' ids are 404", async () => {
    const [t, other] = [await ctx.stack.tenant(), await ctx.stack.tenant()];
    const e = uniq("ACT");
    const { results } = await (await syncCaller(ctx.stack, t)).sync([{ externalEmployeeId: e.id, email: e.email, firstName: "Still", lastName: "Here" }]);
    const active = await ctx.stack.http.post(eraseOf(results[0].employeeId), undefined, key(t));
    expect(active.status).toBe(409);
    expect(active.body.error).toMatch(/deactivate/i);
    expect((await ctx.stack.http.get(`/api/v1/employees/${results[0].employeeId}`, key(t))).body).toMatchObject({ firstName: "Still", email: e.email });
    expect((await ctx.stack.http.post(eraseOf(results[0].employeeId), undefined, key(other))).status).toBe(404);
    expect((await ctx.stack.http.post(eraseOf(randomUUID()), undefined, key(t))).status).toBe(404);
    expect((await ctx.stack.http.post(eraseOf("not-a-uuid"), undefined, key(t))).status).toBe(404);
  });

  it("admin users and API keys with employees:erase only", async () => {
    const t = await ctx.stack.tenant();
    const e = uniq("SCP");
    const { results } = await (await syncCaller(ctx.stack, t)).sync([{ externalEmployeeId: e.id, email: e.email, status: "INACTIVE" }]);
    const id = results[0].employeeId as string;
    const without = (await createApiKey(ctx.stack.db.db, t.organization.id, "k", undefined, undefined, ["employees:read", "users:manage"])).apiKey;
    const refused = await ctx.stack.http.post(eraseOf(id), undefined, { auth: { bearer: without } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain("employees:erase");
    const inspector = await ctx.stack.http.post(eraseOf(id), undefined, { auth: { bearer: await userToken(ctx.stack, t.users.inspector) } });
    expect(inspector.status).toBe(403);
    expect((await ctx.stack.http.post(eraseOf(id), undefined, { auth: null })).status).toBe(401);
    expect((await ctx.stack.http.get(`/api/v1/employees/${id}`, key(t))).body.email).toBe(e.email);
    const withScope = (await createApiKey(ctx.stack.db.db, t.organization.id, "k", undefined, undefined, ["employees:erase"])).apiKey;
    const ok = await ctx.stack.http.post(eraseOf(id), undefined, { auth: { bearer: withScope } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.employee.email).toBeNull();
  });
});
