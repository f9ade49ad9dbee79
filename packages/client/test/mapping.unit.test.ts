import { describe, expect, it } from "vitest";
import { lookup, mapRecord } from "../src/mapping/apply.ts";
import { mappedColumns, mappingFromHeader, parseMapping, type Mapping } from "../src/mapping/schema.ts";

const mapping = (m: unknown): Mapping => {
  const p = parseMapping(m);
  if (!p.ok) throw new Error(p.problems.join("\n"));
  return p.mapping;
};

const full = mapping({
  columns: {
    externalEmployeeId: "emp_no",
    firstName: "given",
    lastName: "family",
    email: "mail",
    status: "state",
    hireDate: "start",
    "supervisor.name": "boss",
    "supervisor.email": "boss_mail",
    "metadata.costCenter": "cc",
  },
  status: { A: "ACTIVE", T: "TERMINATED" },
  roles: { column: "job_code", separator: ";", map: { WH1: ["inspector"], MGR: ["site_manager", "inspector"] } },
  groups: { column: "teams", separator: "|", role: "member" },
  sites: { column: "site", map: { MAIN: { id: "site-1", role: "site_manager" }, NORTH: "site-2" } },
  userAccount: { sendWelcomeEmail: true },
  updateMode: "additive",
});

describe("mapRecord", () => {
  it("fills fields, nested parts, value maps and assignments", () => {
    const { employee, warnings } = mapRecord(
      {
        emp_no: " E1 ",
        given: "Ada",
        family: "Lovelace",
        mail: "ada@example.test",
        state: "A",
        start: "2024-03-01",
        boss: "C. B.",
        boss_mail: "cb@example.test",
        cc: "4711",
        job_code: "MGR;WH1",
        teams: "Maintenance|Safety Team",
        site: "MAIN",
      },
      full,
    );
    expect(warnings).toEqual([]);
    expect(employee).toEqual({
      updateMode: "additive",
      externalEmployeeId: "E1",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.test",
      status: "ACTIVE",
      hireDate: "2024-03-01",
      supervisor: { name: "C. B.", email: "cb@example.test" },
      metadata: { costCenter: "4711" },
      userAccount: { sendWelcomeEmail: true },
      roles: ["site_manager", "inspector"],
      groups: [
        { groupName: "Maintenance", role: "member" },
        { groupName: "Safety Team", role: "member" },
      ],
      sites: [{ id: "site-1", role: "site_manager" }],
    });
  });

  it("leaves empty cells out, or sends null with emptyValues: clear", () => {
    const row = { emp_no: "E2", given: "", family: "X", mail: " ", state: "T", boss: "", cc: "", job_code: "", teams: "", site: "" };
    const omit = mapRecord(row, full).employee;
    expect(omit).toMatchObject({ externalEmployeeId: "E2", lastName: "X", status: "TERMINATED", roles: [], groups: [], sites: [] });
    expect(omit).not.toHaveProperty("firstName");
    expect(omit).not.toHaveProperty("supervisor");
    const clear = mapRecord(row, { ...full, emptyValues: "clear" }).employee;
    expect(clear).toMatchObject({ firstName: null, email: null, supervisor: null, metadata: null });
  });

  it("warns about values the maps do not list, or keeps them when asked", () => {
    const r = mapRecord(
      { emp_no: "E3", job_code: "WH1;XX", site: "SOUTH;NORTH" },
      mapping({ ...full, sites: { column: "site", separator: ";", map: { NORTH: "site-2" } } }),
    );
    expect(r.employee.roles).toEqual(["inspector"]);
    expect(r.employee.sites).toEqual([{ id: "site-2" }]);
    expect(r.warnings).toEqual([
      "Value 'XX' of column 'job_code' has no roles mapping, skipped",
      "Value 'SOUTH' of column 'site' has no sites mapping, skipped",
    ]);
    const kept = mapRecord(
      { id: "1", r: "a;b" },
      mapping({ columns: { externalEmployeeId: "id" }, roles: { column: "r", separator: ";", map: { a: "A" }, unmapped: "keep" } }),
    );
    expect(kept.employee.roles).toEqual(["A", "b"]);
  });

  it("reads JSON values: numbers as text, arrays as lists, dotted paths into objects", () => {
    const m = mapping({
      columns: { externalEmployeeId: "id", phone: "contact.phone", "metadata.tags": "tags" },
      roles: { column: "roles" },
      groups: { column: "groups", by: "externalGroupId" },
    });
    const r = mapRecord({ id: 42, contact: { phone: 4930123 }, tags: ["a", "b"], roles: ["inspector", "inspector"], groups: ["grp-1"] }, m);
    expect(r.employee).toEqual({
      externalEmployeeId: "42",
      phone: "4930123",
      metadata: { tags: ["a", "b"] },
      roles: ["inspector"],
      groups: [{ externalGroupId: "grp-1" }],
    });
    expect(lookup({ "a.b": 1, a: { b: 2 } }, "a.b")).toBe(1);
  });
});

describe("mapping files", () => {
  it("reports every problem with its place", () => {
    const p = parseMapping({ columns: { email: "", nickname: "nick" }, roles: { separator: ";" }, status: { X: "GONE" }, extra: 1 });
    expect(p.ok).toBe(false);
    const problems = (p as { problems: string[] }).problems.join("\n");
    expect(problems).toContain("columns.email: a column name is required");
    expect(problems).toContain("unknown field 'nickname'");
    expect(problems).toContain("roles.column");
    expect(problems).toContain("status.X");
    expect(problems).toMatch(/extra/);
  });

  it("lists the columns it reads and builds itself from a header", () => {
    expect(mappedColumns(full).sort()).toEqual(["boss", "boss_mail", "cc", "emp_no", "family", "given", "job_code", "mail", "site", "start", "state", "teams"]);
    const m = mappingFromHeader(["externalEmployeeId", "email", "supervisor.email", "metadata.cc", "roles", "unknown"]);
    expect(m.columns).toEqual({
      externalEmployeeId: "externalEmployeeId",
      email: "email",
      "supervisor.email": "supervisor.email",
      "metadata.cc": "metadata.cc",
    });
    expect(
      mapRecord({ externalEmployeeId: "E", email: "e@x.test", "supervisor.email": "s@x.test", "metadata.cc": "1", roles: "a;b", unknown: "z" }, m).employee,
    ).toEqual({
      externalEmployeeId: "E",
      email: "e@x.test",
      supervisor: { email: "s@x.test" },
      metadata: { cc: "1" },
      roles: ["a", "b"],
    });
  });
});
