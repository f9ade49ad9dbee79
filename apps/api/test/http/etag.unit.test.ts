import { describe, expect, it } from "vitest";
import { ifMatchRevisions, noneMatchHits } from "../../src/http/etag.ts";

// The inspection and action routes' reading of If-Match (strong, revisions) and If-None-Match
// (weak, whole tags), over the parser they share with SCIM (@insp/core parseETagList).
describe("ifMatchRevisions", () => {
  const rows: [string, number[] | null][] = [
    ["*", null],
    ['"r3-1a2b3c4d"', [3]],
    ['"r3-1a2b3c4d.url"', [3]],
    ['"r4"', [4]],
    ['"r1", "r2-1a2b3c4d"', [1, 2]],
    // Weak tags fail If-Match (strong comparison, RFC 9110 section 13.1.1), as do tags not ours.
    ['W/"r3-1a2b3c4d"', []],
    ['"x3"', []],
    ["r3", []],
    ['"r1", *', [1]],
  ];
  for (const [header, expected] of rows) {
    it(`${header}: ${JSON.stringify(expected)}`, () => {
      expect(ifMatchRevisions(header)).toEqual(expected);
    });
  }
});

describe("noneMatchHits", () => {
  const etag = '"r3-1a2b3c4d"';
  const rows: [string | undefined, boolean][] = [
    [undefined, false],
    ["", false],
    ["*", true],
    [etag, true],
    [`W/${etag}`, true],
    [`"r2-1a2b3c4d", ${etag}`, true],
    ['"r3-1a2b3c4d.url"', false],
    ["r3-1a2b3c4d", false],
  ];
  for (const [header, expected] of rows) {
    it(`${String(header)}: ${expected}`, () => {
      expect(noneMatchHits(header, etag)).toBe(expected);
    });
  }
});
