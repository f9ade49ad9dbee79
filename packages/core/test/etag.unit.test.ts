import { describe, expect, it } from "vitest";
import { etagListMatches, parseETag, parseETagList } from "../src/etag.ts";

/**
 * If-Match and If-None-Match as RFC 9110 section 8.8.3 writes them, the one reading behind the
 * inspection and action routes (apps/api/src/http/etag.ts) and SCIM (checkIfMatch, 304s).
 */
describe("parseETagList", () => {
  const rows: [string, ReturnType<typeof parseETagList>][] = [
    ["*", "*"],
    ["  * ", "*"],
    ['"r3-1a2b3c4d"', [{ weak: false, opaque: "r3-1a2b3c4d" }]],
    ['W/"1a2b"', [{ weak: true, opaque: "1a2b" }]],
    [
      'W/"0000", "r1" ,"r2"',
      [
        { weak: true, opaque: "0000" },
        { weak: false, opaque: "r1" },
        { weak: false, opaque: "r2" },
      ],
    ],
    ['""', [{ weak: false, opaque: "" }]],
    // etagc allows a comma inside the quotes: one tag, not two halves.
    [
      '"a,b", "c"',
      [
        { weak: false, opaque: "a,b" },
        { weak: false, opaque: "c" },
      ],
    ],
    // Members that are not entity tags name nothing and leave the others alone.
    ['r1, "r2"', [{ weak: false, opaque: "r2" }]],
    ['w/"r1", "r2"', [{ weak: false, opaque: "r2" }]],
    ['"r1", *', [{ weak: false, opaque: "r1" }]],
    ['"a b", "r1"x, "r2"', [{ weak: false, opaque: "r2" }]],
    ['"r1', []],
    ["", []],
    [",,", []],
  ];
  for (const [header, expected] of rows) {
    it(`${JSON.stringify(header)}`, () => {
      expect(parseETagList(header)).toEqual(expected);
    });
  }
});

describe("parseETag", () => {
  it("reads one tag, and nothing from a list, a wildcard or a malformed value", () => {
    expect(parseETag('W/"1a2b"')).toEqual({ weak: true, opaque: "1a2b" });
    expect(parseETag('"r1"')).toEqual({ weak: false, opaque: "r1" });
    for (const v of ['"a", "b"', "*", "r1", ""]) expect(parseETag(v)).toBeUndefined();
  });
});

describe("etagListMatches (weak comparison)", () => {
  const rows: [string, string, boolean][] = [
    ["*", 'W/"1a2b"', true],
    ['W/"1a2b"', 'W/"1a2b"', true],
    ['"1a2b"', 'W/"1a2b"', true],
    ['W/"r3-1a2b3c4d"', '"r3-1a2b3c4d"', true],
    ['W/"0000", "1a2b"', 'W/"1a2b"', true],
    ['W/"0000"', 'W/"1a2b"', false],
    ["1a2b", 'W/"1a2b"', false],
    ['w/"1a2b"', 'W/"1a2b"', false],
    ['"0000", *', 'W/"1a2b"', false],
    ["", '"r1"', false],
  ];
  for (const [header, etag, expected] of rows) {
    it(`${JSON.stringify(header)} against ${etag}: ${expected}`, () => {
      expect(etagListMatches(header, etag)).toBe(expected);
    });
  }
});
