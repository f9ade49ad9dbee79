import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startApi, startStack, type ApiProcess, type Stack } from "@insp/testing";

/**
 * Browser-facing headers on every answer of the API (docs/authentication.md, Security headers):
 * nosniff, no framing, no referrer, a Content Security Policy that lets an API answer load and
 * run nothing and lets /docs run only its own files, and HSTS only when HSTS_MAX_AGE_SECONDS
 * says the service is reached over TLS. That the pages still work under their policies is
 * checked in a real browser (docs.browser.int.test.ts).
 */

let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack({ env: { BODY_LIMIT_MB: "1" } });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

/** What the API answers for `path`, headers lowercased; redirects are not followed. */
async function answer(baseUrl: string, method: string, path: string, { headers, body }: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${baseUrl}${path}`, { method, redirect: "manual", headers, body });
  await res.arrayBuffer();
  return { status: res.status, header: (name: string) => res.headers.get(name) };
}

interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}

/** Every kind of answer a client or a browser may get. */
const cases = (): Case[] => [
  { name: "an API answer (200)", method: "GET", path: "/api/templates", headers: { authorization: `Bearer ${t.apiKey}` }, status: 200 },
  { name: "a 401", method: "GET", path: "/api/templates", status: 401 },
  { name: "a 404", method: "GET", path: "/api/nothing-here", headers: { authorization: `Bearer ${t.apiKey}` }, status: 404 },
  { name: "a 400", method: "POST", path: "/api/auth/login", headers: { "content-type": "application/json" }, body: '{"email":', status: 400 },
  {
    name: "a 413",
    method: "POST",
    path: "/api/auth/login",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: "x".repeat(1_200_000) }),
    status: 413,
  },
  { name: "/openapi.json", method: "GET", path: "/openapi.json", status: 200 },
  { name: "/healthz", method: "GET", path: "/healthz", status: 200 },
  { name: "/docs/ (Swagger UI)", method: "GET", path: "/docs/", status: 200 },
  { name: "/docs (its redirect)", method: "GET", path: "/docs", status: 301 },
  { name: "a Swagger UI script", method: "GET", path: "/docs/swagger-ui-init.js", status: 200 },
];

describe("security headers", () => {
  it("every answer: nosniff, no framing (CSP frame-ancestors and X-Frame-Options), no referrer, no HSTS by default", async () => {
    for (const c of cases()) {
      const res = await answer(stack.api.baseUrl, c.method, c.path, c);
      const got = {
        status: res.status,
        nosniff: res.header("x-content-type-options"),
        frameOptions: res.header("x-frame-options"),
        frameAncestors: /(^|;)\s*frame-ancestors 'none'(;|$)/.test(res.header("content-security-policy") ?? ""),
        referrer: res.header("referrer-policy"),
        hsts: res.header("strict-transport-security"),
      };
      expect({ case: c.name, ...got }).toEqual({
        case: c.name,
        status: c.status,
        nosniff: "nosniff",
        frameOptions: "DENY",
        frameAncestors: true,
        referrer: "no-referrer",
        hsts: null,
      });
    }
  });

  it("API answers get a policy that loads and runs nothing; /docs only its own scripts", async () => {
    for (const c of cases().filter((x) => !x.path.startsWith("/docs"))) {
      expect({ case: c.name, csp: (await answer(stack.api.baseUrl, c.method, c.path, c)).header("content-security-policy") }).toEqual({
        case: c.name,
        csp: API_CSP,
      });
    }
    const docs = (await answer(stack.api.baseUrl, "GET", "/docs/")).header("content-security-policy")!;
    const directives = Object.fromEntries(docs.split(";").map((d) => [d.trim().split(" ")[0], d.trim().split(" ").slice(1)]));
    expect(directives).toMatchObject({ "default-src": ["'none'"], "script-src": ["'self'"], "connect-src": ["'self'"], "frame-ancestors": ["'none'"] });
    // No inline or evaluated script, and nothing from another origin.
    expect(docs).not.toMatch(/unsafe-eval|https?:/);
    expect(directives["script-src"]).not.toContain("'unsafe-inline'");
    // Express matches /DOCS/ as /docs/: it gets the same page under the same policy.
    expect((await answer(stack.api.baseUrl, "GET", "/DOCS/")).header("content-security-policy")).toBe(docs);
  });

  it("HSTS_MAX_AGE_SECONDS turns HSTS on for every answer (without subdomains)", async () => {
    const api: ApiProcess = await startApi({ ...stack.env, BODY_LIMIT_MB: "1", HSTS_MAX_AGE_SECONDS: "31536000" });
    try {
      for (const c of cases()) {
        const res = await answer(api.baseUrl, c.method, c.path, c);
        expect({ case: c.name, status: res.status, hsts: res.header("strict-transport-security") }).toEqual({
          case: c.name,
          status: c.status,
          hsts: "max-age=31536000",
        });
      }
    } finally {
      await api.stop();
    }
  });

  it("a setting that is not a number of seconds stops the API at start, naming it", async () => {
    const api = startApi({ ...stack.env, HSTS_MAX_AGE_SECONDS: "one year" });
    await expect(api).rejects.toThrow(/HSTS_MAX_AGE_SECONDS/);
  });
});
