import { describe, expect, it } from "vitest";
import { backoffDelay, isNetworkError, parseRetryAfter, retryDelay } from "../src/http/backoff.ts";
import { idempotencyKey } from "../src/state/state-file.ts";

describe("backoff with full jitter", () => {
  it("draws from [0, min(cap, base * 2^attempt))", () => {
    const opts = { baseMs: 500, capMs: 30_000 };
    expect(backoffDelay(0, opts, () => 0)).toBe(0);
    expect(backoffDelay(0, opts, () => 0.999)).toBe(499);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(2000);
    expect(backoffDelay(6, opts, () => 0.999)).toBe(29_970);
    expect(backoffDelay(60, opts, () => 0.999)).toBe(29_970);
    for (let i = 0; i < 200; i++) expect(backoffDelay(i % 12, opts)).toBeLessThan(30_000);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-03-01T10:00:00Z");
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Mar 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 09:00:00 GMT", now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    for (const v of [null, undefined, "", "-1", "1.5", "soon", "12abc"]) expect(parseRetryAfter(v, now)).toBeNull();
  });
  it("is preferred to backoff when present", () => {
    expect(retryDelay(5, "3", { baseMs: 500, capMs: 30_000 }, () => 0.9, now)).toBe(3000);
    expect(retryDelay(2, null, { baseMs: 500, capMs: 30_000 }, () => 0.5, now)).toBe(1000);
    // A Retry-After of an hour (a maintenance page) waits five minutes at most.
    expect(retryDelay(1, "3600", { baseMs: 500, capMs: 30_000 }, () => 0.5, now)).toBe(300_000);
  });
});

describe("network errors", () => {
  it("are recognised through fetch's cause", () => {
    expect(isNetworkError(Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) }))).toBe(true);
    expect(isNetworkError(Object.assign(new Error("socket"), { code: "ECONNRESET" }))).toBe(true);
    expect(isNetworkError(new Error("something else"))).toBe(false);
    expect(isNetworkError(new DOMException("aborted", "AbortError"))).toBe(false);
  });
});

describe("idempotency keys", () => {
  it("are the run id and the batch number, fit the server's key format and are stable", () => {
    expect(idempotencyKey("rabc123", 7)).toBe("rabc123-7");
    expect(idempotencyKey("rabc123", 7)).toBe(idempotencyKey("rabc123", 7));
    expect(idempotencyKey("rabc123", 7)).not.toBe(idempotencyKey("rabc123", 8));
    expect(idempotencyKey("rabc123", 12345)).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});
