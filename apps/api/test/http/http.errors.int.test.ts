import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { scimCaller } from "../fixtures/scim.fixtures.ts";

let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  // LOG_LEVEL info: every request is logged, so the redaction test below can fail.
  stack = await startStack({ env: { BODY_LIMIT_MB: "1", LOG_LEVEL: "info" } });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

describe("errors are JSON with the right status", () => {
  it("malformed JSON is a 400 {error}", async () => {
    const res = await stack.http.request("POST", "/api/auth/login", { rawBody: '{"email":', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Malformed JSON in request body" });
  });

  it("a body over BODY_LIMIT_MB is a 413 {error}", async () => {
    const res = await stack.http.post("/api/auth/login", { email: "a@b.c", password: "x".repeat(1_200_000) });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/too large/);
  });

  it("an unknown route is a 404 {error}, never HTML", async () => {
    const res = await stack.http.get("/api/nothing-here", { auth: { bearer: t.apiKey } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.body.error).toMatch(/No route/);
  });

  it("a schema violation lists each bad field in details", async () => {
    const res = await stack.http.post("/api/auth/login", { email: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request body");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.stringMatching(/^email/), expect.stringMatching(/^password/)]));
  });

  it("a NUL character in a JSON string or in the URL is a 400, not a database error", async () => {
    const body = await stack.http.post("/api/auth/login", { email: "a\u0000@b.c", password: "x" });
    expect(body.status).toBe(400);
    expect(body.body.error).toMatch(/NUL character/);
    const query = await stack.http.get("/api/inspections?templateId=%00", { auth: { bearer: t.apiKey } });
    expect(query.status).toBe(400);
    expect(query.body.error).toMatch(/NUL character/);
  });

  it("an unpaired UTF-16 surrogate in a JSON string or key is a 400 on every body (jsonb cannot store one); a proper pair is accepted", async () => {
    const json = { "content-type": "application/json" };
    // Bodies are read once the caller is known: each with a credential its route takes.
    const sync = await syncToken(stack, t);
    const lone = [
      ['{"templateId":"x","answers":[{"questionId":"q","answerText":"broken \\ud800 text"}]}', "/api/inspections", t.apiKey],
      ['{"employees":[{"externalEmployeeId":"E1","metadata":{"\\udc00key":1}}]}', "/api/v1/sync/employees", sync],
      ['{"name":"\\ud83d","type":"AUDIT","sections":[]}', "/api/templates", t.apiKey],
    ];
    for (const [rawBody, path, bearer] of lone) {
      const res = await stack.http.request("POST", path!, { rawBody, headers: { ...json, authorization: `Bearer ${bearer}` } });
      expect({ path, status: res.status, error: res.body.error }).toEqual({
        path,
        status: 400,
        error: "Request body contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF), which is not valid Unicode text",
      });
    }
    // An emoji written as an escaped pair is fine: the body passes the door and meets the usual checks.
    const pair = await stack.http.request("POST", "/api/auth/login", { rawBody: '{"email":"\\ud83d\\ude00@b.c","password":"x"}', headers: json });
    expect(pair.status).toBe(401);
  });

  it("a body nested deeper than 64 levels is a 400 before any code walks it (2,500 levels overflowed SCIM's stack: a 500)", async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const deep = await stack.http.request("POST", "/api/templates", {
      rawBody: `{"name":"x","x":${nested(2_500)}}`,
      headers: { "content-type": "application/json" },
      auth: { bearer: t.apiKey },
    });
    expect(deep).toMatchObject({ status: 400, body: { error: "Request body contains JSON nested deeper than 64 levels" } });
    const scim = await stack.http.request("POST", "/scim/v2/Users", {
      rawBody: `{"userName":"x","name":${nested(2_500)}}`,
      headers: { "content-type": "application/scim+json" },
      auth: { bearer: (await scimCaller(stack, t)).token },
    });
    // SCIM answers the malformed body in its own shape.
    expect(scim).toMatchObject({ status: 400, body: { status: "400", scimType: "invalidSyntax" } });
    // 63 levels inside the body (64 with it) is still JSON the API reads: the template's own checks answer.
    const fine = await stack.http.request("POST", "/api/templates", {
      rawBody: `{"name":"x","x":${nested(62)}}`,
      headers: { "content-type": "application/json" },
      auth: { bearer: t.apiKey },
    });
    expect(fine.status).toBe(400);
    expect(fine.body.error).not.toMatch(/nested deeper/);
  });

  it("badly percent-encoded Basic client credentials are invalid_client, not a 500", async () => {
    const res = await stack.http.request("POST", "/oauth/token", {
      rawBody: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("%E0%A4%A:secret").toString("base64")}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_client");
  });

  it("echoes a caller's X-Request-Id, and makes one when absent", async () => {
    const given = await stack.http.get("/healthz", { headers: { "x-request-id": "trace-abc.123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-abc.123");
    const made = await stack.http.get("/healthz");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("operations endpoints", () => {
  it("/healthz and /readyz report ok with Postgres and Redis up", async () => {
    expect((await stack.http.get("/healthz")).body).toEqual({ status: "ok" });
    expect(await stack.http.get("/readyz")).toMatchObject({ status: 200, body: { status: "ready", postgres: "up", redis: "up" } });
  });

  it("/openapi.json is an OpenAPI 3.1 document and /docs renders it", async () => {
    const doc = await stack.http.get("/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/oauth/token", "/api/auth/login", "/api/templates"]));
    const docs = await fetch(`${stack.api.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger-ui/i);
  });

  it("logs requests but neither the API key nor the password", async () => {
    await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password }, { auth: { bearer: t.apiKey } });
    await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: "wrong-password" });
    await stack.http.get("/api/templates", { auth: { bearer: t.apiKey } });
    await stack.http.get("/api/templates", { auth: { basic: [t.apiKey, ""] } });
    const out = stack.api.output();
    expect(out).toMatch(/"path":"\/api\/templates"/);
    expect(out).toMatch(/"statusCode":401/);
    expect(out).not.toContain("wrong-password");
    expect(out).not.toContain(t.apiKey);
    expect(out).not.toContain(t.users.admin.password);
  });
});
