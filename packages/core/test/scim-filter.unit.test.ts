import { describe, expect, it } from "vitest";
import { parseFilter, parsePatchPath } from "../src/scim/filter-parse.ts";
import { dateTimeOf, type FilterAttribute, type FilterTarget } from "../src/scim/filter.ts";
import { GROUP_FILTER } from "../src/scim/groups.ts";
import { ENTERPRISE, scim } from "../src/scim/protocol.ts";
import { USER_FILTER } from "../src/scim/users.ts";

/**
 * The filter grammar (RFC 7644 section 3.4.2.2) as trees, and the filterable attributes as
 * /Schemas publishes them: a filter compares an attribute by the type and caseExact the
 * schema gives it, and every published attribute is filterable but a few listed here. The
 * malformed filters, through the API: apps/api/test/scim/scim-filters.int.test.ts.
 */

/** Published attributes one cannot filter on (docs/scim.md, Protocol). */
const NOT_FILTERABLE = ["groups.$ref", "groups.type", `${ENTERPRISE}:manager.$ref`, "members.$ref", "members.type"];

type Def = { name: string; type: string; caseExact?: boolean; multiValued: boolean; subAttributes?: Def[] };

function published(target: FilterTarget): { path: string; def: Def; attr: FilterAttribute | undefined }[] {
  const S = scim();
  const schemas = JSON.parse(
    JSON.stringify(
      target.resourceType === "User"
        ? [S.Schemas.User.definition.describe(), S.Schemas.EnterpriseUser.definition.describe()]
        : [S.Schemas.Group.definition.describe()],
    ),
  ) as { id: string; attributes: Def[] }[];
  const out: { path: string; def: Def; attr: FilterAttribute | undefined }[] = [];
  for (const schema of schemas) {
    const attrs = schema.id === target.schema ? target.attributes : target.extensions[schema.id.toLowerCase()]!;
    const prefix = schema.id === target.schema ? "" : `${schema.id}:`;
    for (const def of schema.attributes) {
      const attr = attrs[def.name.toLowerCase()];
      if (def.subAttributes)
        for (const sub of def.subAttributes)
          out.push({ path: `${prefix}${def.name}.${sub.name}`, def: sub, attr: attr?.kind === "complex" ? attr.sub[sub.name.toLowerCase()] : undefined });
      else out.push({ path: `${prefix}${def.name}`, def, attr });
    }
  }
  return out;
}

describe("filterable attributes, as /Schemas publishes them", () => {
  for (const target of [USER_FILTER, GROUP_FILTER]) {
    it(`${target.resourceType}: each compares by its published type and caseExact, and all are filterable but ${NOT_FILTERABLE.join(", ")}`, () => {
      const missing: string[] = [];
      for (const { path, def, attr } of published(target)) {
        if (!attr) {
          if (!NOT_FILTERABLE.includes(path)) missing.push(path);
          continue;
        }
        expect(attr.kind, path).toBe("scalar");
        if (attr.kind !== "scalar") continue;
        expect({ path, type: attr.type, caseExact: attr.caseExact }).toEqual({ path, type: def.type, caseExact: def.caseExact ?? false });
      }
      expect(missing).toEqual([]);
      // RFC 7643 section 3.1: id and externalId are caseExact; meta's dates are dateTimes.
      expect(target.attributes.id).toMatchObject({ caseExact: true });
      expect(target.attributes.externalid).toMatchObject({ caseExact: true });
      expect(target.attributes.meta).toMatchObject({ sub: { created: { type: "dateTime" }, lastmodified: { type: "dateTime" } } });
    });
  }
});

describe("the filter grammar", () => {
  const t = (name: string, value: string, sub?: string) => ({
    kind: "test",
    path: { name, ...(sub ? { sub } : {}), text: sub ? `${name}.${sub}` : name },
    test: { op: "eq", value: { kind: "string", value } },
  });

  it("binds 'and' tighter than 'or', and parentheses tightest", () => {
    expect(parseFilter('a eq "1" or b eq "2" and c eq "3"')).toEqual({
      kind: "or",
      filters: [t("a", "1"), { kind: "and", filters: [t("b", "2"), t("c", "3")] }],
    });
    expect(parseFilter('(a eq "1" or b eq "2") and c eq "3"')).toEqual({
      kind: "and",
      filters: [{ kind: "or", filters: [t("a", "1"), t("b", "2")] }, t("c", "3")],
    });
    expect(parseFilter('not (a eq "1")')).toEqual({ kind: "not", filter: t("a", "1") });
  });

  it("reads value paths, with the sub-attribute Entra adds after them", () => {
    expect(parseFilter('emails[type eq "work"].value eq "x"')).toEqual({
      kind: "valuePath",
      path: { name: "emails", text: "emails" },
      filter: t("type", "work"),
      sub: { name: "value", test: { op: "eq", value: { kind: "string", value: "x" } } },
    });
    expect(parsePatchPath('members[value eq "a"]')).toEqual({ path: { name: "members", text: "members" }, filter: t("value", "a") });
    expect(parsePatchPath(`${ENTERPRISE}:manager.value`)).toEqual({
      path: { uri: ENTERPRISE, name: "manager", sub: "value", text: `${ENTERPRISE}:manager.value` },
    });
  });

  it("reads JSON literals: strings with escapes, numbers, lower-case true, false and null", () => {
    const value = (f: string) => (parseFilter(f) as { test: { value: unknown } }).test.value;
    expect(value('a eq "x\\"y\\u00e9"')).toEqual({ kind: "string", value: 'x"yé' });
    expect(value("a eq -1.5e3")).toEqual({ kind: "number", value: -1500 });
    expect(value("a eq false")).toEqual({ kind: "boolean", value: false });
    expect(value("a eq null")).toEqual({ kind: "null" });
  });

  it("takes xsd:dateTime values only (RFC 7643 section 2.3.5), without an offset as UTC", () => {
    expect(dateTimeOf("2024-05-01T12:00:00Z")).toBe("2024-05-01T12:00:00Z");
    expect(dateTimeOf("2024-05-01T12:00:00.123456+02:00")).toBe("2024-05-01T12:00:00.123456+02:00");
    expect(dateTimeOf("2024-05-01T12:00:00")).toBe("2024-05-01T12:00:00Z");
    expect(dateTimeOf("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00Z");
    for (const bad of [
      "2024-05-01",
      "2024-02-30T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T12:60:00Z",
      "2024-05-01 12:00:00Z",
      "2024-05-01T12:00:00+24:00",
      "yesterday",
    ])
      expect(dateTimeOf(bad), bad).toBeNull();
  });
});
