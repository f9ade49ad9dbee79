import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { ENTERPRISE, GROUP, USER, expectError, expectList, expectResource, scimCaller, type ScimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * Filters (RFC 7644 section 3.4.2.2): every malformed one is a 400 with scimType
 * invalidFilter and the error body of section 3.12 (the Error schema, status as a string, a
 * detail saying what is wrong and where); well-formed ones that scimmy's parser got wrong are
 * answered. The grammar and its liberties: packages/core/src/scim/filter-parse.ts.
 */

let stack: Stack;
let c: ScimCaller;
let ada: Record<string, any>;
let bob: Record<string, any>;
const tag = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  stack = await startStack();
  c = await scimCaller(stack, await stack.tenant());
  ada = expectResource(
    await c.call("POST", "/Users", {
      schemas: [USER, ENTERPRISE],
      userName: `ada-${tag}@example.test`,
      name: { givenName: "Ada", middleName: 'The "Countess"', familyName: "Lovelace" },
      title: "Analyst",
      [ENTERPRISE]: { department: "Engines" },
    }),
    201,
    "User",
  );
  bob = expectResource(
    await c.call("POST", "/Users", { schemas: [USER], userName: `bob-${tag}@example.test`, name: { givenName: "Bob" }, active: false }),
    201,
    "User",
  );
});
afterAll(() => stack?.stop());

const get = (path: string, filter: string) => c.call("GET", `${path}?filter=${encodeURIComponent(filter)}`);

/** [filter, what the detail must say] on /Users, or on the path given. */
type Case = [filter: string, detail: RegExp, path?: string];

const MALFORMED: Record<string, Case[]> = {
  "empty or blank": [
    ["", /the filter is empty/],
    ["   ", /the filter is empty/],
  ],
  "dangling or misplaced logical operator": [
    ['userName eq "x" and', /"and" at character 17 has nothing after it/],
    ['userName eq "x" or', /"or" at character 17 has nothing after it/],
    ['userName eq "x" and ', /"and" at character 17 has nothing after it/],
    ['and userName eq "x"', /"and" at character 1 has no expression before it/],
    ['userName eq "x" and and title pr', /"and" at character 21 has no expression before it/],
    ['(userName eq "x" or)', /"or" at character 18 has nothing after it/],
    ['userName eq "x" xor title pr', /unexpected "xor" at character 17: expected 'and', 'or' or the end of the filter/],
    ['userName eq "x" title pr', /unexpected "title" at character 17/],
  ],
  "unbalanced parentheses or brackets": [
    ['(userName eq "x"', /'\(' at character 1 is not closed/],
    ['((userName eq "x")', /'\(' at character 1 is not closed/],
    ['userName eq "x")', /'\)' at character 16 has no '\(' to close/],
    ['(userName eq "x"))', /'\)' at character 18 has no '\(' to close/],
    ["()", /the parentheses at character 1 are empty/],
    ['emails[type eq "work"', /'\[' at character 7 is not closed/],
    ['emails[type eq "work"]]', /'\]' at character 23 has no '\[' to close/],
    ['emails[type eq "work")', /expected '\]' at character 22 to close '\[' at character 7, found '\)'/],
    ["emails[]", /the brackets at character 7 are empty/],
    [`${"(".repeat(40)}title pr${")".repeat(40)}`, /nests parentheses or brackets more than 32 levels deep/],
  ],
  "unbalanced or malformed quotes": [
    ['userName eq "x', /the string starting at character 13 is not closed/],
    ['userName eq x"', /the string starting at character 14 is not closed/],
    ['userName eq "a\\qb"', /not a JSON string/],
    ['userName eq "tab\there"', /not a JSON string/],
    ['userName eq "nul\\u0000"', /holds U\+0000 or an unpaired surrogate/],
    ['userName eq "\\ud800"', /holds U\+0000 or an unpaired surrogate/],
  ],
  "unknown or missing operator": [
    ['userName like "x"', /unknown operator "like" at character 10: the operators are eq, ne, co, sw, ew, gt, ge, lt, le and pr/],
    ['userName == "x"', /unknown operator "==" at character 10/],
    ["userName np", /unknown operator "np"/],
    ["userName", /"userName" needs an operator after it/],
    ['userName "x"', /expected an operator after "userName" at character 10, found string "x"/],
    ["userName eq", /"eq" at character 10 needs a value after it/],
    ["(userName eq)", /"eq" at character 11 needs a value after it/],
    ['userName pr "x"', /unexpected string "x" at character 13/],
    ['userName eq "x" "y"', /unexpected string "y" at character 17/],
    ['userName eq"x"', /the value at character 12 needs a space before it/],
    ['userName eq "x"and title pr', /"and" at character 16 needs a space before it/],
  ],
  "not without parentheses": [
    ['not userName eq "x"', /'not' at character 1 must be followed by a filter in parentheses/],
    ['title pr and not title eq "x"', /'not' at character 14 must be followed by a filter in parentheses/],
    ["not", /'not' at character 1 must be followed by a filter in parentheses/],
  ],
  "attribute path errors": [
    ['nickname2 eq "x"', /"nickname2" is not an attribute of User \(the attributes are listed at \/Schemas\)/],
    ['addresses.locality eq "x"', /"addresses" is not an attribute of User/],
    ['password eq "x"', /"password" is not an attribute of User/],
    ['name.foo eq "x"', /"name.foo" is not an attribute of User/],
    ['userName.value eq "x"', /"userName.value" is not an attribute of User/],
    ['name.givenName.x eq "x"', /at most one sub-attribute/],
    ['name..givenName eq "x"', /an attribute name is missing around '\.'/],
    ['.userName eq "x"', /an attribute name is missing around '\.'/],
    ['userName. eq "x"', /an attribute name is missing around '\.'/],
    ['user*name eq "x"', /"user\*name" is not an attribute name/],
    ['1userName eq "x"', /"1userName" is not an attribute name/],
    ['foo:userName eq "x"', /only a schema URN \(urn:…\) may come before ':'/],
    [
      'urn:ietf:params:scim:schemas:extension:other:2.0:User:department eq "x"',
      /"urn:ietf:params:scim:schemas:extension:other:2.0:User" is not a schema of User resources/,
    ],
    [`${ENTERPRISE}: eq "x"`, /names a schema but no attribute/],
    [`${ENTERPRISE}:costCentre eq "x"`, /"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:costCentre" is not an attribute of User/],
    ['name eq "Ada"', /"name" is a complex attribute: filter on one of its sub-attributes, such as name.formatted/],
    ['userName[value eq "x"]', /"userName" is not multi-valued: a value filter/],
    ['name[givenName eq "x"]', /"name" is not multi-valued/],
    ['emails[foo eq "x"]', /"emails.foo" is not an attribute of User/],
    ['emails[type[value eq "x"] eq "y"]', /value filters do not nest/],
    ['emails[name.givenName eq "x"]', /must be a sub-attribute of "emails"/],
    [`emails[${ENTERPRISE}:department eq "x"]`, /must name a sub-attribute of "emails", without a schema URN/],
    ['emails[type eq "work"].value.x eq "y"', /"\.value\.x" at character 23 after "emails\[…\]" is not a sub-attribute/],
    ['emails[type eq "work"]value eq "y"', /"value" at character 23 after "emails\[…\]" is not a sub-attribute/],
    ['emails.value[type eq "work"]', /a value filter follows a multi-valued attribute, not a sub-attribute/],
    ['emails [type eq "work"]', /expected an operator after "emails" at character 8, found '\['/],
    ['meta.location eq "x"', /filtering on "meta.location" is not supported/],
    ['groups.type eq "direct"', /filtering on "groups.type" is not supported/],
    [`${ENTERPRISE}:manager.$ref pr`, /filtering on "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.\$ref" is not supported/],
  ],
  "bad literals": [
    ["userName eq x", /"x" at character 13 is not a value: strings go in double quotes/],
    ["userName eq Ada Lovelace", /"Ada" at character 13 is not a value/],
    ["userName eq 1.2.3", /"1.2.3" at character 13 is not a number/],
    ["userName eq 01", /"01" at character 13 is not a number/],
    ["userName eq 12abc", /"12abc" at character 13 is not a number/],
    ["userName eq 42", /"userName" is a string: compare it with a string in double quotes/],
    ["userName eq true", /"userName" is a string: compare it with a string in double quotes/],
    ["active eq True", /"True" at character 11: true, false and null are written in lower case/],
    ["active eq NULL", /true, false and null are written in lower case/],
    ["active eq tru", /"tru" at character 11 is not a value/],
    ['active eq "true"', /"active" is a boolean: compare it with true or false/],
    ["active eq 1", /"active" is a boolean: compare it with true or false/],
    ["active gt true", /"active" is a boolean: compare it with eq or ne/],
    ['active co "t"', /"active" is a boolean: compare it with eq or ne/],
    ['meta.lastModified gt "yesterday"', /"meta.lastModified" is a dateTime: compare it with one such as "2024-05-01T12:00:00Z"/],
    ['meta.lastModified gt "2024-02-30T00:00:00Z"', /is a dateTime/],
    ['meta.lastModified gt "2024-05-01T24:00:00Z"', /is a dateTime/],
    ['meta.lastModified gt "2024-05-01"', /is a dateTime/],
    ['meta.lastModified gt "2024-05-01T12:00:00+25:00"', /is a dateTime/],
    ["meta.lastModified gt 2024-05-01T12:00:00Z", /"2024-05-01T12:00:00Z" at character 22 is not a value: a dateTime is a string, in double quotes/],
    ["meta.created gt 1714564800", /"meta.created" is a dateTime/],
    ['meta.created co "2024"', /"meta.created" is a dateTime: compare it with eq, ne, gt, ge, lt or le/],
    ["title gt null", /"title" gt null: null compares with eq or ne only/],
    ["emails[type eq work]", /"work" at character 16 is not a value/],
    ['emails[primary eq "yes"]', /"emails.primary" is a boolean/],
  ],
  groups: [
    ['displayName eq "x" and', /"and" at character 20 has nothing after it/, "/Groups"],
    ['members[value eq "x"', /'\[' at character 8 is not closed/, "/Groups"],
    ['userName eq "x"', /"userName" is not an attribute of Group/, "/Groups"],
    ["members.display gt 1", /"members.display" is a string/, "/Groups"],
    ['members.$ref eq "x"', /filtering on "members.\$ref" is not supported/, "/Groups"],
    [`${ENTERPRISE}:department eq "x"`, /is not a schema of Group resources/, "/Groups"],
  ],
};

describe("malformed filters are a 400 invalidFilter with SCIM's error body (RFC 7644 sections 3.4.2.2 and 3.12)", () => {
  for (const [kind, cases] of Object.entries(MALFORMED)) {
    it.each(cases)(`${kind}: %j`, async (filter, detail, path = "/Users") => {
      const res = await get(path, filter);
      const said = expectError(res, 400, "invalidFilter");
      expect(said).toMatch(/^Invalid filter: /);
      expect(said).toMatch(detail);
      // The body is exactly the section 3.12 error: nothing else.
      expect(Object.keys(res.body).sort()).toEqual(["detail", "schemas", "scimType", "status"]);
    });
  }

  it("a filter given twice is one too many", async () => {
    expectError(await c.call("GET", `/Users?filter=${encodeURIComponent("title pr")}&filter=${encodeURIComponent("title pr")}`), 400, "invalidFilter");
  });

  it("a malformed filter in a PATCH path is an invalidFilter too, a malformed path an invalidPath (RFC 7644 section 3.5.2)", async () => {
    const patch = (path: string) =>
      c.call("PATCH", `/Users/${ada.id}`, { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [{ op: "replace", path, value: "x" }] });
    expect(expectError(await patch("emails[type eq work].value"), 400, "invalidFilter")).toMatch(/"work" at character 16 is not a value/);
    expect(expectError(await patch('emails[type eq "work".value'), 400, "invalidFilter")).toMatch(/not closed|expected '\]'/);
    expect(expectError(await patch("name..givenName"), 400, "invalidPath")).toMatch(/an attribute name is missing/);
    expect(expectError(await patch('title "x"'), 400, "invalidPath")).toMatch(/expected the end of the path/);
  });
});

describe("well-formed filters are answered (scimmy's parser got these wrong)", () => {
  /** [filter, the users it finds]; the tenant has ada and bob only. */
  const cases: [string, () => Record<string, any>[]][] = [
    ['((userName eq "nobody") or (name.givenName eq "Ada")) and title pr', () => [ada]],
    ['(userName eq "nobody" or (title eq "Analyst" and active eq true))', () => [ada]],
    ['name.middleName eq "The \\"Countess\\""', () => [ada]],
    ['not (name.givenName eq "Ada")', () => [bob]],
    ['not(name.givenName eq "Ada")', () => [bob]],
    ['NAME.GIVENNAME EQ "ada" AND NOT (ACTIVE EQ FALSE)'.replace("FALSE", "false"), () => [ada]],
    ['emails[type eq "work" and value co "ada-"]', () => [ada]],
    ['emails[not (value co "ada-")]', () => [bob]],
    ['emails[type eq "work"].value sw "bob-"', () => [bob]],
    ['name.givenName eq "Ada" or name.givenName eq "Bob" and active eq true', () => [ada]],
    ["title eq null", () => [bob]],
    ["title ne null", () => [ada]],
    [`${USER}:userName sw "ada-"`, () => [ada]],
    [`${ENTERPRISE}:department eq "engines"`, () => [ada]],
    ['meta.created gt "2000-01-01T00:00:00Z" and meta.created lt "2999-01-01T00:00:00.000+01:00"', () => [ada, bob]],
    ['meta.created ge "2000-01-01T00:00:00"', () => [ada, bob]],
    ['meta.created gt "9999-12-31T23:59:59.999Z" or meta.created lt "0001-01-01T00:30:00+01:00"', () => []],
    [`meta.created eq "${"CREATED"}"`, () => [ada]],
    ["  title   pr  ", () => [ada]],
  ];
  it.each(cases)("%s", async (filter, expected) => {
    // meta.created to the millisecond the resource shows (the test's filters are written before ada exists).
    const res = await get("/Users", filter.replace("CREATED", ada.meta.created));
    const want = expected().map((u) => u.id);
    expect(expectList(res, want.length).map((u) => u.id)).toEqual(want);
  });

  it("compares caseExact attributes exactly: externalId and id (RFC 7643 section 3.1), a group's displayName", async () => {
    expect(expectList(await get("/Users", `externalId eq "${ada.externalId}"`), 1)[0]!.id).toBe(ada.id);
    expectList(await get("/Users", `externalId eq "${ada.externalId.toUpperCase()}"`), 0);
    expectList(await get("/Users", `id eq "${ada.id.toUpperCase()}"`), 0);
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `Exact ${tag}` }), 201, "Group");
    expect(expectList(await get("/Groups", `displayName eq "Exact ${tag}"`), 1)[0]!.id).toBe(g.id);
    expectList(await get("/Groups", `displayName eq "exact ${tag}"`), 0);
    // userName is not caseExact.
    expect(expectList(await get("/Users", `userName eq "${ada.userName.toUpperCase()}"`), 1)[0]!.id).toBe(ada.id);
  });

  it("finds groups by their members", async () => {
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `With Ada ${tag}`, members: [{ value: ada.id }] }), 201, "Group");
    expect(expectList(await get("/Groups", `members[value eq "${ada.id}"]`), 1)[0]!.id).toBe(g.id);
    expect(expectList(await get("/Groups", `members.display co "lovelace" and displayName sw "With"`), 1)[0]!.id).toBe(g.id);
    expect(expectList(await get("/Users", `groups.value eq "${g.id}"`), 1)[0]!.id).toBe(ada.id);
    expect(expectList(await get("/Groups", "members pr"), 1)[0]!.id).toBe(g.id);
  });
});
