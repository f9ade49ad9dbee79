import { describe, expect, it } from "vitest";
import { ConfigError } from "@insp/config";
import { loadWorkerEnv } from "../src/env.ts";

describe("worker metrics settings", () => {
  it("are off by default, and METRICS_PORT must differ from HEALTH_PORT", () => {
    const defaults = loadWorkerEnv({});
    expect([defaults.METRICS_PORT, defaults.METRICS_TOKEN]).toEqual([0, undefined]);
    expect(loadWorkerEnv({ HEALTH_PORT: "9100", METRICS_PORT: "9464", METRICS_TOKEN: "a-token-of-16-chars+" })).toMatchObject({ METRICS_PORT: 9464 });
    expect(() => loadWorkerEnv({ HEALTH_PORT: "9100", METRICS_PORT: "9100" })).toThrow(ConfigError);
    expect(() => loadWorkerEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});
