import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { TAGS, buildOpenApiDocument, registry } from "../src/index.ts";

type Operation = { tags?: string[]; summary?: string; requestBody?: { content: Record<string, { example?: unknown }> } };

const doc = buildOpenApiDocument();
const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) => Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })));

describe("the OpenAPI document", () => {
  it("puts every operation in exactly one of the documented groups, each group used", () => {
    const names = TAGS.map((t) => t.name);
    expect(doc.tags?.map((t) => t.name)).toEqual(names);
    const untagged = operations.filter(({ op }) => op.tags?.length !== 1 || !names.includes(op.tags[0]!)).map(({ method, path }) => `${method} ${path}`);
    expect(untagged).toEqual([]);
    const used = new Set(operations.map(({ op }) => op.tags![0]));
    expect(names.filter((n) => !used.has(n))).toEqual([]);
    expect(operations.find((o) => o.path === "/api/v1/sync/employees")!.op.tags).toEqual(["Employee sync"]);
    expect(operations.find((o) => o.path === "/api/v1/employees")!.op.tags).toEqual(["Employees"]);
  });

  it("shows an example request body for the main writes, and every example is a valid request", () => {
    const withExample = operations.filter(({ op }) => Object.values(op.requestBody?.content ?? {}).some((c) => c.example !== undefined)).map(({ method, path }) => `${method} ${path}`);
    expect(withExample).toEqual(
      expect.arrayContaining(["post /api/v1/sync/employees", "post /api/inspections", "patch /api/inspections/{id}", "post /api/templates", "post /api/webhooks", "post /api/auth/login", "post /api/v1/sync/sessions"]),
    );
    // Checked with the same zod schemas the API validates with.
    let checked = 0;
    for (const def of registry.definitions) {
      if (def.type !== "route") continue;
      for (const media of Object.values(def.route.request?.body?.content ?? {})) {
        const m = media as { schema: z.ZodType; example?: unknown };
        if (m.example === undefined) continue;
        const parsed = m.schema.safeParse(m.example);
        expect(parsed.success, `${def.route.method} ${def.route.path}: ${parsed.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(withExample.length);
  });
});
