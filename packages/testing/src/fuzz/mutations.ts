import fc from "fast-check";

/**
 * Hostile inputs, by family: what an outside client, a broken integration or an attacker
 * sends. Each family is an arbitrary of a value that replaces one node of a valid body, or of
 * a whole raw body, query string or path id.
 */

/** Strings that are each a known trap: lone surrogates, NUL, direction overrides, emoji, zero-width, very long. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    "\ud800",
    "a\udc00b",
    "\u0000",
    "x\u0000y",
    "\u202egnp.exe",
    "\u200b\u200d\ufeff",
    "😀👨‍👩‍👧‍👦🏳️‍🌈",
    "Z̷̧̛a̴̡̕l̸g̵o̶",
    "' or 1=1 --",
    "'; drop table employees; --",
    "<script>alert(1)</script>",
    "${jndi:ldap://x}",
    "../../etc/passwd",
    "%00%ZZ%",
    "",
    " ",
    "\t\n\r",
    "null",
    "true",
    "0",
    "-1",
    "NaN",
    "Infinity",
    "1e309",
    "00000000-0000-0000-0000-000000000000",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    "{00000000-0000-0000-0000-000000000000}",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer({ min: 256, max: 70_000 }).map((n) => "k".repeat(n)),
);

/** Numbers at the edges of doubles, integers and Postgres's int4/int8. */
export const nastyNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31),
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    1e21,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_VALUE,
    1.2345678901234568e29,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any value of another type than expected. */
export const confusedValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  nastyNumber,
  nastyString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Nesting deep enough to hurt recursive code, as raw JSON text (arrays or objects). */
const deepJson = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)));

type Path = (string | number)[];

/** Paths of `value`'s nodes, the whole value first (at most 200, at most 7 levels deep). */
function pathsOf(value: unknown): Path[] {
  const paths: Path[] = [[]];
  const walk = (v: unknown, path: Path, depth: number) => {
    if (depth > 6 || paths.length > 200) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        paths.push([...path, i]);
        walk(x, [...path, i], depth + 1);
      });
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        paths.push([...path, k]);
        walk(x, [...path, k], depth + 1);
      }
    }
  };
  walk(value, [], 0);
  return paths;
}

const nodeAt = (value: unknown, path: Path): unknown => path.reduce((node: unknown, key) => (node as Record<string | number, unknown>)[key], value);
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Replaces the node at a random path of `value` (or the whole value) with `replacement`. */
export function replaceAt(value: unknown, choice: number, replacement: unknown): unknown {
  const paths = pathsOf(value);
  const path = paths[choice % paths.length]!;
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = replacement;
  return copy;
}

/**
 * Coercion traps, as raw JSON text. `String(x)`, `${x}` and `"" + x` throw on an object whose
 * `toString` and `valueOf` are not callable ("Cannot convert object to primitive value"), and
 * `[x].join()` does the same for its items; keys named like Object.prototype's members shadow
 * them. `__proto__` is an own key after JSON.parse, but becomes the prototype of whatever object
 * code copies it into (`null`: a null-prototype object, which has no toString at all). Only raw
 * text carries an own `__proto__` key on the wire: JSON.stringify of an object literal would
 * not, so these are spliced into the serialized body.
 */
const COERCION_TRAPS = [
  '{"toString":1}',
  '{"valueOf":1}',
  '{"toJSON":1}',
  '{"toString":1,"valueOf":1}',
  '{"toString":{},"valueOf":[],"toJSON":null}',
  '{"__proto__":null}',
  '{"__proto__":null,"toString":1,"valueOf":1}',
  '{"__proto__":{"toString":1,"valueOf":1}}',
  '{"__proto__":[]}',
  '{"constructor":1}',
  '{"constructor":{"prototype":{"toString":1}},"hasOwnProperty":1}',
  '[{"toString":1,"valueOf":1}]',
  '[{"__proto__":null},{"toString":1}]',
  '{"a":{"b":{"toString":1,"valueOf":1}}}',
] as const;

/** Members added to an object of a body: prototype keys and Object.prototype's member names, with trap values. */
const TRAP_MEMBERS = [
  '"__proto__":{"toString":1,"valueOf":1,"isAdmin":true}',
  '"__proto__":null',
  '"__proto__":[{"toString":1}]',
  '"constructor":{"prototype":{"toString":1,"valueOf":1}}',
  '"toString":1,"valueOf":1',
  '"toJSON":1',
  '"hasOwnProperty":1,"propertyIsEnumerable":{}',
] as const;

/** The strongest of each: what the sweep (coercionTrapSweep) puts at every node. */
const STRONG_TRAP = '{"__proto__":null,"toString":1,"valueOf":1,"toJSON":1}';
const STRONG_TRAP_MEMBER = '"__proto__":{"toString":1,"valueOf":1,"isAdmin":true},"constructor":{"prototype":null},"toString":1,"valueOf":1,"toJSON":1';

/** A placeholder no schema generates, replaced by raw JSON text after JSON.stringify. */
const HOLE = "@@fuzz-trap-5d1c9b@@";

/** `value` as JSON text with the node at `path` (or the whole value) replaced by the raw JSON `trap`. */
function trapAt(value: unknown, path: Path, trap: string): string {
  if (path.length === 0) return trap;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  (nodeAt(copy, path.slice(0, -1)) as Record<string | number, unknown>)[path[path.length - 1]!] = HOLE;
  return JSON.stringify(copy).split(JSON.stringify(HOLE)).join(trap);
}

/** `value` as JSON text with the raw JSON `members` added to the object at `path` (first, so that a schema reading keys in order meets them). */
function trapMembersAt(value: unknown, path: Path, members: string): string {
  const copy = structuredClone(value) as Record<string, unknown>;
  const node = nodeAt(copy, path) as Record<string, unknown>;
  const entries = Object.entries(node);
  for (const k of Object.keys(node)) delete node[k];
  node[HOLE] = HOLE;
  for (const [k, v] of entries) node[k] = v;
  return JSON.stringify(copy)
    .split(`${JSON.stringify(HOLE)}:${JSON.stringify(HOLE)}`)
    .join(members);
}

/** Paths of the plain objects of `value` (the whole value included). */
const objectPathsOf = (value: unknown): Path[] => pathsOf(value).filter((p) => isPlainObject(nodeAt(value, p)));

/** A valid body with one coercion trap: a node replaced by a trap value, or trap members added to one of its objects. */
export function coercionTrapArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(valid, fc.nat(), fc.constantFrom(...COERCION_TRAPS)).map(([v, at, trap]) => {
      const paths = pathsOf(v);
      return trapAt(v, paths[at % paths.length]!, trap);
    }),
    fc.tuple(valid, fc.nat(), fc.constantFrom(...TRAP_MEMBERS)).map(([v, at, members]) => {
      const paths = objectPathsOf(v);
      return paths.length ? trapMembersAt(v, paths[at % paths.length]!, members) : `{${members}}`;
    }),
  );
}

/**
 * Every node of one valid body replaced, in turn, by the strongest trap, and the strongest
 * members added to each of its objects: one body per node and per object, so that no field of
 * any depth is left to chance.
 */
export function coercionTrapSweep(valid: unknown): string[] {
  return [...pathsOf(valid).map((p) => trapAt(valid, p, STRONG_TRAP)), ...objectPathsOf(valid).map((p) => trapMembersAt(valid, p, STRONG_TRAP_MEMBER))];
}

/** Whole-body traps, as raw text: broken JSON, JSON of the wrong shape, prototype keys, duplicate keys, deep nesting. */
export function rawBodyArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const json = valid.map((v) => JSON.stringify(v) ?? "null");
  return fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "{",
      "}",
      "[",
      '{"a":',
      "{'a':1}",
      "NaN",
      "undefined",
      "null",
      "[]",
      '"text"',
      "123",
      "true",
      "{}{}",
      "\ufeff{}",
      '{"a":1,}',
      "[1,2,,3]",
      '{"a":01}',
    ),
    json.map((s) => s.slice(0, Math.max(1, Math.floor(s.length / 2)))),
    json.map((s) => `${s}garbage`),
    json.map((s) =>
      s.startsWith("{") && s.length > 2
        ? `{"__proto__":{"isAdmin":true,"organizationId":"00000000-0000-0000-0000-000000000000"},${s.slice(1)}`
        : `{"__proto__":{"polluted":1}}`,
    ),
    json.map((s) =>
      s.startsWith("{") && s.length > 2 ? `{"constructor":{"prototype":{"polluted":1}},${s.slice(1)}` : `{"constructor":{"prototype":{"polluted":1}}}`,
    ),
    json.map((s) => (s.startsWith("{") && s.length > 2 ? `${s.slice(0, -1)},${s.slice(1)}` : s)),
    deepJson,
    fc.integer({ min: 1, max: 3 }).map((mb) => JSON.stringify({ big: "x".repeat(mb * 1024 * 1024) })),
  );
}

/** Content types a body may come with: right, wrong, and malformed. */
export const contentTypeArb = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/json; charset=bogus",
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/merge-patch+json",
  "*/*",
  "",
);

/** Query strings that break parsers: repeats, brackets, broken escapes, huge values, odd encodings. */
export const queryAbuseArb = fc.oneof(
  fc.constantFrom(
    "limit=1&limit=2",
    "limit[]=1",
    "limit[a]=1",
    "offset=-1",
    "offset=1e3",
    "limit=0x10",
    "limit=%20",
    "status=%E0%A4%A",
    "status=%ZZ",
    "status=%",
    "templateId=%00",
    "a=b=c",
    "&&&",
    "=",
    "%2e%2e=1",
    "__proto__=1",
    "toString=1&valueOf=1",
    "constructor=1&hasOwnProperty=1",
    "limit=1&__proto__=2&toString=3&valueOf=4&toJSON=5",
  ),
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => `externalEmployeeId=${"q".repeat(n)}`),
  fc.integer({ min: 100, max: 3_000 }).map((n) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join("&")),
  fc
    .tuple(
      fc.constantFrom(
        "limit",
        "offset",
        "status",
        "templateId",
        "siteId",
        "assetId",
        "includeAnswers",
        "publishedOnly",
        "updatedSince",
        "externalEmployeeId",
        "dryRun",
      ),
      nastyString,
    )
    .map(([k, v]) => `${k}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "\ufffd"))}`),
  fc.tuple(fc.constantFrom("limit", "offset"), nastyNumber).map(([k, v]) => `${k}=${v}`),
);

/** Path ids that are not ids. */
export const badPathIdArb = fc.oneof(
  fc.constantFrom(
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
    "{00000000-0000-0000-0000-000000000000}",
    "..",
    "%2e%2e",
    "%2F",
    "a%2Fb",
    "%E0%A4%A",
    "%ZZ",
    "😀",
    "null",
    "undefined",
    "1",
    "-1",
    "' or 1=1 --",
    ";",
    "%20",
  ),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.integer({ min: 300, max: 8_000 }).map((n) => "9".repeat(n)),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).map((s) => encodeURIComponent(s)),
);
