import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { client, startApi, startProcess, startStack, type ApiProcess, type Stack } from "@insp/testing";

/**
 * Password guessing per account (docs/authentication.md, Password guessing), with the API behind
 * one trusted proxy hop (TRUST_PROXY=1): the test plays the proxy, so the X-Forwarded-For it
 * sends is the client address the API sees, and a new address per request is an attacker with
 * as many addresses as it likes (a botnet, or forged headers behind a proxy trusted too much).
 *
 * Two API processes on one database and Redis: `stack.api` keeps an account in back-off for a
 * minute from the first back-off on (nothing in a test outlasts it, however slow the machine),
 * `quick` for one second, doubled up to two, so that a test can wait for the end of one.
 */

let stack: Stack;
let quick: ApiProcess;

const settings = { TRUST_PROXY: "1", LOGIN_FAILURES_BEFORE_BACKOFF: "3", AUTH_FAILURES_PER_MINUTE: "5" };

beforeAll(async () => {
  stack = await startStack({ env: { ...settings, LOGIN_BACKOFF_FIRST_SECONDS: "60", LOGIN_BACKOFF_MAX_SECONDS: "60" } });
  quick = await startApi({ ...stack.env, LOGIN_BACKOFF_FIRST_SECONDS: "1", LOGIN_BACKOFF_MAX_SECONDS: "2" });
});
afterAll(async () => {
  await quick?.stop();
  await stack?.stop();
});

/** A client address no other request of this file uses (TEST-NET-2, then TEST-NET-3). */
let next = 0;
const newAddress = () => {
  next++;
  return `${next < 256 ? "198.51.100" : "203.0.113"}.${next % 256}`;
};

function signIn(email: string, password: string, forwardedFor: string, baseUrl = stack.api.baseUrl) {
  return client(baseUrl).post("/api/auth/login", { email, password }, { headers: { "x-forwarded-for": forwardedFor } });
}

function changePassword(token: string, currentPassword: string, forwardedFor: string) {
  return client(stack.api.baseUrl, { bearer: token }).post(
    "/api/auth/password",
    { currentPassword, newPassword: "a long enough new password" },
    { headers: { "x-forwarded-for": forwardedFor } },
  );
}

const failedLogins = async (userId: string) =>
  Number((await stack.db.sql<{ n: string }[]>`select count(*) as n from audit_log where resource_id = ${userId} and action = 'user.login_failed'`)[0]!.n);

function expectBackOff(res: { status: number; headers: Headers; body: { error?: string } }, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body.error).toBe("Too many failed sign-ins for this account: retry after the Retry-After period");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe("wrong passwords counted per account, from any address", () => {
  it("limits 60 wrong passwords from 60 addresses: 429 with Retry-After once the account is in back-off, without checking the password", async () => {
    const t: DemoSeed = await stack.tenant();
    const { email, id, password } = t.users.inspector;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await signIn(email, `wrong password ${i}`, newAddress());
      statuses.push(res.status);
      if (res.status === 429) expectBackOff(res, 60);
    }
    // Before: 60 times 401, as each address had made one attempt only.
    expect(statuses).toEqual([401, 401, 401, ...Array<number>(57).fill(429)]);
    // Not even the right password is checked during the back-off, from an address never seen.
    expectBackOff(await signIn(email, password, newAddress()), 60);
    // Only the three checked attempts were audited as failed sign-ins.
    expect(await failedLogins(id)).toBe(3);
  });

  it("counts the e-mail in any case, and an unknown e-mail the same way, so the counting does not tell which accounts exist", async () => {
    const t = await stack.tenant();
    const upper = t.users.admin.email.toUpperCase();
    const unknown = `nobody-${randomUUID()}@example.test`;
    for (const email of [upper, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await signIn(email, "a guess", newAddress())).status);
      expect(statuses, email).toEqual([401, 401, 401, 429]);
    }
    expectBackOff(await signIn(t.users.admin.email, t.users.admin.password, newAddress()), 60);
  });

  it("counts a wrong currentPassword of a password change against the account", async () => {
    const t = await stack.tenant();
    const { email, password } = t.users.admin;
    const token = (await signIn(email, password, newAddress())).body.accessToken as string;
    for (let i = 0; i < 3; i++) {
      const res = await changePassword(token, `wrong current ${i}`, newAddress());
      expect(res).toMatchObject({ status: 400, body: { error: "currentPassword is incorrect" } });
    }
    // Before: the password change was not counted, and the login went through.
    expectBackOff(await signIn(email, password, newAddress()), 60);
    expectBackOff(await changePassword(token, password, newAddress()), 60);
  });
});

describe("an attacker cannot lock a user out", () => {
  it("checks the password of an address that signed in to the account before, during the back-off, and a success ends it", async () => {
    const t = await stack.tenant();
    const { email, password } = t.users.inspector;
    const home = newAddress();
    expect((await signIn(email, password, home)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signIn(email, "a guess", newAddress())).status).toBe(401);
    expectBackOff(await signIn(email, password, newAddress()), 60);
    // From home the password is checked: a wrong one is a 401 (counted against home's address
    // limit only), the right one signs in.
    expect((await signIn(email, "mistyped", home)).status).toBe(401);
    const back = await signIn(email, password, home);
    expect(back.status).toBe(200);
    expect(typeof back.body.accessToken).toBe("string");
    // The success started the count again: a new address signs in too.
    expect((await signIn(email, password, newAddress())).status).toBe(200);
  });

  it("lets the right password in again once the back-off is over", async () => {
    const t = await stack.tenant();
    const { email, password } = t.users.admin;
    let limited: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await signIn(email, `guess ${i}`, newAddress(), quick.baseUrl);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(401);
    }
    expect(limited, "no 429 after 40 wrong passwords").toBeDefined();
    expectBackOff(limited!, 2);
    await new Promise((r) => setTimeout(r, Number(limited!.headers.get("retry-after")) * 1000));
    expect((await signIn(email, password, newAddress(), quick.baseUrl)).status).toBe(200);
  });
});

describe("client addresses from trusted hops only (TRUST_PROXY=1)", () => {
  it("takes the right-most X-Forwarded-For entry, the one the proxy wrote, and ignores what the client wrote before it", async () => {
    const real = "192.0.2.77";
    const statuses: number[] = [];
    // Each request with a new forged left-most entry and a new unknown e-mail (no account
    // reaches its back-off): only the address limit (AUTH_FAILURES_PER_MINUTE=5) can stop them.
    for (let i = 0; i < 6; i++) statuses.push((await signIn(`nobody-${randomUUID()}@example.test`, "a guess", `10.9.8.${i}, ${real}`)).status);
    // Before (TRUST_PROXY=1 was "true"), the left-most entry was the address: six times 401.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The same forged entry before another client's address is that other client.
    expect((await signIn(`nobody-${randomUUID()}@example.test`, "a guess", `${real}, 192.0.2.78`)).status).toBe(401);
  });

  it("counts a wrong currentPassword against the address as well", async () => {
    const address = newAddress();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await stack.tenant();
      for (const u of [t.users.admin, t.users.inspector]) tokens.push((await signIn(u.email, u.password, newAddress())).body.accessToken as string);
    }
    // One wrong currentPassword per account (none reaches its back-off), all from one address.
    const statuses: number[] = [];
    for (const token of tokens) statuses.push((await changePassword(token, "not my password", address)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("refuses TRUST_PROXY=true at start: one line saying why and what to give instead, exit 78", async () => {
    const proc = startProcess("apps/api/src/main.ts", { ...stack.env, PORT: "0", TRUST_PROXY: "true" });
    // Before, it started and served: stopped here rather than left running.
    const code = await Promise.race([proc.exited, new Promise<string>((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    if (typeof code === "string") await proc.stop();
    expect(code, proc.output()).toBe(78);
    const lines = proc.output().trim().split("\n");
    expect(lines.filter((l) => l.includes("TRUST_PROXY"))).toEqual([
      '  - TRUST_PROXY: true would trust every address, so any client could choose the address the rate limits and the sign-in limits see by sending X-Forwarded-For; give the number of proxies in front of the API (e.g. 1) or their addresses (e.g. 10.0.0.0/8) (got "true")',
    ]);
    expect(proc.output()).not.toMatch(/^\s+at /m);
  });
});
