import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { TAGS, buildOpenApiDocument, registry } from "../src/index.ts";

type Operation = { tags?: string[]; summary?: string; requestBody?: { content: Record<string, { example?: unknown; examples?: object }> } };

const doc = buildOpenApiDocument();
const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
);

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
    const hasExample = (c: { example?: unknown; examples?: object }) => c.example !== undefined || Object.keys(c.examples ?? {}).length > 0;
    const withExample = operations
      .filter(({ op }) => Object.values(op.requestBody?.content ?? {}).some(hasExample))
      .map(({ method, path }) => `${method} ${path}`);
    expect(withExample).toEqual(
      expect.arrayContaining([
        "post /api/v1/sync/employees",
        "post /api/inspections",
        "patch /api/inspections/{id}",
        "post /api/templates",
        "post /api/webhooks",
        "post /api/auth/login",
        "post /api/v1/sync/sessions",
        "post /scim/v2/Users",
      ]),
    );
    // Checked with the same zod schemas the API validates with (SCIM's are the document's only:
    // scimmy validates SCIM requests); every example of every media type, `example` and `examples`.
    const checked = new Set<string>();
    for (const def of registry.definitions) {
      if (def.type !== "route") continue;
      for (const media of Object.values(def.route.request?.body?.content ?? {})) {
        const m = media as { schema: z.ZodType; example?: unknown; examples?: Record<string, { value?: unknown }> };
        const values = [
          ...(m.example !== undefined ? [["example", m.example] as const] : []),
          ...Object.entries(m.examples ?? {}).map(([name, e]) => [name, e.value] as const),
        ];
        for (const [name, value] of values) {
          const parsed = m.schema.safeParse(value);
          expect(parsed.success, `${def.route.method} ${def.route.path} (${name}): ${parsed.error?.message}`).toBe(true);
          checked.add(`${def.route.method} ${def.route.path}`);
        }
      }
    }
    expect([...checked].sort()).toEqual([...withExample].sort());
  });
});
