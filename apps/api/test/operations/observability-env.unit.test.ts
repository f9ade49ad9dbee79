import { describe, expect, it } from "vitest";
import { ConfigError } from "@insp/config";
import { loadTracingEnv } from "@insp/observability/tracing";
import { loadApiEnv } from "../../src/env.ts";

// The settings of metrics, the queue dashboard and tracing are checked at start-up (exit 78).
const problems = (load: () => unknown) => {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};
const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";

describe("observability settings", () => {
  it("are off by default", () => {
    const api = loadApiEnv({});
    expect([api.METRICS_TOKEN, api.METRICS_PORT, api.ADMIN_DASHBOARD_USER, api.ADMIN_DASHBOARD_PASSWORD_HASH]).toEqual([undefined, 0, undefined, undefined]);
    expect(loadTracingEnv({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it("want the dashboard's user and argon2id hash together", () => {
    expect(loadApiEnv({ ADMIN_DASHBOARD_USER: "ops", ADMIN_DASHBOARD_PASSWORD_HASH: HASH }).ADMIN_DASHBOARD_USER).toBe("ops");
    expect(problems(() => loadApiEnv({ ADMIN_DASHBOARD_USER: "ops" }))[0]).toMatch(/^ADMIN_DASHBOARD_USER and ADMIN_DASHBOARD_PASSWORD_HASH: give both/);
    const bad = problems(() => loadApiEnv({ ADMIN_DASHBOARD_USER: "ops", ADMIN_DASHBOARD_PASSWORD_HASH: "plain-password" }));
    expect(bad[0]).toMatch(/^ADMIN_DASHBOARD_PASSWORD_HASH: must be an argon2id hash/);
    expect(bad.join()).not.toContain("plain-password");
  });

  it("want a long metrics token, never quoted, and a metrics port of its own", () => {
    const short = problems(() => loadApiEnv({ METRICS_TOKEN: "short" }));
    expect(short[0]).toMatch(/^METRICS_TOKEN: must be at least 16 characters/);
    expect(short.join()).not.toContain('short"');
    expect(problems(() => loadApiEnv({ PORT: "9000", METRICS_PORT: "9000" }))).toEqual(["METRICS_PORT: must differ from PORT"]);
  });

  it("accept an OTLP endpoint and protocol", () => {
    expect(loadTracingEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toMatchObject({
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(problems(() => loadTracingEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }))[0]).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL/);
    expect(problems(() => loadTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "thrift" }))[0]).toMatch(/^OTEL_EXPORTER_OTLP_PROTOCOL:/);
  });
});
