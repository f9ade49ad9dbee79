import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv, trustProxyVar } from "../src/index.ts";

const trustProxy = (value?: string) => loadEnv({ TRUST_PROXY: trustProxyVar() }, { TRUST_PROXY: value }).TRUST_PROXY;
const problemsOf = (value: string): string[] => {
  try {
    trustProxy(value);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error(`${value} was accepted`);
};

describe("TRUST_PROXY", () => {
  it("takes false (the default), a hop count, or proxies' addresses, CIDR ranges and range names", () => {
    expect(trustProxy()).toBe(false);
    expect(trustProxy("false")).toBe(false);
    expect(trustProxy("0")).toBe(false);
    expect(trustProxy("1")).toBe(1);
    expect(trustProxy(" 2 ")).toBe(2);
    expect(trustProxy("10.0.0.0/8")).toEqual(["10.0.0.0/8"]);
    expect(trustProxy("loopback, 10.1.2.3, fd00::/8,192.168.0.0/255.255.0.0")).toEqual(["loopback", "10.1.2.3", "fd00::/8", "192.168.0.0/255.255.0.0"]);
    expect(trustProxy("linklocal,uniquelocal")).toEqual(["linklocal", "uniquelocal"]);
  });

  it("refuses true in one line that says why and what to give instead", () => {
    for (const value of ["true", "TRUE"]) {
      const problems = problemsOf(value);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^TRUST_PROXY: true would trust every address, so any client could choose the address .* give the number of proxies in front of the API \(e\.g\. 1\) or their addresses/,
      );
      expect(problems[0]).not.toContain("\n");
    }
  });

  it("refuses a range that holds every address, and what is not an address", () => {
    expect(problemsOf("0.0.0.0/0")[0]).toMatch(/"0\.0\.0\.0\/0" would trust every address/);
    expect(problemsOf("::/0")[0]).toMatch(/"::\/0" would trust every address/);
    expect(problemsOf("10.0.0.0/0.0.0.0")[0]).toMatch(/would trust every address/);
    expect(problemsOf("yes")[0]).toMatch(/^TRUST_PROXY: "yes" is not an address, a CIDR range or one of loopback, linklocal, uniquelocal/);
    expect(problemsOf("10.0.0.0/33")[0]).toMatch(/"10\.0\.0\.0\/33" has no valid prefix length \(0 to 32\)/);
    expect(problemsOf("10.0.0.1,,10.0.0.2")[0]).toMatch(/"" is not an address/);
    expect(problemsOf("10.0.0.1/8/8")[0]).toMatch(/is not an address/);
    expect(problemsOf("1000")[0]).toMatch(/hop count must be at most 999/);
  });
});
