import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import {
  dashboardExpressions,
  freePort,
  parsePrometheusText,
  promqlMetricNames,
  sampleNames,
  startApi,
  startStack,
  startWorker,
  until,
  type ApiProcess,
  type Family,
  type RunningProcess,
  type Stack,
} from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

// /metrics of the API and of a worker (docs/operations.md, Metrics, dashboards and tracing): every family
// the dashboard needs, the token rule on each port, and no request content in any label.

const TOKEN = "metrics-token-for-tests-0123456789";
const QUEUES = ["employee-sync", "mail", "inspection-import", "inspection-report", "webhook"];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let stack: Stack;
let worker: RunningProcess;
let tenant: DemoSeed;
const ports = { apiMetrics: 0, health: 0, workerMetrics: 0 };

const scrape = async (url: string, token?: string) => {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const families = async (url: string, token?: string) => {
  const res = await scrape(url, token);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(res.text);
};
const apiMetrics = () => families(`${stack.api.baseUrl}/metrics`, TOKEN);
const workerMetrics = () => families(`http://127.0.0.1:${ports.health}/metrics`, TOKEN);
const value = (f: Map<string, Family>, family: string, name: string, labels: Record<string, string>) =>
  f.get(family)?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

/** The IPv4 address a local TCP port listens on (Linux /proc/net/tcp, state 0A = LISTEN). */
async function listeningAddress(port: number): Promise<string | undefined> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const rows = (await readFile("/proc/net/tcp", "utf8"))
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/));
  const local = rows.find((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === "0A")?.[1];
  return (
    local &&
    local
      .slice(0, 8)
      .match(/../g)!
      .reverse()
      .map((h) => parseInt(h, 16))
      .join(".")
  );
}

beforeAll(async () => {
  [ports.apiMetrics, ports.health, ports.workerMetrics] = [await freePort(), await freePort(), await freePort()];
  stack = await startStack({ env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(ports.apiMetrics) } });
  worker = await startWorker({ ...stack.env, HEALTH_PORT: String(ports.health), METRICS_PORT: String(ports.workerMetrics), METRICS_HOST: "127.0.0.1" });
  await stack.settled();
  tenant = await stack.tenant();
  // Traffic: a template list, a detail that is not there (an id in the URL), an unknown path, one employee sync.
  const key = { bearer: tenant.apiKey };
  expect((await stack.http.get("/api/templates", { auth: key })).status).toBe(200);
  expect((await stack.http.get(`/api/templates/${tenant.organization.id}`, { auth: key })).status).toBe(404);
  expect((await stack.http.get(`/no/such/${tenant.organization.id}?q=secret`)).status).toBe(404);
  // Mounted paths in other letter cases (Express matches them): no label of their own.
  for (const p of ["/SCIM/v2/Users", "/scim/V2/Users", "/Docs/", "/DOCS/x"]) expect((await stack.http.get(p)).status).toBeLessThan(500);
  const sync = await syncCaller(stack, tenant);
  const e = uniq();
  const body = await sync.sync([{ externalEmployeeId: e.id, firstName: "Ada", lastName: "Lovelace", email: e.email }]);
  expect(body.results[0]).toMatchObject({ status: "CREATED" });
});
afterAll(async () => {
  await worker?.stop();
  await stack?.stop();
});

describe("GET /metrics", () => {
  it("API: HTTP durations by route pattern, queue depths, the Postgres pool, outbox lag, event-loop lag and memory", async () => {
    // The first reads of Redis and Postgres may run past their 2 s bound on a busy machine: then they are marked down.
    const up = (m: Map<string, Family>, source: string) => value(m, "insp_metrics_source_up", "insp_metrics_source_up", { source }) === 1;
    const f = await until("queue and outbox sources read", apiMetrics, (m) => up(m, "redis") && up(m, "postgres"));
    const http = "insp_http_request_duration_seconds";
    expect(f.get(http)?.type).toBe("histogram");
    const count = (route: string, method: string, status: string) => value(f, http, `${http}_count`, { route, method, status });
    expect(count("/api/templates", "GET", "200")).toBeGreaterThanOrEqual(1);
    expect(count("/api/templates/:id", "GET", "404")).toBeGreaterThanOrEqual(1);
    expect(count("/api/v1/sync/employees", "POST", "200")).toBe(1);
    expect(count("/oauth/token", "POST", "200")).toBeGreaterThanOrEqual(1);
    expect(count("unmatched", "GET", "404")).toBeGreaterThanOrEqual(1);
    for (const queue of QUEUES)
      for (const state of ["waiting", "active", "delayed", "failed"])
        expect(value(f, "insp_queue_jobs", "insp_queue_jobs", { queue, state })).toBeGreaterThanOrEqual(0);
    for (const state of ["busy", "reserved", "idle", "connecting"])
      expect(value(f, "insp_pg_pool_connections", "insp_pg_pool_connections", { state })).toBeGreaterThanOrEqual(0);
    expect(value(f, "insp_pg_pool_connections", "insp_pg_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(1);
    expect(value(f, "insp_pg_pool_max_connections", "insp_pg_pool_max_connections", {})).toBe(10);
    expect(value(f, "insp_pg_pool_waiting_queries", "insp_pg_pool_waiting_queries", {})).toBe(0);
    expect(value(f, "insp_outbox_lag_seconds", "insp_outbox_lag_seconds", { outbox: "mail" })).toBeGreaterThanOrEqual(0);
    expect(value(f, "insp_outbox_lag_seconds", "insp_outbox_lag_seconds", { outbox: "webhooks" })).toBe(0);
    expect(value(f, "insp_nodejs_eventloop_lag_seconds", "insp_nodejs_eventloop_lag_seconds", { service: "api" })).toBeGreaterThanOrEqual(0);
    expect(value(f, "insp_process_resident_memory_bytes", "insp_process_resident_memory_bytes", { service: "api" })).toBeGreaterThan(10_000_000);
  });

  it("worker: job wait and run times per queue, the sync counter, and the same process metrics", async () => {
    const f = await until(
      "the worker's job metrics",
      workerMetrics,
      (m) => (value(m, "insp_job_run_seconds", "insp_job_run_seconds_count", { queue: "employee-sync", outcome: "completed" }) ?? 0) >= 1,
    );
    expect(f.get("insp_job_wait_seconds")?.type).toBe("histogram");
    expect(value(f, "insp_job_wait_seconds", "insp_job_wait_seconds_count", { queue: "employee-sync" })).toBeGreaterThanOrEqual(1);
    expect(value(f, "insp_sync_employees_total", "insp_sync_employees_total", { outcome: "done" })).toBe(1);
    for (const queue of QUEUES) expect(value(f, "insp_queue_jobs", "insp_queue_jobs", { queue, state: "waiting" })).toBeGreaterThanOrEqual(0);
    expect(value(f, "insp_pg_pool_max_connections", "insp_pg_pool_max_connections", {})).toBe(24);
    expect(value(f, "insp_nodejs_eventloop_lag_seconds", "insp_nodejs_eventloop_lag_seconds", { service: "worker" })).toBeGreaterThanOrEqual(0);
    expect(value(f, "insp_process_resident_memory_bytes", "insp_process_resident_memory_bytes", { service: "worker" })).toBeGreaterThan(10_000_000);
    expect(f.has("insp_http_request_duration_seconds")).toBe(false);
  });

  it("needs the Bearer token on the service's port, and is plain on METRICS_PORT", async () => {
    for (const url of [`${stack.api.baseUrl}/metrics`, `http://127.0.0.1:${ports.health}/metrics`]) {
      for (const token of [undefined, "wrong-token-wrong-token-wrong"]) {
        const res = await scrape(url, token);
        expect(res.status).toBe(401);
        expect(res.text).not.toContain("insp_");
      }
    }
    for (const port of [ports.apiMetrics, ports.workerMetrics]) {
      const res = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.text).toContain("insp_pg_pool_connections");
      expect((await scrape(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    }
  });

  it("listens on METRICS_HOST (the worker's here: loopback only), and without it on the API's HOST", async () => {
    expect(await listeningAddress(ports.workerMetrics)).toBe("127.0.0.1");
    expect(await listeningAddress(ports.apiMetrics)).toBe("127.0.0.1"); // the test processes run with HOST=127.0.0.1
  });

  it("is a 404 on the API's port when METRICS_TOKEN is not set", async () => {
    const api: ApiProcess = await startApi({ ...stack.env, METRICS_TOKEN: "", METRICS_PORT: "" });
    try {
      const res = await scrape(`${api.baseUrl}/metrics`, TOKEN);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain("insp_");
    } finally {
      await api.stop();
    }
  });

  it("carries no request content or tenant data in any label", async () => {
    const all = [...(await apiMetrics()).values(), ...(await workerMetrics()).values()];
    const values = all.flatMap((f) => f.samples.flatMap((s) => Object.values(s.labels)));
    expect(values.length).toBeGreaterThan(100);
    for (const v of values) {
      expect(v).not.toMatch(UUID);
      expect(v).not.toContain("?");
      expect(v).not.toContain(tenant.apiKey);
    }
    const routes = new Set(all.flatMap((f) => f.samples.map((s) => s.labels.route)).filter((r): r is string => r !== undefined));
    for (const r of routes) expect(r === "unmatched" || r.startsWith("/")).toBe(true);
    expect([...routes].some((r) => r.startsWith("/no/"))).toBe(false);
    expect([...routes].filter((r) => /^\/(scim|docs)/i.test(r))).not.toEqual([]);
    expect([...routes].filter((r) => /^\/(scim|docs)/i.test(r) && !/^\/(scim\/v2|docs)/.test(r))).toEqual([]);
  });

  it("the Grafana dashboard names only metrics that the API or a worker exports", async () => {
    const file = fileURLToPath(new URL("../../../../ops/grafana/inspection-service.json", import.meta.url));
    const dashboard = JSON.parse(await readFile(file, "utf8"));
    const used = [...new Set(dashboardExpressions(dashboard).flatMap(promqlMetricNames))];
    expect(used.length).toBeGreaterThan(10);
    // Queue and outbox figures are left out of a scrape whose Redis or Postgres read timed out (a busy machine): scrape until none is.
    const missing = async () => {
      const exported = new Set([...sampleNames(await apiMetrics()), ...sampleNames(await workerMetrics())]);
      return used.filter((n) => !exported.has(n));
    };
    expect(await until("every metric the dashboard names, exported", missing, (m) => m.length === 0)).toEqual([]);
  });

  it('counts a request its client gave up on, as status "aborted" (it runs last: its sync goes on in the worker)', async () => {
    const sync = await syncCaller(stack, tenant);
    const people = Array.from({ length: 300 }, () => uniq()).map((e) => ({ externalEmployeeId: e.id, firstName: "Gave", lastName: "Up", email: e.email }));
    const gaveUp = new AbortController();
    const sent = fetch(`${stack.api.baseUrl}/api/v1/sync/employees`, {
      method: "POST",
      headers: { authorization: `Bearer ${sync.token}`, "content-type": "application/json" },
      body: JSON.stringify({ employees: people }),
      signal: gaveUp.signal,
    }).catch((err: Error) => err.name);
    setTimeout(() => gaveUp.abort(), 30); // 300 employees are not done in 30 ms
    expect(await sent).toBe("AbortError");
    const aborted = (m: Map<string, Family>) =>
      value(m, "insp_http_request_duration_seconds", "insp_http_request_duration_seconds_count", {
        route: "/api/v1/sync/employees",
        method: "POST",
        status: "aborted",
      }) ?? 0;
    expect(aborted(await until("the aborted request counted", apiMetrics, (m) => aborted(m) >= 1))).toBe(1);
  });
});
