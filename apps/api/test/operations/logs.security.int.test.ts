import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { startSmtpServer, startStack, type SmtpTestServer, type Stack } from "@insp/testing";
import { syncCaller, syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { importBody, publishedAudit } from "../fixtures/inspections.fixtures.ts";

/**
 * Request content and secrets never reach a log; secrets are in no row and no Redis key in a
 * form anyone could use. The processes log at debug level here, so that every log line the
 * code has is written and can fail this test.
 */

/**
 * Every row of every table of the database as text (`t::text`: each column as Postgres writes
 * it, bytea in hex as a dump would), read over SQL: what a `pg_dump --data-only` would hold,
 * without needing a pg_dump of the server's version on the machine.
 */
async function everyRowAsText(sql: Stack["db"]["sql"]): Promise<string> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', schemaname, tablename) as name from pg_tables
    where schemaname not in ('pg_catalog', 'information_schema') order by 1`;
  let text = "";
  for (const { name } of tables) {
    const rows = await sql.unsafe<{ row: string }[]>(`select t::text as row from ${name} t`);
    text += `${name}\n${rows.map((r) => r.row).join("\n")}\n`;
  }
  return text;
}

let smtp: SmtpTestServer;
let stack: Stack;

beforeAll(async () => {
  smtp = await startSmtpServer();
  stack = await startStack({ workers: 1, env: { SMTP_URL: smtp.url, LOG_LEVEL: "debug" } });
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

const logs = () => [stack.api, ...stack.workers].map((p) => p.output()).join("\n");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("request content is never logged", () => {
  it("a marker in every body field and in the query, on answers of every kind including 500s, appears in no log line", async () => {
    const t = await stack.tenant();
    const marker = `MRK${randomBytes(6).toString("hex")}`;
    const auth = { bearer: t.apiKey };
    const tpl = await publishedAudit(stack, t);
    const sync = await syncCaller(stack, t);
    const employee = (n: number) => ({
      externalEmployeeId: `${marker}-${n}`,
      firstName: marker,
      lastName: marker,
      displayName: marker,
      email: `${marker.toLowerCase()}${n}@example.test`,
      phone: marker,
      jobTitle: marker,
      department: marker,
      supervisor: { name: marker, email: `${marker.toLowerCase()}@boss.example` },
      metadata: { note: marker, [marker]: 1 },
      roles: [marker],
      groups: [{ groupName: marker, role: marker }],
      sites: [{ id: marker, role: marker }],
      userAccount: { username: `${marker}${n}` },
    });
    const templateBody = {
      createdBy: t.users.admin.id,
      name: marker,
      description: marker,
      type: "AUDIT",
      sections: [{ title: marker, description: marker, questions: [{ key: marker, text: marker, hint: marker }] }],
    };
    const base = importBody(t, tpl);
    const inspection = { ...base, answers: [...base.answers, { questionId: tpl.q.remarks!.id, answerText: marker, note: marker }] };

    // Answers of every kind: success, validation errors, unknown ids, bad credentials.
    expect((await stack.http.post("/api/templates", templateBody, { auth })).status).toBe(200);
    expect((await stack.http.post("/api/templates", { ...templateBody, type: marker }, { auth })).status).toBe(400);
    expect((await stack.http.post("/api/inspections", inspection, { auth, headers: { "idempotency-key": marker } })).status).toBe(201);
    expect((await stack.http.post("/api/inspections", { ...inspection, templateId: marker }, { auth })).status).toBe(404);
    expect((await sync.post({ syncBatchId: marker, employees: [employee(1), { ...employee(2), email: marker }] })).status).toBe(200);
    expect((await sync.post({ employees: [employee(3)] }, { query: "dryRun=true" })).status).toBe(200);
    expect((await stack.http.get(`/api/v1/employees?externalEmployeeId=${marker}`, { auth: { bearer: sync.token } })).status).toBe(200);
    expect((await stack.http.get(`/api/inspections?templateId=${marker}&status=${marker}`, { auth })).status).toBe(400);
    expect((await stack.http.post("/api/auth/login", { email: `${marker}@example.test`, password: marker })).status).toBe(401);
    expect((await stack.http.get("/api/templates", { auth: { bearer: marker } })).status).toBe(401);

    // 500s in the API: a column the statement needs is gone (the failing INSERT carries the marker as a parameter).
    await stack.db.sql.unsafe("alter table template_sections rename column description to description_gone");
    try {
      const failed = await stack.http.post("/api/templates", templateBody, { auth });
      expect(failed.status).toBe(500);
      expect(failed.body.error).toMatch(/^Internal server error \(request id /);
    } finally {
      await stack.db.sql.unsafe("alter table template_sections rename column description_gone to description");
    }
    // ... and in the worker: each employee's write fails until its retries run out.
    await stack.db.sql.unsafe("alter table employees rename column job_title to job_title_gone");
    try {
      const res = await sync.post({ employees: [employee(4)] });
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([{ externalEmployeeId: `${marker}-4`, message: "Internal error while processing this employee; retry the request" }]);
    } finally {
      await stack.db.sql.unsafe("alter table employees rename column job_title_gone to job_title");
    }
    await sleep(500);

    const all = logs();
    // The failures were logged (so the check below looks at real error lines)...
    expect(all).toMatch(/"msg":"unhandled error"/);
    expect(all).toMatch(/employee sync item gave up after its last attempt/);
    expect(all).toMatch(/"type":"DrizzleQueryError","message":"Failed query: insert into \\"template_sections\\"/);
    // ...without any of what was sent.
    expect(all.toLowerCase()).not.toContain(marker.toLowerCase());
  });
});

describe("secrets are stored as hashes and never written anywhere readable", () => {
  it("after a full run, no key, client secret, password, access token or temporary password is in the logs, any table's rows or Redis", async () => {
    const t = await stack.tenant();
    const clientToken = await syncToken(stack, t);
    const login = await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password });
    expect(login.status).toBe(200);
    const userToken = login.body.accessToken as string;
    // Every credential in use: key, client token, user token, and a password change.
    expect((await stack.http.get("/api/templates", { auth: { bearer: t.apiKey } })).status).toBe(200);
    expect((await stack.http.get("/api/templates", { auth: { basic: [t.apiKey, ""] } })).status).toBe(200);
    expect((await stack.http.get("/api/v1/employees", { auth: { bearer: clientToken } })).status).toBe(200);
    const newPassword = `new-${randomBytes(12).toString("hex")}`;
    expect(
      (await stack.http.post("/api/auth/password", { currentPassword: t.users.admin.password, newPassword }, { auth: { bearer: userToken } })).status,
    ).toBe(204);
    // Wrong secrets are not logged either.
    const wrongSecret = `ics_${randomBytes(16).toString("hex")}`;
    expect(
      (
        await stack.http.request("POST", "/oauth/token", {
          rawBody: `grant_type=client_credentials&client_id=${t.oauthClient.clientId}&client_secret=${wrongSecret}`,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        })
      ).status,
    ).toBe(401);
    // A temporary password, made by the worker and mailed.
    const email = `temp-${randomBytes(4).toString("hex")}@example.test`;
    await (await syncCaller(stack, t)).sync([{ externalEmployeeId: `T-${email}`, email, userAccount: { forcePasswordReset: true, sendWelcomeEmail: true } }]);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(email));
    const temporary = /Temporary password: (\S+)/.exec(mail.text)?.[1];
    expect(temporary).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await sleep(500);

    const secrets: Record<string, string> = {
      apiKey: t.apiKey,
      clientSecret: t.oauthClient.clientSecret,
      adminPassword: t.users.admin.password,
      inspectorPassword: t.users.inspector.password,
      newPassword,
      wrongSecret,
      clientToken,
      userToken,
      temporaryPassword: temporary!,
    };
    const found = (where: string, text: string) =>
      Object.entries(secrets)
        .filter(([, v]) => text.includes(v))
        .map(([k]) => `${k} in ${where}`);

    const rows = await everyRowAsText(stack.db.sql);
    expect(rows).toContain(t.organization.id); // the rows really hold this tenant
    expect(rows).toContain("public.oauth_clients\n"); // ... and the tables that hold the hashes

    const redis = new Redis(stack.env.REDIS_URL!);
    let redisText = "";
    try {
      for (const key of await redis.keys(`${stack.env.QUEUE_PREFIX}:*`)) {
        const type = await redis.type(key);
        const value =
          type === "string"
            ? await redis.get(key)
            : type === "hash"
              ? await redis.hgetall(key)
              : type === "list"
                ? await redis.lrange(key, 0, -1)
                : type === "set"
                  ? await redis.smembers(key)
                  : type === "zset"
                    ? await redis.zrange(key, 0, -1)
                    : type === "stream"
                      ? await redis.xrange(key, "-", "+")
                      : null;
        redisText += `${key} ${JSON.stringify(value)}\n`;
      }
    } finally {
      redis.disconnect();
    }
    expect(redisText.length).toBeGreaterThan(100); // the queues' keys were read
    expect([...found("logs", logs()), ...found("the database", rows), ...found("Redis", redisText)]).toEqual([]);
  });
});
