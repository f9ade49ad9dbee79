import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { ENTERPRISE, GROUP, PATCH_OP, USER, expectError, expectList, expectResource, scimCaller, type ScimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * The service does what /Schemas says (RFC 7643 section 7). The test reads /Schemas and
 * /ResourceTypes at run time and, for every attribute and sub-attribute they publish for
 * Users (with the schema extensions the User resource type names) and Groups:
 *
 * - writable (readWrite, immutable): a value written through POST, PUT and PATCH (replace and
 *   add with a path and without one, replace through a value filter where the attribute is
 *   multi-valued, remove) reads back through the write's answer, GET /{id}, the list filtered
 *   on the id, and the list filtered on the attribute itself (or a 400 invalidFilter saying
 *   that filtering on it is not supported); an immutable one cannot be changed by PATCH
 *   (RFC 7644 section 3.5.2);
 * - uniqueness server: the same value on another resource is a 409 uniqueness, with or
 *   without case as caseExact says;
 * - readOnly: ignored in POST and PUT (RFC 7644 section 3.5.1), a 400 mutability in PATCH;
 * - returned "never": in no answer.
 *
 * So publishing an attribute without storing it fails here. What a remove does is the one
 * thing the schema cannot say: REMOVE_RULES lists the attributes with a documented rule.
 */

let stack: Stack;
let t: DemoSeed;
let c: ScimCaller;
const tag = Math.random().toString(36).slice(2, 8);
let seq = 0;
/** Users to be managers and group members (the samples of manager.value and members.value). */
const people: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  t = await stack.tenant();
  c = await scimCaller(stack, t);
  for (let i = 0; i < 10; i++) {
    const res = await c.call("POST", "/Users", { schemas: [USER], userName: `person-${i}-${tag}@example.test`, displayName: `Person ${i}` });
    people.push(expectResource(res, 201, "User").id);
  }
});
afterAll(() => stack?.stop());

interface Attribute {
  name: string;
  type: string;
  multiValued: boolean;
  required: boolean;
  mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned: "always" | "never" | "default" | "request";
  uniqueness?: "none" | "server" | "global";
  caseExact?: boolean;
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: Attribute[];
}

/** One attribute, or one sub-attribute of a complex one, of a resource. */
interface Leaf {
  resource: "User" | "Group";
  /** The schema extension's URN, for its attributes. */
  uri?: string;
  attr: Attribute;
  sub?: Attribute;
}

const labelOf = (l: Leaf) => `${l.uri ? `${l.uri}:` : ""}${l.attr.name}${l.sub ? `.${l.sub.name}` : ""}`;
const shortLabel = (l: Leaf) => `${l.resource} ${l.uri ? "enterprise:" : ""}${l.attr.name}${l.sub ? `.${l.sub.name}` : ""}`;
const mutabilityOf = (l: Leaf) => (l.attr.mutability === "readOnly" ? "readOnly" : (l.sub?.mutability ?? l.attr.mutability));

/** What a remove does where a rule of the service decides it (docs/scim.md). */
const REMOVE_RULES: Record<string, { refused?: true; keeps?: true; why: string }> = {
  "User userName": { refused: true, why: "required (RFC 7643 section 4.1.1)" },
  "User emails.value": { refused: true, why: "a User keeps its e-mail (docs/scim.md, Rules)" },
  "User active": { keeps: true, why: "without active the status stays as it is (docs/scim.md)" },
  "Group displayName": { refused: true, why: "required (RFC 7643 section 4.2)" },
};

/** Every attribute and sub-attribute /Schemas publishes for Users and Groups. */
async function publishedLeaves(): Promise<Leaf[]> {
  const types = expectList(await stack.http.get("/scim/v2/ResourceTypes", { auth: null }), 2);
  const published = await stack.http.get("/scim/v2/Schemas", { auth: null });
  const schemas = expectList(published, published.body.totalResults);
  const byId = new Map(schemas.map((s) => [s.id as string, s.attributes as Attribute[]]));
  const leaves: Leaf[] = [];
  for (const type of types) {
    const resource = type.id as "User" | "Group";
    const sources: [string | undefined, Attribute[]][] = [
      [undefined, byId.get(type.schema)!],
      ...((type.schemaExtensions ?? []) as { schema: string }[]).map((e): [string, Attribute[]] => [e.schema, byId.get(e.schema)!]),
    ];
    for (const [uri, attrs] of sources) {
      for (const attr of attrs) {
        if (attr.subAttributes?.length) for (const sub of attr.subAttributes) leaves.push({ resource, ...(uri ? { uri } : {}), attr, sub });
        else leaves.push({ resource, ...(uri ? { uri } : {}), attr });
      }
    }
  }
  return leaves;
}

const ZONES = [
  "Europe/Berlin",
  "America/Chicago",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Africa/Nairobi",
  "America/Sao_Paulo",
  "Europe/Lisbon",
  "Pacific/Auckland",
];
const LANGS = ["de-DE", "fr-FR", "en-GB", "es-ES", "it-IT", "nl-NL", "pt-BR", "sv-SE"];

/** The i-th value written for a leaf: of its type and canonical values (not the first, often the default), unique where it can be. */
function sample(l: Leaf, i: number): unknown {
  const n = ++seq;
  const name = `${l.attr.name}${l.sub ? `.${l.sub.name}` : ""}`;
  const t = (l.sub ?? l.attr).type;
  const canonical = (l.sub ?? l.attr).canonicalValues;
  if (name === "userName") return `rt-user-${n}-${tag}@example.test`;
  if (name === "emails.value") return `rt-mail-${n}-${tag}@example.test`;
  if (name === "phoneNumbers.value") return `+1 555 ${String(1000 + n)}`;
  if (name === "manager.value" || name === "members.value") return people[i % people.length];
  if (name === "timezone") return ZONES[i % ZONES.length];
  if (name === "locale" || name === "preferredLanguage") return LANGS[i % LANGS.length];
  if (canonical?.length) {
    const others = canonical.length > 1 ? canonical.slice(1) : canonical;
    return others[i % others.length];
  }
  if (t === "boolean") return i % 2 === 1; // false first: true is the common default
  if (t === "reference") return `https://example.test/${tag}/${n}`;
  if (t === "string") return `${name.replace(/\W/g, "-")}-${n}-${tag}`;
  throw new Error(`no sample for ${name} of type ${t}`);
}

/** The value of a multi-valued leaf's other sub-attributes' element (its `value`), fixed for one leaf's run. */
function fixedValue(l: Leaf): string {
  if (l.attr.name === "emails") return `rt-fixed-${++seq}-${tag}@example.test`;
  if (l.attr.name === "phoneNumbers") return `+1 555 ${String(5000 + ++seq)}`;
  if (l.attr.name === "members") return people[0]!;
  throw new Error(`no value for ${l.attr.name}`);
}

/** `body` with the leaf set to v. */
function withValue(body: Record<string, any>, l: Leaf, v: unknown, fixed: string | undefined): Record<string, any> {
  const out = structuredClone(body);
  const container = l.uri ? (out[l.uri] ??= {}) : out;
  if (!l.sub) container[l.attr.name] = v;
  else if (!l.attr.multiValued) container[l.attr.name] = { ...(container[l.attr.name] ?? {}), [l.sub.name]: v };
  else container[l.attr.name] = [l.sub.name === "value" ? { value: v } : { value: fixed, [l.sub.name]: v }];
  return out;
}

/** A path-less PATCH value setting the leaf to v (RFC 7644 section 3.5.2.1 and 3.5.2.3). */
const pathless = (l: Leaf, v: unknown, fixed: string | undefined) => withValue({}, l, v, fixed);

/** The leaf's values in a resource. */
function valuesAt(r: Record<string, any> | undefined, l: Leaf): unknown[] {
  const container = l.uri ? r?.[l.uri] : r;
  const a = container?.[l.attr.name];
  if (a === undefined) return [];
  if (!l.sub) return l.attr.multiValued ? a : [a];
  if (!l.attr.multiValued) return a[l.sub.name] === undefined ? [] : [a[l.sub.name]];
  return (a as Record<string, unknown>[]).map((e) => e[l.sub!.name]).filter((x) => x !== undefined);
}

const endpoint = (l: Leaf) => (l.resource === "User" ? "/Users" : "/Groups");

/** A resource without the leaf. The e-mails' userName is no e-mail: else a User without emails would take it as its e-mail (docs/scim.md). */
function baseBody(l: Leaf): Record<string, any> {
  const n = ++seq;
  if (l.resource === "Group") return { schemas: [GROUP], displayName: `rt-group-${n}-${tag}` };
  return { schemas: [USER, ENTERPRISE], userName: l.attr.name === "emails" ? `rt-base-${n}-${tag}` : `rt-base-${n}-${tag}@example.test` };
}

/** A filter literal (RFC 7644 section 3.4.2.2: JSON). */
const literal = (v: unknown) => JSON.stringify(v);

class Run {
  problems: string[] = [];
  constructor(private readonly l: Leaf) {}

  fail(step: string, what: string): never {
    throw new Error(`${shortLabel(this.l)}: ${step}: ${what}`);
  }

  /** The resource as GET, the list filtered on its id, and (where filterable) the list filtered on the leaf show it. */
  async reads(
    step: string,
    id: string,
    answer: Record<string, any> | undefined,
    check: (values: unknown[], where: string) => string | null,
    filterOn?: unknown,
  ): Promise<void> {
    const l = this.l;
    const seen: [string, Record<string, any> | undefined][] = [];
    if (answer) seen.push(["the write's answer", answer]);
    seen.push(["GET", expectResource(await c.call("GET", `${endpoint(l)}/${id}`), 200, l.resource)]);
    const listed = expectList(await c.call("GET", `${endpoint(l)}?filter=${encodeURIComponent(`id eq "${id}"`)}`), 1);
    seen.push(["the list", listed[0]]);
    for (const [where, r] of seen) {
      const wrong = check(valuesAt(r, l), where);
      if (wrong) this.fail(step, wrong);
    }
    if (filterOn !== undefined) {
      const res = await c.call("GET", `${endpoint(l)}?filter=${encodeURIComponent(`${labelOf(l)} eq ${literal(filterOn)}`)}`);
      if (res.status === 400) {
        const detail = expectError(res, 400, "invalidFilter");
        if (!/is not supported/.test(detail)) this.fail(step, `filtering on it: ${detail}`);
      } else if (!expectList(res, res.body.totalResults).some((r) => r.id === id))
        this.fail(step, `the list filtered on ${labelOf(l)} eq ${literal(filterOn)} misses it`);
    }
  }

  shows = (v: unknown) => (values: unknown[], where: string) =>
    (this.l.attr.multiValued && this.l.sub ? values.some((x) => x === v) : values.length === 1 && values[0] === v)
      ? null
      : `${where} shows ${JSON.stringify(values)}, not the ${JSON.stringify(v)} written`;
  lacks = (v: unknown) => (values: unknown[], where: string) => (values.some((x) => x === v) ? `${where} still shows ${JSON.stringify(v)}` : null);

  async write(step: string, method: string, path: string, body: unknown, status: number): Promise<Record<string, any> | undefined> {
    const res = await c.call(method, path, body);
    if (res.status !== status) this.fail(step, `${method} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return status === 204 ? undefined : expectResource(res, status, this.l.resource);
  }

  patch(step: string, id: string, op: Record<string, unknown>, status = 200): Promise<Record<string, any> | undefined> {
    // A group's PATCH answers 204; reads show the result.
    return this.write(
      step,
      "PATCH",
      `${endpoint(this.l)}/${id}`,
      { schemas: [PATCH_OP], Operations: [op] },
      this.l.resource === "Group" && status === 200 ? 204 : status,
    );
  }

  /**
   * uniqueness server or global (RFC 7643 section 7): the value on another resource is a 409
   * uniqueness (RFC 7644 section 3.3), compared with or without case as caseExact says.
   */
  async unique(l: Leaf, v: unknown, fixed: string | undefined): Promise<void> {
    const def = l.sub ?? l.attr;
    if (def.uniqueness !== "server" && def.uniqueness !== "global") return;
    const other = (value: unknown) => c.call("POST", endpoint(l), withValue(baseBody(l), l, value, fixed));
    const same = await other(v);
    if (same.status !== 409 || same.body.scimType !== "uniqueness")
      this.fail("uniqueness", `the same value on another ${l.resource} answered ${same.status}: ${same.text.slice(0, 200)}`);
    if (typeof v !== "string" || v.toUpperCase() === v) return;
    const cased = await other(v.toUpperCase());
    if (def.caseExact && cased.status !== 201)
      this.fail("uniqueness", `caseExact, yet the value in upper case on another ${l.resource} answered ${cased.status}: ${cased.text.slice(0, 200)}`);
    if (!def.caseExact && (cased.status !== 409 || cased.body.scimType !== "uniqueness"))
      this.fail("uniqueness", `not caseExact, yet the value in upper case on another ${l.resource} answered ${cased.status}: ${cased.text.slice(0, 200)}`);
  }

  async refused(step: string, id: string, op: Record<string, unknown>, scimType?: string): Promise<void> {
    const res = await c.call("PATCH", `${endpoint(this.l)}/${id}`, { schemas: [PATCH_OP], Operations: [op] });
    if (res.status !== 400) this.fail(step, `expected a 400${scimType ? ` ${scimType}` : ""}, got ${res.status}: ${res.text.slice(0, 300)}`);
    expectError(res, 400, scimType ?? res.body.scimType);
  }
}

/** A writable leaf through POST, PUT and PATCH. */
async function roundTrip(l: Leaf): Promise<void> {
  const r = new Run(l);
  const label = labelOf(l);
  const rule = REMOVE_RULES[shortLabel(l).replace(" enterprise:", " ")];
  const multi = l.attr.multiValued && l.sub !== undefined;
  const fixed = multi && l.sub!.name !== "value" ? fixedValue(l) : undefined;
  const immutable = mutabilityOf(l) === "immutable";
  const s = Array.from({ length: 8 }, (_, i) => sample(l, i));
  const base = baseBody(l);

  // POST, then PUT (RFC 7644 sections 3.3 and 3.5.1).
  const created = (await r.write("POST", "POST", endpoint(l), withValue(base, l, s[0], fixed), 201))!;
  const id = created.id as string;
  const putBase = l.resource === "User" && l.attr.name !== "userName" ? { ...base, userName: created.userName } : base;
  await r.reads("POST", id, created, r.shows(s[0]), s[0]);
  await r.unique(l, s[0], fixed);
  await r.reads("PUT", id, await r.write("PUT", "PUT", `${endpoint(l)}/${id}`, withValue(putBase, l, s[1], fixed), 200), r.shows(s[1]), s[1]);

  // PATCH replace with a path, and without one (RFC 7644 section 3.5.2.3).
  const attrPath = `${l.uri ? `${l.uri}:` : ""}${l.attr.name}`;
  const replaceValue = multi ? [l.sub!.name === "value" ? { value: s[2] } : { value: fixed, [l.sub!.name]: s[2] }] : s[2];
  await r.reads(
    "PATCH replace with path",
    id,
    await r.patch("PATCH replace with path", id, { op: "replace", path: multi ? attrPath : label, value: replaceValue }),
    r.shows(s[2]),
    s[2],
  );
  await r.reads(
    "PATCH replace without path",
    id,
    await r.patch("PATCH replace without path", id, { op: "replace", value: pathless(l, s[3], fixed) }),
    r.shows(s[3]),
    s[3],
  );

  if (multi) {
    // A value filter (RFC 7644 section 3.5.2): the element whose value is known.
    const current = l.sub!.name === "value" ? s[3] : fixed;
    const filtered = `${attrPath}[value eq ${literal(current)}]`;
    if (immutable) {
      // Immutable: never changed by a PATCH (RFC 7644 section 3.5.2).
      await r.refused("PATCH replace through a value filter (immutable)", id, { op: "replace", path: `${filtered}.${l.sub!.name}`, value: s[4] }, "mutability");
      if (l.sub!.name !== "value") return;
    } else {
      await r.reads(
        "PATCH replace through a value filter",
        id,
        await r.patch("PATCH replace through a value filter", id, { op: "replace", path: `${filtered}.${l.sub!.name}`, value: s[4] }),
        r.shows(s[4]),
        s[4],
      );
    }
    const now = l.sub!.name === "value" && !immutable ? s[4] : current;
    const element = `${attrPath}[value eq ${literal(now)}]`;
    if (l.sub!.name !== "value") {
      // The sub-attribute removed, then added back (RFC 7644 sections 3.5.2.2 and 3.5.2.1).
      await r.reads(
        "PATCH remove through a value filter",
        id,
        await r.patch("PATCH remove through a value filter", id, { op: "remove", path: `${element}.${l.sub!.name}` }),
        r.lacks(s[4]),
      );
      await r.reads(
        "PATCH add through a value filter",
        id,
        await r.patch("PATCH add through a value filter", id, { op: "add", path: `${element}.${l.sub!.name}`, value: s[5] }),
        r.shows(s[5]),
        s[5],
      );
      return;
    }
    if (rule?.refused) return r.refused(`PATCH remove (${rule.why})`, id, { op: "remove", path: element });
    await r.reads(
      "PATCH remove through a value filter",
      id,
      await r.patch("PATCH remove through a value filter", id, { op: "remove", path: element }),
      r.lacks(now),
    );
    await r.reads(
      "PATCH add with path",
      id,
      await r.patch("PATCH add with path", id, { op: "add", path: attrPath, value: [{ value: s[5] }] }),
      r.shows(s[5]),
      s[5],
    );
    await r.reads("PATCH remove with path", id, await r.patch("PATCH remove with path", id, { op: "remove", path: attrPath }), r.lacks(s[5]));
    await r.reads(
      "PATCH add without path",
      id,
      await r.patch("PATCH add without path", id, { op: "add", value: pathless(l, s[6], fixed) }),
      r.shows(s[6]),
      s[6],
    );
    return;
  }

  // Single-valued: remove, add with a path, remove, add without one (RFC 7644 sections 3.5.2.1 and 3.5.2.2).
  if (rule?.refused) return r.refused(`PATCH remove (${rule.why})`, id, { op: "remove", path: label });
  await r.reads("PATCH remove", id, await r.patch("PATCH remove", id, { op: "remove", path: label }), rule?.keeps ? r.shows(s[3]) : r.lacks(s[3]));
  await r.reads("PATCH add with path", id, await r.patch("PATCH add with path", id, { op: "add", path: label, value: s[5] }), r.shows(s[5]), s[5]);
  if (!rule?.keeps) await r.reads("PATCH remove again", id, await r.patch("PATCH remove again", id, { op: "remove", path: label }), r.lacks(s[5]));
  await r.reads("PATCH add without path", id, await r.patch("PATCH add without path", id, { op: "add", value: pathless(l, s[6], fixed) }), r.shows(s[6]), s[6]);
}

/** What a client might write into a read-only leaf, for one that has such a thing. */
function readOnlyValue(l: Leaf): { body: (b: Record<string, any>) => Record<string, any>; bogus: unknown } | null {
  const name = `${l.attr.name}${l.sub ? `.${l.sub.name}` : ""}`;
  const set =
    (v: unknown, extra: Record<string, unknown> = {}) =>
    (b: Record<string, any>) => {
      const out = structuredClone(b);
      const container = l.uri ? (out[l.uri] ??= {}) : out;
      container[l.attr.name] = l.attr.multiValued
        ? [{ ...extra, ...(l.sub ? { [l.sub.name]: v } : { value: v }) }]
        : { ...extra, ...(l.sub ? { [l.sub.name]: v } : {}) };
      return out;
    };
  if (l.attr.name === "groups") {
    const bogus =
      l.sub?.name === "value" || !l.sub
        ? t.groups[0]!.id
        : l.sub.name === "$ref"
          ? "https://bogus.example/Groups/1"
          : l.sub.name === "type"
            ? "indirect"
            : "Bogus";
    return { body: set(bogus, l.sub?.name === "value" ? {} : { value: t.groups[0]!.id }), bogus };
  }
  if (name === "manager.$ref" || name === "manager.displayName" || name === "members.$ref" || name === "members.display") {
    const bogus = l.sub!.name === "$ref" ? "https://bogus.example/Users/1" : "Bogus Name";
    return { body: set(bogus, { value: people[1] }), bogus };
  }
  return null;
}

/** A read-only leaf: ignored in POST and PUT (RFC 7644 section 3.5.1), a 400 mutability in PATCH (section 3.5.2). */
async function readOnly(l: Leaf): Promise<void> {
  const r = new Run(l);
  const v = readOnlyValue(l);
  if (!v) r.fail("setup", "the test knows no value to write into this read-only attribute: add one to readOnlyValue");
  const base = baseBody(l);
  const created = (await r.write("POST", "POST", endpoint(l), v!.body(base), 201))!;
  await r.reads("POST (ignored)", created.id, created, r.lacks(v!.bogus));
  const putBase = l.resource === "User" ? { ...base, userName: created.userName } : base;
  await r.reads("PUT (ignored)", created.id, await r.write("PUT", "PUT", `${endpoint(l)}/${created.id}`, v!.body(putBase), 200), r.lacks(v!.bogus));
  const path = labelOf(l);
  await r.refused("PATCH replace", created.id, { op: "replace", path, value: v!.bogus }, "mutability");
}

describe("SCIM attributes as /Schemas publishes them", () => {
  it("round-trips every writable attribute through POST, PUT and PATCH, ignores read-only ones in POST and PUT and refuses them in PATCH, and never returns returned:never ones", async () => {
    const leaves = await publishedLeaves();
    expect(leaves.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const covered: string[] = [];
    for (const l of leaves) {
      const m = mutabilityOf(l);
      try {
        if (l.attr.returned === "never" || l.sub?.returned === "never") {
          // Written, never returned (RFC 7643 section 7).
          const res = await c.call("POST", endpoint(l), withValue(baseBody(l), l, sample(l, 0), undefined));
          if (res.status === 201 && valuesAt(res.body, l).length) problems.push(`${shortLabel(l)}: returned "never" but the POST's answer shows it`);
          covered.push(`${shortLabel(l)} (returned never)`);
          continue;
        }
        if (m === "readOnly") await readOnly(l);
        else if (m === "writeOnly") problems.push(`${shortLabel(l)}: writeOnly: the test does not know how to check it`);
        else await roundTrip(l);
        covered.push(`${shortLabel(l)} (${m})`);
      } catch (err) {
        problems.push(err instanceof Error ? err.message : String(err));
      }
    }
    expect(problems).toEqual([]);
    expect(covered).toHaveLength(leaves.length);
  });

  it("accepts and ignores the RFC 7643 User attributes it does not keep (not in /Schemas): password, addresses, roles and the others", async () => {
    const body = {
      schemas: [USER],
      userName: `ignored-${tag}@example.test`,
      password: "t1meMa$heen",
      addresses: [{ type: "work", streetAddress: "1 Main St", locality: "Springfield" }],
      roles: [{ value: "admin" }],
      entitlements: [{ value: "all" }],
      ims: [{ value: "someone", type: "xmpp" }],
      photos: [{ value: "https://example.test/p.jpg" }],
      x509Certificates: [{ value: "MIIB" }],
      emails: [{ value: `ignored-${tag}@example.test`, type: "work", display: "Shown nowhere" }],
    };
    const created = expectResource(await c.call("POST", "/Users", body), 201, "User");
    const kept = ["password", "addresses", "roles", "entitlements", "ims", "photos", "x509Certificates"];
    for (const k of kept) expect(created).not.toHaveProperty(k);
    expect(created.emails).toEqual([{ value: body.emails[0]!.value, type: "work", primary: true }]);
    const put = expectResource(await c.call("PUT", `/Users/${created.id}`, { ...body, password: "other" }), 200, "User");
    for (const k of kept) expect(put).not.toHaveProperty(k);
    // PATCH: operations on them are skipped (identity providers' default mappings send them).
    const patched = expectResource(
      await c.call("PATCH", `/Users/${created.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: "add", path: 'addresses[type eq "work"].locality', value: "Shelbyville" },
          { op: "replace", path: "password", value: "x" },
          { op: "replace", value: { roles: [{ value: "x" }], 'addresses[type eq "work"].postalCode': "12345", title: "Kept" } },
        ],
      }),
      200,
      "User",
    );
    expect(patched.title).toBe("Kept");
    for (const k of kept) expect(patched).not.toHaveProperty(k);
    // Not filterable either: they are no attributes of the User here.
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent('addresses[type eq "work"].locality eq "Springfield"')}`), 400, "invalidFilter");
    // An attribute no schema has is still an invalidPath in PATCH.
    expectError(
      await c.call("PATCH", `/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "favouriteColour", value: "blue" }] }),
      400,
      "invalidPath",
    );
  });

  it("records a change of a kept attribute alone: meta.lastModified moves, a change 'updated' and an audit entry naming it", async () => {
    const body = {
      schemas: [USER],
      userName: `audited-${tag}@example.test`,
      emails: [{ value: `audited-${tag}@example.test`, type: "home", primary: false }],
      phoneNumbers: [{ value: "+1 555 0199", type: "mobile" }],
    };
    const u = expectResource(await c.call("POST", "/Users", body), 201, "User");
    const changesBefore = (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from change_events where resource_id = ${u.id}`)[0]!.n;
    const patched = expectResource(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "name.middleName", value: "Quincy" }] }),
      200,
      "User",
    );
    expect(patched.name).toEqual({ formatted: "Quincy", middleName: "Quincy" });
    expect(patched.emails).toEqual(body.emails);
    expect(patched.phoneNumbers).toEqual(body.phoneNumbers);
    expect(patched.meta.version).not.toBe(u.meta.version);
    expect(new Date(patched.meta.lastModified).getTime()).toBeGreaterThanOrEqual(new Date(u.meta.lastModified).getTime());
    expect((await stack.db.sql<{ n: number }[]>`select count(*)::int as n from change_events where resource_id = ${u.id}`)[0]!.n).toBe(changesBefore + 1);
    const [entry] = await stack.db.sql<
      { action: string; changed_fields: string[] }[]
    >`select action, changed_fields from audit_log where resource_id = ${u.id} order by seq desc limit 1`;
    expect(entry).toEqual({ action: "employee.updated", changed_fields: ["name.middleName"] });
    // The same again changes nothing: no change, no entry.
    const same = expectResource(
      await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "name.middleName", value: "Quincy" }] }),
      200,
      "User",
    );
    expect(same.meta.version).toBe(patched.meta.version);
    // A PUT of what the User is changes nothing either (the e-mail's and phone's flags included).
    const put = expectResource(await c.call("PUT", `/Users/${u.id}`, { ...body, name: { middleName: "Quincy" } }), 200, "User");
    expect(put.meta).toEqual(patched.meta);
    expect((await stack.db.sql<{ n: number }[]>`select count(*)::int as n from change_events where resource_id = ${u.id}`)[0]!.n).toBe(changesBefore + 1);
  });
});
