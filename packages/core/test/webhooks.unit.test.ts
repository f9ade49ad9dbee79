import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import {
  DEFAULT_RETRY_SCHEDULE,
  SecretBox,
  duration,
  eventTypeOf,
  targetPolicy,
  isAllowedAddress,
  newWebhookSecret,
  parseSchedule,
  retryDelayMs,
  sendWebhook,
  signedHeaders,
  urlProblem,
} from "../src/index.ts";

describe("webhook targets", () => {
  const prod = { httpsOnly: true, allowPrivate: false };
  it("refuses private, loopback, link-local and unspecified addresses unless allowed", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fc00::1",
      "0.0.0.0",
      "::ffff:127.0.0.1",
      "100.64.0.1",
    ]) {
      expect(isAllowedAddress(a, prod), a).toBe(false);
    }
    for (const a of ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(isAllowedAddress(a, prod), a).toBe(true);
    expect(isAllowedAddress("127.0.0.1", { allowPrivate: true })).toBe(true);
    expect(isAllowedAddress("0.0.0.0", { allowPrivate: true })).toBe(false);
  });

  it("is https only in production, unless private targets are allowed", () => {
    expect(targetPolicy({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE: false })).toEqual({ httpsOnly: true, allowPrivate: false });
    expect(targetPolicy({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE: true })).toEqual({ httpsOnly: false, allowPrivate: true });
    expect(targetPolicy({ NODE_ENV: "development", WEBHOOK_ALLOW_PRIVATE: false })).toEqual({ httpsOnly: false, allowPrivate: false });
  });

  it("checks URLs when they are registered: https in production, no credentials, no private literal or localhost", () => {
    expect(urlProblem("https://hooks.example.com/x", prod)).toBeNull();
    expect(urlProblem("http://hooks.example.com/x", prod)).toBe("url must use https");
    expect(urlProblem("http://hooks.example.com/x", { httpsOnly: false, allowPrivate: false })).toBeNull();
    expect(urlProblem("https://10.0.0.5/x", prod)).toMatch(/private address/);
    expect(urlProblem("https://[::1]/x", prod)).toMatch(/loopback address/);
    expect(urlProblem("https://169.254.169.254/latest/meta-data", prod)).toMatch(/linkLocal address/);
    expect(urlProblem("https://localhost/x", prod)).toMatch(/loopback/);
    expect(urlProblem("https://a:b@hooks.example.com/", prod)).toMatch(/credentials/);
    expect(urlProblem("ftp://hooks.example.com/", prod)).toMatch(/http/);
    expect(urlProblem("nonsense", prod)).toMatch(/absolute/);
  });
});

describe("sendWebhook", () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      if (req.url === "/redirect") res.writeHead(302, { location: "/ok" }).end();
      else if (req.url === "/slow") setTimeout(() => res.writeHead(200).end("late"), 2000);
      else res.writeHead(200).end("x".repeat(5000));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("refuses, at connection time, a host name that resolves to a loopback address", async () => {
    const before = hits;
    const r = await sendWebhook(`http://localhost:${port}/ok`, {}, "{}", { httpsOnly: false, allowPrivate: false, timeoutMs: 2000 });
    expect(r.statusCode).toBeNull();
    expect(r.error).toMatch(/localhost resolves to .*(127\.0\.0\.1|::1).*not allowed/);
    expect(hits).toBe(before);
    const literal = await sendWebhook(`http://127.0.0.1:${port}/ok`, {}, "{}", { httpsOnly: false, allowPrivate: false, timeoutMs: 2000 });
    expect(literal.error).toMatch(/not an allowed address/);
    expect(hits).toBe(before);
  });

  it("keeps the first 1 KB of the answer, does not follow redirects and gives up after the timeout", async () => {
    const opts = { httpsOnly: false, allowPrivate: true, timeoutMs: 500 };
    const ok = await sendWebhook(`http://localhost:${port}/ok`, {}, "{}", opts);
    expect(ok).toMatchObject({ statusCode: 200, error: null });
    expect(ok.response).toHaveLength(1024);
    const before = hits;
    expect((await sendWebhook(`http://127.0.0.1:${port}/redirect`, {}, "{}", opts)).statusCode).toBe(302);
    expect(hits).toBe(before + 1);
    const slow = await sendWebhook(`http://127.0.0.1:${port}/slow`, {}, "{}", opts);
    expect(slow).toMatchObject({ statusCode: null, error: "no answer within 500 ms" });
    expect(slow.durationMs).toBeGreaterThanOrEqual(450);
  });
});

describe("webhook signing, secrets and schedule", () => {
  it("signs so the standardwebhooks library verifies with either secret", () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ id: "e1", type: "template.created" });
    const headers = signedHeaders([a, b], "e1", body);
    expect(headers["webhook-id"]).toBe("e1");
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(body.replace("e1", "e2"), headers)).toThrow();
  });

  it("seals secrets so only the same key opens them", () => {
    const s = newWebhookSecret();
    const sealed = new SecretBox("k".repeat(32)).seal(s);
    expect(sealed).not.toContain(s.slice(6));
    expect(new SecretBox("k".repeat(32)).open(sealed)).toBe(s);
    expect(() => new SecretBox("j".repeat(32)).open(sealed)).toThrow();
  });

  it("retries on the Standard Webhooks schedule for more than 24 hours, with jitter", () => {
    expect(DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE, 1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE, 2, () => 0)).toBe(270_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE, 2, () => 1)).toBe(330_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE, 8)).toBeNull();
    expect(parseSchedule("0, 1,2")).toEqual([0, 1, 2]);
    expect(parseSchedule("1,x")).toBeNull();
    expect(parseSchedule(undefined)).toBe(DEFAULT_RETRY_SCHEDULE);
  });

  it("says how long an endpoint failed in words", () => {
    expect(duration(432_000)).toBe("5 days");
    expect(duration(86_400)).toBe("1 day");
    expect(duration(7200)).toBe("2 hours");
    expect(duration(90)).toBe("90 seconds");
  });

  it("maps change-log rows to event types", () => {
    expect(eventTypeOf("employee", "deactivated")).toBe("employee.deactivated");
    expect(eventTypeOf("sync_request", "completed")).toBe("sync.request.completed");
    expect(eventTypeOf("inspection", "updated")).toBe("inspection.updated");
    expect(eventTypeOf("template", "draft_created")).toBe("template.draft_created");
    expect(eventTypeOf("employee", "published")).toBeNull();
  });
});
