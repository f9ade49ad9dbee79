import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expireKeys } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { SYNC_PATH, countRows, syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 2 });
});
afterAll(() => stack?.stop());

const UNKNOWN_SITE = "00000000-0000-4000-8000-000000000001";

describe("whole-request problems are a 400 {error, details} and record nothing", () => {
  it("rejects a body that is not an object, missing or non-array employees, more than 500, a bad syncBatchId, each named in details", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const cases: [unknown, string[]][] = [
      [[{ externalEmployeeId: "a" }], ["Request body must be a JSON object with an employees array"]],
      [{}, ["employees: must be an array"]],
      [{ employees: { externalEmployeeId: "a" } }, ["employees: must be an array"]],
      [{ employees: Array.from({ length: 501 }, (_, i) => ({ externalEmployeeId: `x${i}` })) }, ["employees: At most 500 employees per request (got 501)"]],
      [{ syncBatchId: 42, employees: [] }, ["syncBatchId: must be a string of at most 255 characters"]],
    ];
    for (const [body, details] of cases) {
      const res = await api.post(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body).toEqual({ error: "Invalid request body", details });
    }
    const text = await api.post("just text");
    expect(text).toMatchObject({ status: 400, body: { error: "Malformed JSON in request body" } });
    const malformed = await stack.http.request("POST", SYNC_PATH, {
      auth: { bearer: api.token },
      rawBody: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(malformed).toMatchObject({ status: 400, body: { error: "Malformed JSON in request body" } });
    const noBody = await stack.http.request("POST", SYNC_PATH, { auth: { bearer: api.token } });
    expect(noBody.status).toBe(400);
    const badQuery = await api.post({ employees: [] }, { query: "dryRun=maybe" });
    expect(badQuery.status).toBe(400);
    const [row] = await stack.db.sql`select count(*)::int as n from sync_requests where organization_id = ${t.organization.id}`;
    expect(row!.n).toBe(0);
  });

  it("accepts exactly 500 and an empty batch", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    expect(await api.sync([])).toMatchObject({ results: [], errors: [] });
    const res = await api.post({ employees: Array.from({ length: 500 }, () => ({})) });
    expect(res.status).toBe(200);
    expect(res.body.errors).toHaveLength(500);
  });
});

describe("per-employee validation: errors[] with the spec's wording, the others still processed", () => {
  it("reports each invalid employee in request order and processes the valid ones", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const ok1 = uniq();
    const ok2 = uniq();
    const id = () => uniq().id;
    const ids = Array.from({ length: 10 }, id);
    const { results, errors } = await api.sync([
      { firstName: "No id" },
      { externalEmployeeId: ok1.id, email: ok1.email },
      { externalEmployeeId: "" },
      { externalEmployeeId: "   " },
      { externalEmployeeId: ids[0], email: "not-an-email" },
      { externalEmployeeId: ids[1], userAccount: { sendWelcomeEmail: true } },
      { externalEmployeeId: ids[2], status: "FIRED" },
      { externalEmployeeId: ids[3], hireDate: "31/12/2024" },
      { externalEmployeeId: ids[4], terminationDate: "2024-02-30" },
      { externalEmployeeId: ids[5], updateMode: "merge" },
      { externalEmployeeId: ids[6], groups: [{ role: "member" }] },
      "not an object",
      { externalEmployeeId: ids[7], email: "bad@", status: "GONE" },
      { externalEmployeeId: ids[8], metadata: ["not", "an", "object"] },
      { externalEmployeeId: ok2.id, status: "inactive", updateMode: "ADDITIVE" },
      { externalEmployeeId: 12345 },
    ]);
    expect(errors).toEqual([
      { externalEmployeeId: null, message: "externalEmployeeId is required" },
      { externalEmployeeId: "", message: "externalEmployeeId is required" },
      { externalEmployeeId: "", message: "externalEmployeeId is required" },
      { externalEmployeeId: ids[0], message: "Invalid email format" },
      { externalEmployeeId: ids[1], message: "Email is required for ACTIVE users with userAccount" },
      { externalEmployeeId: ids[2], message: "Invalid status 'FIRED': expected ACTIVE, INACTIVE or TERMINATED" },
      { externalEmployeeId: ids[3], message: "Invalid hireDate: expected an ISO 8601 date or date-time" },
      { externalEmployeeId: ids[4], message: "Invalid terminationDate: expected an ISO 8601 date or date-time" },
      { externalEmployeeId: ids[5], message: "Invalid updateMode 'merge': expected replace or additive" },
      { externalEmployeeId: ids[6], message: "Group assignment needs groupName or externalGroupId" },
      { externalEmployeeId: null, message: "Each employee must be a JSON object" },
      { externalEmployeeId: ids[7], message: "Invalid status 'GONE': expected ACTIVE, INACTIVE or TERMINATED; Invalid email format" },
      { externalEmployeeId: ids[8], message: "metadata must be a JSON object" },
    ]);
    expect(results.map((r) => [r.externalEmployeeId, r.status])).toEqual([
      [ok1.id, "CREATED"],
      [ok2.id, "CREATED"],
      ["12345", "CREATED"],
    ]);
    expect(await countRows(stack, "employees", t.organization.id)).toBe(3);
  });
});

describe("values that cannot be turned into text", () => {
  it("an object whose toString is not callable, or keys named __proto__ and valueOf, are per-employee errors naming the JSON type, with or without a session; never a 500", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const session = await stack.http.post("/api/v1/sync/sessions", {}, { auth: { bearer: api.token } });
    expect(session.status, session.text).toBe(201);
    const [a, b, c, d, ok] = Array.from({ length: 5 }, () => uniq().id);
    // Raw text: an own "__proto__" key only travels as JSON text (JSON.stringify of an object would drop it).
    const raw = `{"employees":[
      {"externalEmployeeId":"${a}","status":{"toString":1}},
      {"externalEmployeeId":"${b}","updateMode":{"__proto__":null,"toString":1,"valueOf":1}},
      {"externalEmployeeId":"${c}","status":[{"toString":1}],"firstName":{"valueOf":1,"toString":1}},
      {"__proto__":{"status":"TERMINATED"},"valueOf":1,"toString":1,"externalEmployeeId":"${d}","email":{"toString":1}},
      {"externalEmployeeId":"${ok}","metadata":{"valueOf":1,"toString":1,"constructor":{"prototype":null}}}
    ]}`;
    for (const query of ["", `?sessionId=${session.body.sessionId}`]) {
      const res = await stack.http.request("POST", `${SYNC_PATH}${query}`, {
        auth: { bearer: api.token },
        rawBody: raw,
        headers: { "content-type": "application/json" },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.errors).toEqual([
        { externalEmployeeId: a, message: "Invalid status (an object): expected ACTIVE, INACTIVE or TERMINATED" },
        { externalEmployeeId: b, message: "Invalid updateMode (an object): expected replace or additive" },
        { externalEmployeeId: c, message: "Invalid status (an array): expected ACTIVE, INACTIVE or TERMINATED; firstName must be string" },
        { externalEmployeeId: d, message: "Invalid email format" },
      ]);
      expect(res.body.results.map((r: { externalEmployeeId: string }) => r.externalEmployeeId)).toEqual([ok]);
    }
    const [row] = await stack.db.sql<
      { metadata: unknown }[]
    >`select metadata from employees where organization_id = ${t.organization.id} and external_employee_id = ${ok!}`;
    expect(row!.metadata).toEqual({ valueOf: 1, toString: 1, constructor: { prototype: null } });
  });
});

describe("size limits per employee", () => {
  it("an employee with 101 roles, groups or sites, or oversized metadata, gets its own error; the others are processed", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [roles, groups, sites, meta, deep, ok] = Array.from({ length: 6 }, () => uniq().id);
    const many = Array.from({ length: 101 }, (_, i) => `name-${i}`);
    const nested = JSON.parse(`{"a":${"[".repeat(30)}${"]".repeat(30)}}`);
    const { results, errors } = await api.sync([
      { externalEmployeeId: roles, roles: many },
      { externalEmployeeId: groups, groups: many.map((groupName) => ({ groupName })) },
      { externalEmployeeId: sites, sites: many.map((id) => ({ id })) },
      { externalEmployeeId: meta, metadata: { blob: "x".repeat(20_000) } },
      { externalEmployeeId: deep, metadata: nested },
      { externalEmployeeId: ok, roles: many.slice(0, 100) },
    ]);
    expect(errors).toEqual([
      { externalEmployeeId: roles, message: "At most 100 roles per employee" },
      { externalEmployeeId: groups, message: "At most 100 groups per employee" },
      { externalEmployeeId: sites, message: "At most 100 sites per employee" },
      { externalEmployeeId: meta, message: "metadata must be at most 16384 characters of JSON" },
      { externalEmployeeId: deep, message: "metadata must be nested at most 20 levels deep" },
    ]);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ externalEmployeeId: ok, status: "CREATED" });
    expect(results[0].warnings).toHaveLength(100);
    expect(await countRows(stack, "employees", t.organization.id)).toBe(1);
  });
});

describe("e-mail rules", () => {
  it("refuses an account whose e-mail belongs to a user of another organization", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [withAccount, withoutAccount] = [uniq().id, uniq().id];
    const { results, errors } = await api.sync([
      { externalEmployeeId: withAccount, email: other.users.admin.email, userAccount: {} },
      // Employees are unique by e-mail within the organization only: no account, no conflict.
      { externalEmployeeId: withoutAccount, email: other.users.admin.email.toUpperCase() },
    ]);
    expect(errors).toEqual([{ externalEmployeeId: withAccount, message: "User with that e-mail already exists in a different organization" }]);
    expect(results.map((r) => r.externalEmployeeId)).toEqual([withoutAccount]);
  });

  it("refuses an e-mail already held by another employee (with or without an account)", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const first = uniq();
    const firstRes = await api.sync([{ externalEmployeeId: first.id, email: first.email, userAccount: {} }]);
    const [a, b] = [uniq().id, uniq().id];
    const { results, errors } = await api.sync([
      { externalEmployeeId: a, email: first.email, userAccount: {} },
      { externalEmployeeId: b, email: first.email.toUpperCase() },
    ]);
    expect(results).toEqual([]);
    expect(errors).toEqual([
      { externalEmployeeId: a, message: "User with that e-mail already exists and is linked to another employee" },
      { externalEmployeeId: b, message: "User with that e-mail already exists and is linked to another employee" },
    ]);
    expect(await countRows(stack, "employees", t.organization.id)).toBe(1);
    expect(firstRes.results[0].userId).toBeTruthy();
  });

  it("refuses a username taken by another account of the organization", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [x, y] = [uniq(), uniq()];
    await api.sync([{ externalEmployeeId: x.id, email: x.email, userAccount: { username: "jdoe" } }]);
    const { errors } = await api.sync([{ externalEmployeeId: y.id, email: y.email, userAccount: { username: "JDoe" } }]);
    expect(errors).toEqual([{ externalEmployeeId: y.id, message: "Username 'JDoe' is already taken in this organization" }]);
  });
});

describe("site_manager rules (Processing rule 8)", () => {
  it("answers the spec's three messages and accepts a consistent site manager", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const [a, b, c, ok] = [uniq().id, uniq().id, uniq().id, uniq().id];
    const site = t.sites[0]!.id;
    const { results, errors } = await api.sync([
      { externalEmployeeId: a, roles: ["site_manager"] },
      { externalEmployeeId: b, roles: ["inspector"], sites: [{ id: site, role: "site_manager" }] },
      { externalEmployeeId: c, roles: ["site_manager"], sites: [{ id: UNKNOWN_SITE }] },
      { externalEmployeeId: ok, roles: ["site_manager"], sites: [{ id: site, role: "site_manager" }, { id: UNKNOWN_SITE }] },
    ]);
    expect(errors).toEqual([
      { externalEmployeeId: a, message: "Cannot assign site_manager role: employee must have at least one site assigned" },
      { externalEmployeeId: b, message: "Cannot assign site_manager role at site level: employee must have site_manager in their roles array" },
      { externalEmployeeId: c, message: "site_manager role requires at least one site assignment" },
    ]);
    expect(results).toEqual([
      {
        externalEmployeeId: ok,
        status: "CREATED",
        employeeId: expect.any(String),
        userId: null,
        warnings: [`Site with id '${UNKNOWN_SITE}' not found, skipped`],
      },
    ]);
    expect(await countRows(stack, "employees", t.organization.id)).toBe(1);
  });

  it("additive counts the sites the employee already has; replace does not", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq().id;
    await api.sync([{ externalEmployeeId: e, roles: ["inspector"], sites: [{ id: t.sites[0]!.id }] }]);
    const additive = await api.sync([{ externalEmployeeId: e, roles: ["site_manager"], updateMode: "additive" }]);
    expect(additive.errors).toEqual([]);
    const replace = await api.sync([{ externalEmployeeId: e, roles: ["site_manager"] }]);
    expect(replace.errors).toEqual([{ externalEmployeeId: e, message: "Cannot assign site_manager role: employee must have at least one site assigned" }]);
    const fresh = uniq().id;
    const none = await api.sync([{ externalEmployeeId: fresh, roles: ["site_manager"], updateMode: "additive" }]);
    expect(none.errors[0].message).toBe("Cannot assign site_manager role: employee must have at least one site assigned");
  });

  it("a failed employee is rolled back alone: its earlier state stays, the rest of the batch is applied", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const e = uniq();
    const first = await api.sync([
      { externalEmployeeId: e.id, email: e.email, jobTitle: "Before", roles: ["inspector"], sites: [{ id: t.sites[0]!.id }], userAccount: {} },
    ]);
    const before = (await api.get(`/api/v1/employees/${first.results[0].employeeId}`)).body;
    const other = uniq().id;
    const { results, errors } = await api.sync([
      {
        externalEmployeeId: e.id,
        email: uniq().email,
        jobTitle: "Never",
        roles: ["FIELD_TECH"],
        sites: [{ id: t.sites[1]!.id, role: "site_manager" }],
        userAccount: {},
      },
      { externalEmployeeId: other, jobTitle: "Applied" },
    ]);
    expect(errors).toEqual([
      { externalEmployeeId: e.id, message: "Cannot assign site_manager role at site level: employee must have site_manager in their roles array" },
    ]);
    expect(results.map((r) => [r.externalEmployeeId, r.status])).toEqual([[other, "CREATED"]]);
    expect((await api.get(`/api/v1/employees/${first.results[0].employeeId}`)).body).toEqual(before);
    const [user] = await stack.db.sql`select email from users where id = ${first.results[0].userId}`;
    expect(user!.email).toBe(e.email);
  });
});

describe("failures that are not the employee's fault", () => {
  it("retries a transient failure (deadlock) and succeeds; gives up with a generic error after the last attempt", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const flaky = uniq("FLAKY").id;
    const broken = uniq("BROKEN").id;
    // A trigger of this file's own database: the first insert of `flaky` fails as a deadlock
    // would (a sequence is not rolled back), every insert of `broken` fails.
    await stack.db.sql.unsafe(`
      create sequence if not exists flaky_seq;
      create or replace function fail_some() returns trigger language plpgsql as $$
      begin
        if new.external_employee_id = '${flaky}' and nextval('flaky_seq') = 1 then raise exception 'simulated deadlock' using errcode = '40P01'; end if;
        if new.external_employee_id = '${broken}' then raise exception 'simulated outage' using errcode = '08006'; end if;
        return new;
      end $$;
      create trigger fail_some before insert on employees for each row execute function fail_some();`);
    try {
      const { results, errors } = await api.sync([{ externalEmployeeId: flaky }, { externalEmployeeId: broken }]);
      expect(results.map((r) => [r.externalEmployeeId, r.status])).toEqual([[flaky, "CREATED"]]);
      expect(errors).toEqual([{ externalEmployeeId: broken, message: "Internal error while processing this employee; retry the request" }]);
    } finally {
      await stack.db.sql.unsafe("drop trigger fail_some on employees");
    }
  });
});

describe("Idempotency-Key and status lookups", () => {
  it("answers 422 when a key is reused with another body, and 400 for a malformed key", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const headers = { "idempotency-key": `k-${uniq().id}` };
    expect((await api.post({ employees: [{ externalEmployeeId: uniq().id }] }, { headers })).status).toBe(200);
    const reused = await api.post({ employees: [{ externalEmployeeId: uniq().id }] }, { headers });
    expect(reused).toMatchObject({ status: 422, body: { error: "Idempotency-Key was already used with a different request body" } });
    expect((await api.post({ employees: [] }, { headers: { "idempotency-key": "has space" } })).status).toBe(400);
  });

  it("a key past its 24 hours is free again; the sweep removes expired keys of every endpoint", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const headers = { "idempotency-key": `old-${uniq().id}` };
    expect((await api.post({ employees: [{ externalEmployeeId: uniq().id }] }, { headers })).status).toBe(200);
    await stack.db.sql`update idempotency_keys set created_at = now() - interval '25 hours' where organization_id = ${t.organization.id}`;
    const other = await api.post({ employees: [{ externalEmployeeId: uniq().id }] }, { headers });
    expect(other.status).toBe(200);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    await stack.db.sql`insert into idempotency_keys (organization_id, scope, key, request_hash, created_at)
      values (${t.organization.id}, 'inspections', 'old-import', 'h', now() - interval '25 hours')`;
    await stack.db.sql`update idempotency_keys set created_at = now() - interval '25 hours' where organization_id = ${t.organization.id}`;
    expect(await expireKeys(stack.db.db)).toBeGreaterThanOrEqual(2);
    const [left] = await stack.db.sql`select count(*)::int as n from idempotency_keys where organization_id = ${t.organization.id}`;
    expect(left!.n).toBe(0);
  });

  it("a completed request is replayed byte for byte, also from a key recorded by the previous release (an HTTP status and body, no outcome)", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    const key = `legacy-${uniq().id}`;
    const body = { syncBatchId: "b-1", employees: [{ externalEmployeeId: uniq().id }, { externalEmployeeId: "" }] };
    const first = await api.post(body, { headers: { "idempotency-key": key } });
    expect(first.status).toBe(200);
    // Replayed from the recorded outcome: the same bytes, although jsonb keeps no key order.
    expect((await api.post(body, { headers: { "idempotency-key": key } })).text).toBe(first.text);
    await stack.db.sql`update idempotency_keys set response_status = 200, response_body = ${first.text}::jsonb, outcome = null
      where organization_id = ${t.organization.id} and key = ${key}`;
    const again = await api.post(body, { headers: { "idempotency-key": key } });
    expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([200, first.text, "true"]);
  });

  it("answers 404 for an unknown or malformed request id", async () => {
    const t = await stack.tenant();
    const api = await syncCaller(stack, t);
    expect((await api.get(`/api/v1/sync/requests/${UNKNOWN_SITE}`)).status).toBe(404);
    expect((await api.get("/api/v1/sync/requests/not-a-uuid")).status).toBe(404);
  });
});
