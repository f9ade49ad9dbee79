import { readFileSync } from "node:fs";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { describeSettings, intVar } from "@insp/config";
import { PAGE, pageWithReference, renderReference } from "../src/config-reference.ts";

describe("docs/configuration.md's reference", () => {
  it("is what the env schemas generate (npm run docs:config writes it)", () => {
    const page = readFileSync(PAGE, "utf8");
    expect(page).toBe(pageWithReference(page));
  });

  it("lists every setting a process parses, with its default and allowed values", () => {
    const text = renderReference();
    for (const name of ["DATABASE_URL", "PORT", "WORKER_CONCURRENCY", "EMBEDDED_SERVERS", "OTEL_EXPORTER_OTLP_ENDPOINT", "HEALTH_PORT"])
      expect(text).toContain(`| \`${name}\``);
    expect(text).toContain("| `PORT` | `3000` | 0 to 65535 |");
    // The worker's DB_POOL_MAX differs from every process's: listed again under Worker.
    expect(text.split("\n").filter((l) => l.startsWith("| `DB_POOL_MAX`"))).toEqual([expect.stringContaining("| `10` |"), expect.stringContaining("| `24` |")]);
  });

  it("refuses a setting without a description, so none can be added undocumented", () => {
    expect(() => describeSettings({ NEW_SETTING: intVar(1, 0, 2) })).toThrow("NEW_SETTING: the setting has no description");
    expect(describeSettings({ X: z.enum(["a", "b"]).default("a").describe("x") })).toEqual([
      { name: "X", default: "a", allowed: "a, b", description: "x", secret: false },
    ]);
  });
});
