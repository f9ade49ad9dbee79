import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";

let stack: Stack;
let t: DemoSeed;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
  t = await stack.tenant();
});
afterAll(() => stack?.stop());

const get = (path: string) => stack.http.get(path, { auth: { bearer: t.apiKey } });

describe("GET /api/inspections: bad query parameters are a 400 {error, details}", () => {
  it.each([
    ["limit=-1", /^limit/],
    ["limit=abc", /^limit/],
    ["limit=1.5", /^limit/],
    ["limit=0", /^limit/],
    ["offset=-3", /^offset/],
    ["offset=2.5", /^offset/],
    ["status=DONE", /^status/],
    ["includeAnswers=maybe", /^includeAnswers/],
  ])("%s", async (q, detail) => {
    const res = await get(`/api/inspections?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid query parameters");
    expect(res.body.details).toEqual([expect.stringMatching(detail)]);
  });
});

describe("GET /api/inspections/{id}", () => {
  it("an unknown or malformed id is a 404 {error}", async () => {
    for (const id of ["7d1c3f5e-1111-4222-8333-944455556666", "not-a-uuid", "1"]) {
      const res = await get(`/api/inspections/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: `Inspection ${id} not found` });
    }
  });
});
