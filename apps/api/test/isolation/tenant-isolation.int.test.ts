import { execFile } from "node:child_process";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createOAuthClient, type DemoSeed } from "@insp/core";
import { client, startStack, type Stack } from "@insp/testing";
import { syncToken } from "../fixtures/employee-sync.fixtures.ts";

/**
 * What one caller, anonymous or a tenant, can do to the others through the HTTP front
 * (docs/authentication.md, Limits): bodies are read only once the caller is known and are
 * bounded in values as well as bytes; limits count per principal and per organization.
 */

const MB = 1024 * 1024;
const METRICS_TOKEN = "isolation-test-metrics-token";

/** `[0,0,0,...]` of about `total` bytes, made as it is read: 20 million values in 40 MB. */
function tinyValues(total: number): { body: Readable; sent: { bytes: number } } {
  const sent = { bytes: 0 };
  const chunk = Buffer.from("0,".repeat(32 * 1024));
  const body = Readable.from(
    (function* () {
      yield Buffer.from("[");
      while (sent.bytes < total) {
        sent.bytes += chunk.length;
        yield chunk;
      }
      yield Buffer.from("0]");
    })(),
  );
  return { body, sent };
}

interface Sent {
  status: number | undefined;
  json: unknown;
  /** Bytes of the body the client had handed to its socket when the answer came. */
  sentWhenAnswered: number;
  error?: string;
}

/** POSTs a 40 MB body of tiny values with Node's http client (it sends while it waits for the answer). */
function postTinyValues(baseUrl: string, path: string, authorization?: string): Promise<Sent> {
  const { port } = new URL(baseUrl);
  const { body, sent } = tinyValues(40 * MB);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: Number(port),
        method: "POST",
        path,
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      },
      (res) => {
        const sentWhenAnswered = sent.bytes;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          body.destroy();
          resolve({ status: res.statusCode, json: JSON.parse(text), sentWhenAnswered });
        });
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ status: undefined, json: null, sentWhenAnswered: sent.bytes, error: err.code ?? err.message }));
    body.pipe(req);
  });
}

/** Sends postTinyValues's body from a child process for each authorization at once; answers their statuses. */
function floodFromAnotherProcess(baseUrl: string, authorizations: (string | undefined)[]): Promise<{ status: number | undefined }[]> {
  const script = `
    import { execFile } from "node:child_process";
import http from "node:http";
    const [url, auths] = [process.argv[1], JSON.parse(process.argv[2])];
    const { port } = new URL(url);
    const chunk = Buffer.from("0,".repeat(32 * 1024));
    const send = (authorization) => new Promise((resolve) => {
      let sent = 0, stopped = false;
      const req = http.request({ host: "127.0.0.1", port: Number(port), method: "POST", path: "/api/inspections", headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) } }, (res) => {
        stopped = true;
        res.resume();
        res.on("end", () => { req.destroy(); resolve({ status: res.statusCode }); });
      });
      req.on("error", () => resolve({ status: undefined }));
      req.write("[");
      const pump = () => { while (!stopped && sent < 40 * 1024 * 1024) { sent += chunk.length; if (!req.write(chunk)) return req.once("drain", pump); } if (!stopped) req.end("0]"); };
      pump();
    });
    process.stdout.write(JSON.stringify(await Promise.all(auths.map((a) => send(a ?? undefined)))));`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, baseUrl, JSON.stringify(authorizations.map((a) => a ?? null))],
      { timeout: 60_000 },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as { status: number | undefined }[])),
    );
  });
}

/** One sample of a Prometheus text exposition. */
const sample = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN);

describe("bodies are read only once the caller is known, and bounded in values", () => {
  let stack: Stack;
  let a: DemoSeed;
  let b: DemoSeed;
  beforeAll(async () => {
    stack = await startStack({
      env: { METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_ORG_PER_MINUTE: "100000", AUTH_FAILURES_PER_MINUTE: "100000" },
    });
    [a, b] = [await stack.tenant(), await stack.tenant()];
  });
  afterAll(() => stack?.stop());

  it("an anonymous 40 MB body gets its 401 at once, before the client has sent it", async () => {
    const res = await postTinyValues(stack.http.baseUrl, "/api/inspections");
    expect(res).toMatchObject({ status: 401, json: { error: "Missing credentials: send an Authorization header" } });
    // Before: the whole body was read and parsed (20 s) before the credential was looked at.
    expect(res.sentWhenAnswered).toBeLessThan(40 * MB);
  });

  it("a tenant's 40 MB body of tiny values is refused (413, JSON_MAX_VALUES) after its first values, never parsed whole", async () => {
    const res = await postTinyValues(stack.http.baseUrl, "/api/inspections", `Bearer ${a.apiKey}`);
    expect(res).toMatchObject({ status: 413, json: { error: "Request body holds more than 200000 JSON values (JSON_MAX_VALUES)" } });
    expect(res.sentWhenAnswered).toBeLessThan(40 * MB);
  });

  it("a compressed body is counted once inflated, before it is parsed", async () => {
    const { gzipSync } = await import("node:zlib");
    const body = gzipSync(Buffer.from(`[${"0,".repeat(300_000)}0]`));
    const res = await client(stack.http.baseUrl).request("POST", "/api/templates", {
      rawBody: body as unknown as string,
      headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${a.apiKey}` },
    });
    expect(res).toMatchObject({ status: 413, body: { error: "Request body holds more than 200000 JSON values (JSON_MAX_VALUES)" } });
  });

  it("while four such bodies arrive at once (two anonymous, two of a tenant), another tenant's list answers within 500 ms and the event loop stays responsive", async () => {
    const other = client(stack.http.baseUrl, { bearer: b.apiKey });
    const metrics = () => stack.http.get("/metrics", { auth: { bearer: METRICS_TOKEN } }).then((r) => r.text);
    /** The other tenant's list every 50 ms until `done()`, at least 10 times: each answer's time. */
    const listWhile = async (done: () => boolean) => {
      const latencies: number[] = [];
      while (!done() || latencies.length < 10) {
        const started = performance.now();
        const res = await other.get("/api/inspections");
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      return latencies;
    };
    // The same requests without the flood first, on the same machine as it is now (other test
    // files share its cores): the bounds below are the issue's, or three times this, if more.
    await metrics(); // the event-loop delay histogram restarts at each scrape
    const calm = await listWhile(() => true);
    const calmLag = sample(await metrics(), "insp_nodejs_eventloop_lag_p99_seconds");
    // Sent by another process: this one only measures (sending 160 MB would hold its own event loop).
    const flood = floodFromAnotherProcess(stack.http.baseUrl, [undefined, undefined, `Bearer ${a.apiKey}`, `Bearer ${a.apiKey}`]);
    let done = false;
    void flood.then(() => (done = true));
    const latencies = await listWhile(() => done);
    const answers = await flood;
    expect(answers.map((r) => r.status)).toEqual([401, 401, 413, 413]);
    const lagP99 = sample(await metrics(), "insp_nodejs_eventloop_lag_p99_seconds");
    const ms = (xs: number[]) => xs.map((l) => l.toFixed(0)).join(" ");
    console.log(
      `[isolation] other tenant's list, calm: ${ms(calm)} ms (lag p99 ${(calmLag * 1000).toFixed(0)} ms); during the flood: ${ms(latencies)} ms (lag p99 ${(lagP99 * 1000).toFixed(0)} ms)`,
    );
    // Before: up to 19 s for /healthz, as long for every other tenant. One answer may meet the
    // other test files that share these cores: the bound holds for nine in ten of them, and none
    // may come near the seconds the parse took.
    const p90 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.ceil(0.9 * xs.length) - 1]!;
    expect(p90(latencies)).toBeLessThan(Math.max(500, 3 * p90(calm)));
    expect(Math.max(...latencies)).toBeLessThan(2_000);
    expect(lagP99).toBeLessThan(Math.max(0.2, 3 * calmLag));
  });
});

describe("request limits count per principal and per organization", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: "5", RATE_LIMIT_ORG_PER_MINUTE: "8" } });
  });
  afterAll(() => stack?.stop());

  it("two tokens of one OAuth client share its allowance: a new token starts nothing new", async () => {
    const t = await stack.tenant();
    const [first, second] = [await syncToken(stack, t), await syncToken(stack, t)];
    expect(first).not.toBe(second);
    const statuses: number[] = [];
    for (const token of [first, first, first, second, second])
      statuses.push((await client(stack.http.baseUrl, { bearer: token }).get("/api/v1/employees")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await client(stack.http.baseUrl, { bearer: await syncToken(stack, t) }).get("/api/v1/employees");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-scope")).toBe("principal");
    expect(limited.body.error).toMatch(/this credential's 5 requests per 60 s \(RATE_LIMIT_PER_MINUTE\)/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("many keys of one organization share its allowance; another organization is untouched", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const keys = [t.apiKey, (await createApiKey(stack.db.db, t.organization.id, "second")).apiKey];
    const seen: { status: number; scope: string | null; remaining: string | null }[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await client(stack.http.baseUrl, { bearer: keys[i % 2]! }).get("/api/templates");
      seen.push({ status: res.status, scope: res.headers.get("ratelimit-scope"), remaining: res.headers.get("ratelimit-remaining") });
    }
    expect(seen.every((s) => s.status === 200)).toBe(true);
    // Each key has made 4 of its 5, the organization 8 of its 8: the organization's limit is the one that binds.
    expect(seen.at(-1)).toEqual({ status: 200, scope: "organization", remaining: "0" });
    const limited = await client(stack.http.baseUrl, { bearer: keys[0]! }).get("/api/templates");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-scope")).toBe("organization");
    expect(limited.body.error).toMatch(/the organization's 8 requests per 60 s across all its credentials \(RATE_LIMIT_ORG_PER_MINUTE\)/);
    expect(limited.headers.get("ratelimit-policy")).toBe('5;w=60;name="principal", 8;w=60;name="organization"');
    const fine = await client(stack.http.baseUrl, { bearer: other.apiKey }).get("/api/templates");
    expect(fine.status).toBe(200);
    expect(fine.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("a user counts as one principal across logins", async () => {
    const t = await stack.tenant();
    const login = async () =>
      (await stack.http.post("/api/auth/login", { email: t.users.admin.email, password: t.users.admin.password })).body.accessToken as string;
    const tokens = [await login(), await login()];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client(stack.http.baseUrl, { bearer: tokens[i % 2]! }).get("/api/templates")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("a client used by SCIM and sync counts once, whatever the route", async () => {
    const t = await stack.tenant();
    const scim = await createOAuthClient(stack.db.db, t.organization.id, "idp", undefined, ["scim"]);
    const token = await syncToken(stack, { oauthClient: { clientId: scim.clientId, clientSecret: scim.clientSecret } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client(stack.http.baseUrl, { bearer: token }).get(i % 2 ? "/scim/v2/Users" : "/scim/v2/Groups")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
