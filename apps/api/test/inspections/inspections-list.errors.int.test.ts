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
    ["offset=1e20", /^offset: offset must be a whole number/],
    // Past Postgres's bigint, this was a 500 (OFFSET out of range).
    ["offset=100000000000000000000", /^offset: offset must be at most 1000000000$/],
    ["offset=1000000001", /^offset: offset must be at most 1000000000$/],
    [`offset=${"9".repeat(400)}`, /^offset: offset must be at most 1000000000$/],
    ["status=DONE", /^status/],
    ["includeAnswers=maybe", /^includeAnswers/],
  ])("%s", async (q, detail) => {
    const res = await get(`/api/inspections?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid query parameters");
    expect(res.body.details).toEqual([expect.stringMatching(detail)]);
  });
});

describe("GET /api/inspections: large but valid numbers", () => {
  it("offset 1,000,000,000 is an empty page; a limit past any number is capped at 100", async () => {
    const far = await get("/api/inspections?offset=1000000000");
    expect(far.status).toBe(200);
    expect(far.body).toEqual({ inspections: [], pagination: { total: 0, limit: 50, offset: 1_000_000_000, hasMore: false } });
    for (const limit of ["100000000000000000000", "9".repeat(400)]) {
      const res = await get(`/api/inspections?limit=${limit}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 0, limit: 100, offset: 0, hasMore: false });
    }
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
