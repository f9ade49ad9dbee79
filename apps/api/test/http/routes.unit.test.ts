import { describe, expect, it } from "vitest";
import { operations, type Operation } from "@insp/contracts";
import { createApp } from "../../src/app.ts";
import type { Deps } from "../../src/deps.ts";
import { loadApiEnv } from "../../src/env.ts";
import { OPERATION, expressPath } from "../../src/http/route.ts";

/**
 * Every route the app mounts comes from one operation definition (contracts' defineOperation),
 * and every definition is mounted: the two sets of method and path are the same. Operator
 * endpoints that are not operations (CONTRIBUTING.md, Routes) are the only routes allowed
 * without one.
 */
const OPERATOR_ROUTES = ["GET /openapi.json", "GET /docs", "GET /metrics"].map((r) => `${r} (mounted by hand)`);

type Layer = { route?: { path: string; methods: Record<string, boolean>; stack: Layer[] }; handle?: { stack?: Layer[]; [OPERATION]?: Operation } };

/**
 * Method and path of each route in a router's stack, nested routers included: as its operation
 * says when it was bound with route(), as Express has it when it was mounted by hand (so it
 * counts as having no definition).
 */
function mounted(stack: Layer[]): string[] {
  return stack.flatMap((layer) => {
    if (!layer.route) return layer.handle?.stack ? mounted(layer.handle.stack) : [];
    const op = layer.route.stack.map((l) => l.handle?.[OPERATION]).find(Boolean);
    if (op) return [`${op.method.toUpperCase()} ${expressPath(op.path)}`];
    return Object.keys(layer.route.methods)
      .filter((m) => m !== "_all")
      .map((m) => `${m.toUpperCase()} ${layer.route!.path} (mounted by hand)`);
  });
}

/** Enough of the dependencies to build the app (nothing is called while routes are mounted). */
function stubDeps(): Deps {
  const env = loadApiEnv({ ...process.env, METRICS_TOKEN: "metrics-token-for-the-route-list" });
  const inert: object = new Proxy(function () {}, { get: (_t, key) => (key === "then" ? undefined : inert), apply: () => inert });
  return {
    env,
    db: inert,
    dbHandle: inert,
    redis: inert,
    queues: inert,
    waiter: inert,
    tokens: inert,
    logger: inert,
    media: inert,
    metrics: { registry: inert, httpDuration: inert },
  } as unknown as Deps;
}

describe("routes and operation definitions", () => {
  const app = createApp(stubDeps()) as unknown as { router: { stack: Layer[] } };
  const routes = new Set(mounted(app.router.stack));
  const defined = new Set(operations.map((op) => `${op.method.toUpperCase()} ${expressPath(op.path)}`));

  it("finds the app's routes", () => {
    expect(routes).toContain("GET /api/templates/:id");
    expect(routes).toContain("GET /metrics (mounted by hand)");
  });

  it("mounts no route without a definition", () => {
    expect([...routes].filter((r) => !defined.has(r) && !OPERATOR_ROUTES.includes(r))).toEqual([]);
  });

  it("mounts every definition", () => {
    expect([...defined].filter((d) => !routes.has(d))).toEqual([]);
  });

  it("defines each operation once", () => {
    const seen = operations.map((op) => `${op.method} ${op.path}`);
    expect(seen.filter((s, i) => seen.indexOf(s) !== i)).toEqual([]);
  });
});
