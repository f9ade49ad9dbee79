import { describe, expect, it } from "vitest";
import { ConfigError, baseEnvShape, intVar, loadEnv, requireRedisSettings } from "../src/index.ts";

describe("loadEnv", () => {
  it("applies documented defaults", () => {
    const env = loadEnv({ ...baseEnvShape, PORT: intVar(3000, 0, 65535) }, {});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("postgres://postgres@127.0.0.1:5432/inspection_service");
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
  });

  it("names every bad variable and the value it got", () => {
    try {
      loadEnv({ ...baseEnvShape, PORT: intVar(3000, 0, 65535) }, { PORT: "70000", REDIS_URL: "http://x" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toContain('PORT: must be at most 65535 (got "70000")');
      expect(problems.some((p) => p.startsWith("REDIS_URL: must be a URL starting with redis://"))).toBe(true);
    }
  });

  it("treats empty strings as unset", () => {
    expect(loadEnv({ PORT: intVar(3000, 0, 65535) }, { PORT: "" }).PORT).toBe(3000);
  });

  it("never quotes a secret, and hides the password of a URL", () => {
    const shape = { ...baseEnvShape, SECRET_PEPPER: baseEnvShape.QUEUE_PREFIX.unwrap().min(16) };
    try {
      loadEnv(shape, { SECRET_PEPPER: "short!", DATABASE_URL: "mysql://app:hunter2@db/x" });
      expect.unreachable();
    } catch (err) {
      const text = (err as ConfigError).message;
      expect(text).toContain("SECRET_PEPPER:");
      expect(text).not.toContain("short!");
      expect(text).not.toContain("hunter2");
      expect(text).toContain('(got "mysql://app:***@db/x")');
    }
  });
});

describe("QUEUE_PREFIX", () => {
  const prefix = (value: string) => loadEnv({ QUEUE_PREFIX: baseEnvShape.QUEUE_PREFIX }, { QUEUE_PREFIX: value }).QUEUE_PREFIX;

  it("takes letters, digits, _ and -, and one Redis Cluster hash tag anywhere in it", () => {
    for (const ok of ["insp", "t0a1-b_2", "{insp}", "insp-{tenantA}", "{insp}-blue", "a{b}c"]) expect(prefix(ok)).toBe(ok);
  });

  it("refuses unpaired, empty, nested or repeated braces and any other character", () => {
    for (const bad of ["{}", "insp{}", "{insp", "insp}", "}insp{", "{{insp}}", "{a}{b}", "{a}-{b}", "in sp", "insp:x", "insp*", "{in:sp}", "   "]) {
      expect(() => prefix(bad), bad).toThrow(
        /QUEUE_PREFIX: (letters, digits, _ and - only, with at most one non-empty \{hash tag\} for Redis Cluster|must not be empty)/,
      );
    }
  });
});

describe("REDIS_CLUSTER_NODES", () => {
  const shape = { QUEUE_PREFIX: baseEnvShape.QUEUE_PREFIX, REDIS_CLUSTER_NODES: baseEnvShape.REDIS_CLUSTER_NODES };
  const load = (source: Record<string, string>) => {
    const env = loadEnv(shape, source);
    requireRedisSettings(env);
    return env;
  };

  it("lists the seed nodes as host:port, and is absent when unset", () => {
    expect(load({ REDIS_CLUSTER_NODES: " redis-1:6379, 10.0.0.2:7000 ,[::1]:7001", QUEUE_PREFIX: "{insp}" }).REDIS_CLUSTER_NODES).toEqual([
      "redis-1:6379",
      "10.0.0.2:7000",
      "[::1]:7001",
    ]);
    expect(load({}).REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it("refuses a node without a port, and a queue prefix without a hash tag on a cluster", () => {
    expect(() => load({ REDIS_CLUSTER_NODES: "redis-1", QUEUE_PREFIX: "{insp}" })).toThrow(/REDIS_CLUSTER_NODES[.0-9]*: each node is host:port/);
    expect(() => load({ REDIS_CLUSTER_NODES: "redis-1:6379" })).toThrow("QUEUE_PREFIX: must carry a {hash tag} with REDIS_CLUSTER_NODES, e.g. {insp}");
  });
});
