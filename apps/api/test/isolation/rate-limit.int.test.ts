import { randomBytes } from "node:crypto";
import { once } from "node:events";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { client, startApi, startStack, type ApiProcess, type Stack } from "@insp/testing";

let stack: Stack;
let second: ApiProcess;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: "5", AUTH_FAILURES_PER_MINUTE: "4" } });
  // A second API replica on the same Redis: the count is shared.
  second = await startApi(stack.env);
  t = await stack.tenant();
});
afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

describe("rate limit per credential, shared by replicas", () => {
  it("puts RateLimit headers on every response and answers 429 with Retry-After past the limit", async () => {
    const a = client(stack.api.baseUrl, { bearer: t.apiKey });
    const b = client(second.baseUrl, { bearer: t.apiKey });
    const statuses: number[] = [];
    const first = await a.get("/api/templates");
    expect(first.headers.get("ratelimit-limit")).toBe("5");
    expect(first.headers.get("ratelimit-remaining")).toBe("4");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    statuses.push(first.status);
    for (let i = 0; i < 4; i++) statuses.push((await (i % 2 ? a : b).get("/api/templates")).status);
    const limited = await b.get("/api/templates");
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Rate limit exceeded/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("counts each credential on its own", async () => {
    const other = await stack.tenant();
    const res = await client(stack.api.baseUrl, { bearer: other.apiKey }).get("/api/templates");
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe("4");
  });
});

describe("requests the client abandons", () => {
  it("are not failed authentications: an address that cancels many requests is not locked out", async () => {
    const { port, hostname } = new URL(stack.api.baseUrl);
    // More abandoned requests than AUTH_FAILURES_PER_MINUTE (4), each with a valid key of its own
    // (the per-credential limit is 5): headers and the start of a body, then the client leaves.
    for (let i = 0; i < 6; i++) {
      const key = (await stack.tenant()).apiKey;
      const socket = net.connect(Number(port), hostname);
      await once(socket, "connect");
      socket.write(
        `POST /api/inspections HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"answers": [`,
      );
      await new Promise((r) => setTimeout(r, 300));
      socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 300));
    const res = await client(stack.api.baseUrl, { bearer: (await stack.tenant()).apiKey }).get("/api/templates");
    expect(res.status).toBe(200);
  });
});

// Last in this file: once an address is blocked, all its requests get 429 for the window.
describe("failed authentication per client address", () => {
  it("stops a caller who sends a new random credential with every request", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const random = `isk_${randomBytes(32).toString("base64url")}`;
      statuses.push((await client(stack.api.baseUrl, { bearer: random }).get("/api/templates")).status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const limited = await client(second.baseUrl).post("/api/auth/login", { email: "someone@example.test", password: "guess" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/failed authentication/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
