import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dashboardExpressions, promqlMetricNames } from "@insp/testing/prometheus";

// ops/grafana/inspection-service.json parses and covers each family of the metrics issue; that
// every name it uses is exported is checked against live processes in apps/api/test/operations/metrics.int.test.ts.
const dashboard = JSON.parse(readFileSync(new URL("../../../ops/grafana/inspection-service.json", import.meta.url), "utf8"));

describe("the Grafana dashboard", () => {
  const used = new Set(dashboardExpressions(dashboard).flatMap(promqlMetricNames));

  it("uses only our metrics, through a datasource variable", () => {
    expect([...used].filter((n) => !n.startsWith("insp_"))).toEqual([]);
    expect(dashboard.templating.list.find((v: { name: string }) => v.name === "datasource")).toMatchObject({ type: "datasource", query: "prometheus" });
    const panels = dashboard.panels.filter((p: { type: string }) => p.type !== "row");
    for (const p of panels) {
      expect(p.datasource).toEqual({ type: "prometheus", uid: "${datasource}" });
      expect(p.targets.length).toBeGreaterThan(0);
    }
    expect(new Set(dashboard.panels.map((p: { id: number }) => p.id)).size).toBe(dashboard.panels.length);
  });

  it("has a panel for each family: HTTP, queues, job times, sync rate, outbox lag, Postgres pool, event loop, memory", () => {
    for (const name of [
      "insp_http_request_duration_seconds_bucket",
      "insp_http_request_duration_seconds_count",
      "insp_queue_jobs",
      "insp_job_wait_seconds_bucket",
      "insp_job_run_seconds_bucket",
      "insp_sync_employees_total",
      "insp_outbox_lag_seconds",
      "insp_pg_pool_connections",
      "insp_pg_pool_waiting_queries",
      "insp_nodejs_eventloop_lag_p99_seconds",
      "insp_process_resident_memory_bytes",
    ])
      expect(used, name).toContain(name);
  });
});

describe("promqlMetricNames", () => {
  it("finds metric names and leaves functions, labels, keywords, strings and variables out", () => {
    expect(
      promqlMetricNames('histogram_quantile(0.95, sum by (le, route) (rate(insp_a_bucket{service="api", instance=~"$instance"}[$__rate_interval])))'),
    ).toEqual(["insp_a_bucket"]);
    expect(promqlMetricNames('sum by (instance) (insp_b{state=~"busy|idle"}) / on (instance) group_left insp_c offset 5m')).toEqual(["insp_b", "insp_c"]);
    expect(promqlMetricNames("max(insp_d) > bool 0 and insp_e unless insp_f")).toEqual(["insp_d", "insp_e", "insp_f"]);
  });
});
