import { describe, expect, it } from "vitest";
import { SyncRequestBody, validateEmployee } from "../src/employee-sync.ts";

describe("validateEmployee", () => {
  it("normalizes a valid employee: defaults, trimming, case of enums, numbers as ids", () => {
    const v = validateEmployee({
      externalEmployeeId: 42,
      status: "inactive",
      updateMode: "Additive",
      email: " A@B.example ",
      phone: "",
      unknownField: 1,
      userAccount: { username: null },
    });
    expect(v).toEqual({
      ok: true,
      employee: {
        externalEmployeeId: "42",
        status: "INACTIVE",
        updateMode: "additive",
        email: "A@B.example",
        phone: null,
        userAccount: { forcePasswordReset: false, sendWelcomeEmail: false },
      },
    });
    expect(validateEmployee({ externalEmployeeId: "x" })).toEqual({ ok: true, employee: { externalEmployeeId: "x", status: "ACTIVE", updateMode: "replace" } });
  });

  it("uses the spec's wording and reports every problem, the id first", () => {
    expect(validateEmployee({})).toEqual({ ok: false, externalEmployeeId: null, message: "externalEmployeeId is required" });
    expect(validateEmployee({ externalEmployeeId: "x", email: "nope" })).toMatchObject({ message: "Invalid email format" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: {} })).toMatchObject({ message: "Email is required for ACTIVE users with userAccount" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: {}, status: "TERMINATED" }).ok).toBe(true);
    expect(validateEmployee({ email: "bad", userAccount: {} })).toMatchObject({ message: "externalEmployeeId is required; Invalid email format" });
    expect(validateEmployee({ externalEmployeeId: "x", hireDate: "2024-01-01T10:00:00+02:00", terminationDate: null }).ok).toBe(true);
    expect(validateEmployee({ externalEmployeeId: "x", hireDate: "01/02/2024" })).toMatchObject({
      message: "Invalid hireDate: expected an ISO 8601 date or date-time",
    });
    expect(validateEmployee({ externalEmployeeId: "x", sites: [{ role: "lead" }] })).toMatchObject({ message: "Site assignment needs an id" });
    expect(validateEmployee({ externalEmployeeId: "x", firstName: 3 })).toMatchObject({ message: "firstName must be string" });
    expect(validateEmployee({ externalEmployeeId: "x", userAccount: { forcePasswordReset: "yes" }, email: "a@b.example" })).toMatchObject({
      message: "userAccount.forcePasswordReset must be boolean",
    });
  });
});

describe("validateEmployee: values that cannot be turned into text", () => {
  // JSON.parse, as the API reads bodies: an own "__proto__" key, objects whose toString and
  // valueOf are numbers (String() of them throws "Cannot convert object to primitive value").
  const parse = (text: string) => JSON.parse(text) as unknown;
  it("names the JSON type of an object or array given for an enum, without coercing it", () => {
    expect(validateEmployee(parse('{"externalEmployeeId":"x","status":{"toString":1}}'))).toEqual({
      ok: false,
      externalEmployeeId: "x",
      message: "Invalid status (an object): expected ACTIVE, INACTIVE or TERMINATED",
    });
    expect(validateEmployee(parse('{"externalEmployeeId":"x","status":{"__proto__":null,"toString":1,"valueOf":1}}'))).toMatchObject({
      message: "Invalid status (an object): expected ACTIVE, INACTIVE or TERMINATED",
    });
    expect(validateEmployee(parse('{"externalEmployeeId":"x","status":[{"toString":1}]}'))).toMatchObject({
      message: "Invalid status (an array): expected ACTIVE, INACTIVE or TERMINATED",
    });
    expect(validateEmployee(parse('{"externalEmployeeId":"x","updateMode":{"valueOf":1,"toString":{}}}'))).toMatchObject({
      message: "Invalid updateMode (an object): expected replace or additive",
    });
    expect(validateEmployee(parse('{"externalEmployeeId":"x","updateMode":["replace"]}'))).toMatchObject({
      message: "Invalid updateMode (an array): expected replace or additive",
    });
    // Scalars are still shown as they were sent.
    expect(validateEmployee({ externalEmployeeId: "x", status: 7 })).toMatchObject({ message: "Invalid status '7': expected ACTIVE, INACTIVE or TERMINATED" });
    expect(validateEmployee({ externalEmployeeId: "x", updateMode: false })).toMatchObject({
      message: "Invalid updateMode 'false': expected replace or additive",
    });
  });

  it("reports such values in every other field as it reports any wrong type, and ignores __proto__, toString and valueOf keys", () => {
    const trap = '{"__proto__":null,"toString":1,"valueOf":1,"toJSON":1}';
    const messages: Record<string, string> = {
      firstName: "firstName must be string",
      email: "Invalid email format",
      hireDate: "Invalid hireDate: expected an ISO 8601 date or date-time",
      roles: "roles must be an array of role names",
      groups: "groups must be array",
      sites: "sites must be array",
      userAccount: "Email is required for ACTIVE users with userAccount",
    };
    for (const [field, message] of Object.entries(messages))
      expect(validateEmployee(parse(`{"externalEmployeeId":"x","${field}":${trap}}`)), field).toEqual({ ok: false, externalEmployeeId: "x", message });
    expect(validateEmployee(parse(`{"externalEmployeeId":${trap}}`))).toEqual({
      ok: false,
      externalEmployeeId: null,
      message: "externalEmployeeId is required",
    });
    expect(
      validateEmployee(parse(`{"externalEmployeeId":"x","roles":[${trap}],"groups":[${trap}],"sites":[${trap}],"supervisor":{"name":${trap}}}`)),
    ).toMatchObject({
      message: "supervisor.name must be string; roles.0 must be string; Group assignment needs groupName or externalGroupId; Site assignment needs an id",
    });
    expect(validateEmployee(parse(`{"externalEmployeeId":"x","metadata":${trap},"supervisor":${trap}}`)).ok).toBe(true);
    const keys = validateEmployee(
      parse('{"__proto__":{"status":"TERMINATED"},"toString":1,"valueOf":1,"constructor":{"prototype":null},"externalEmployeeId":"x"}'),
    );
    expect(keys).toEqual({ ok: true, employee: { externalEmployeeId: "x", status: "ACTIVE", updateMode: "replace" } });
  });
});

describe("validateEmployee: size limits", () => {
  const id = { externalEmployeeId: "x" };
  it("accepts 100 roles, groups and sites and refuses 101 of each with its own message", () => {
    const n = (k: number) => Array.from({ length: k }, (_, i) => `r${i}`);
    const full = { ...id, roles: n(100), groups: n(100).map((g) => ({ groupName: g })), sites: n(100).map((s) => ({ id: s })) };
    expect(validateEmployee(full).ok).toBe(true);
    expect(validateEmployee({ ...id, roles: n(101) })).toEqual({ ok: false, externalEmployeeId: "x", message: "At most 100 roles per employee" });
    expect(validateEmployee({ ...id, groups: n(101).map((g) => ({ groupName: g })) })).toMatchObject({ message: "At most 100 groups per employee" });
    expect(validateEmployee({ ...id, sites: n(101).map((s) => ({ id: s })) })).toMatchObject({ message: "At most 100 sites per employee" });
    expect(validateEmployee({ ...id, roles: ["x".repeat(256)] })).toMatchObject({ message: "roles.0 is too long" });
  });

  it("bounds metadata by serialized size and nesting, and supervisor fields by length", () => {
    expect(validateEmployee({ ...id, metadata: { note: "x".repeat(16_000) } }).ok).toBe(true);
    expect(validateEmployee({ ...id, metadata: { note: "x".repeat(16_400) } })).toMatchObject({ message: "metadata must be at most 16384 characters of JSON" });
    const nest = (d: number): unknown => (d === 0 ? 1 : { a: nest(d - 1) });
    expect(validateEmployee({ ...id, metadata: nest(20) }).ok).toBe(true);
    expect(validateEmployee({ ...id, metadata: nest(21) })).toMatchObject({ message: "metadata must be nested at most 20 levels deep" });
    // Deeper than JSON.stringify can go: still a per-employee error, not a crash.
    const deep = JSON.parse(`{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
    expect(validateEmployee({ ...id, metadata: deep })).toMatchObject({ message: "metadata must be nested at most 20 levels deep" });
    expect(validateEmployee({ ...id, supervisor: { name: "n".repeat(1001) } })).toMatchObject({ message: "supervisor.name is too long" });
  });

  it("reports at most ten problems of one employee", () => {
    const v = validateEmployee({ ...id, groups: Array.from({ length: 50 }, () => ({ groupName: "g".repeat(300) })) });
    expect(v.ok).toBe(false);
    const parts = (v as { message: string }).message.split("; ");
    expect(parts).toHaveLength(11);
    expect(parts[10]).toBe("and 40 more problems");
  });
});

describe("SyncRequestBody", () => {
  const problems = (body: unknown) => {
    const r = SyncRequestBody.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message]);
  };
  it("accepts up to 500 employees of any shape (each is validated on its own) and a null syncBatchId", () => {
    expect(problems({ employees: Array(500).fill("not an object") })).toEqual([]);
    expect(problems({ syncBatchId: null, employees: [] })).toEqual([]);
    expect(SyncRequestBody.parse({ employees: [] }).syncBatchId).toBeUndefined();
  });
  it("names what is wrong with the request as a whole", () => {
    expect(problems({ employees: Array(501).fill({}) })).toEqual([["employees", "At most 500 employees per request (got 501)"]]);
    expect(problems([])).toEqual([["", "Request body must be a JSON object with an employees array"]]);
    expect(problems({ employees: "x" })).toEqual([["employees", "must be an array"]]);
    expect(problems({})).toEqual([["employees", "must be an array"]]);
    expect(problems({ employees: [], syncBatchId: 1 })).toEqual([["syncBatchId", "must be a string of at most 255 characters"]]);
    expect(problems({ employees: [], syncBatchId: "x".repeat(256) })).toEqual([["syncBatchId", "must be a string of at most 255 characters"]]);
  });
});
