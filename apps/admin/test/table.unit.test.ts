import { describe, expect, it } from "vitest";
import { formatTable } from "../src/table.ts";

describe("formatTable (npm run admin -- list ...)", () => {
  it("prints every cell whole: lists joined, objects as JSON, dates in ISO 8601, no [Object] and no 'more items'", () => {
    const options = Array.from({ length: 120 }, (_, i) => ({ label: `Option ${i}`, value: `o${i}` }));
    const out = formatTable([
      { id: "k1", name: "BI export", scopes: ["inspections:read", "media:read"], createdAt: new Date("2026-03-01T08:00:00Z"), revokedAt: null },
      { id: "k2", name: "Condition", options, createdAt: new Date("2026-03-02T08:00:00Z") },
    ]);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^id\s+name\s+scopes\s+createdAt\s+revokedAt\s+options$/);
    expect(lines[1]).toMatch(/^-+( +-+)+$/);
    expect(lines[2]).toContain("inspections:read, media:read");
    expect(lines[2]).toContain("2026-03-01T08:00:00.000Z");
    expect(lines[3]).toContain(JSON.stringify(options));
    expect(out).not.toMatch(/\[Object\]|\[Array\]|more items/);
    // Columns line up: the second column starts at the same place on every line.
    expect(new Set(lines.map((l) => l.search(/(?<=^\S+\s+)\S/)))).toEqual(new Set([lines[0]!.indexOf("name")]));
  });
});
