import { describe, expect, it } from "vitest";
import { RULE_MESSAGES, chainKeys, diffAssignments, generatedDisplayName, mergeFields, planAssignments } from "../src/employees/rules.ts";
import type { Assignments, ResolvedRefs, SyncEmployee } from "../src/employees/types.ts";

const SITE_A = "11111111-1111-4111-8111-111111111111";
const SITE_B = "22222222-2222-4222-8222-222222222222";
const refs: ResolvedRefs = {
  rolesByName: new Map([
    ["inspector", "r-insp"],
    ["site_manager", "r-sm"],
  ]),
  groupsByName: new Map([["Maintenance", "g-maint"]]),
  groupsByExternalId: new Map([["grp-safety", "g-safety"]]),
  sites: new Set([SITE_A, SITE_B]),
};
const none = (): Assignments => ({ roles: new Map(), groups: new Map(), sites: new Map() });
const emp = (e: Partial<SyncEmployee>): SyncEmployee => ({ externalEmployeeId: "E1", status: "ACTIVE", updateMode: "replace", ...e });

describe("planAssignments", () => {
  it("resolves roles, groups (name or external id) and sites, warning in the spec's words for missing ones", () => {
    const { desired, warnings } = planAssignments(
      emp({
        roles: ["inspector", "ghost"],
        groups: [{ groupName: "Maintenance", role: "lead" }, { externalGroupId: "grp-safety" }, { groupName: "Nope" }],
        sites: [{ id: SITE_A.toUpperCase() }, { id: "x" }],
      }),
      none(),
      refs,
    );
    expect([...desired.roles]).toEqual([["r-insp", "inspector"]]);
    expect([...desired.groups]).toEqual([
      ["g-maint", "lead"],
      ["g-safety", null],
    ]);
    expect([...desired.sites]).toEqual([[SITE_A, null]]);
    expect(warnings).toEqual(["Role 'ghost' not found, skipped", "Group 'Nope' not found, skipped", "Site with id 'x' not found, skipped"]);
  });

  it("warns once per missing name, in the order first seen", () => {
    const { warnings } = planAssignments(
      emp({ roles: ["b", "a", "b", "inspector", "a"], groups: [{ groupName: "Nope" }, { groupName: "Nope" }] }),
      none(),
      refs,
    );
    expect(warnings).toEqual(["Role 'b' not found, skipped", "Role 'a' not found, skipped", "Group 'Nope' not found, skipped"]);
  });

  it("replace keeps only what is given; additive keeps what the employee has", () => {
    const current: Assignments = { roles: new Map([["r-sm", "site_manager"]]), groups: new Map([["g-maint", null]]), sites: new Map([[SITE_B, "lead"]]) };
    const replace = planAssignments(emp({ roles: ["inspector"] }), current, refs).desired;
    expect([replace.roles.size, replace.groups.size, replace.sites.size]).toEqual([1, 0, 0]);
    const additive = planAssignments(emp({ roles: ["inspector"], updateMode: "additive" }), current, refs).desired;
    expect([...additive.roles.keys()].sort()).toEqual(["r-insp", "r-sm"]);
    expect([...additive.sites]).toEqual([[SITE_B, "lead"]]);
  });

  it("INACTIVE and TERMINATED end with no assignments and no warnings", () => {
    const current: Assignments = { roles: new Map([["r-insp", "inspector"]]), groups: new Map([["g-maint", null]]), sites: new Map([[SITE_A, null]]) };
    for (const status of ["INACTIVE", "TERMINATED"] as const) {
      const { desired, warnings } = planAssignments(emp({ status, roles: ["ghost"], updateMode: "additive" }), current, refs);
      expect([desired.roles.size, desired.groups.size, desired.sites.size, warnings.length]).toEqual([0, 0, 0, 0]);
    }
  });

  it("applies the three site_manager rules after skipping missing sites", () => {
    const plan =
      (e: Partial<SyncEmployee>, current = none()) =>
      () =>
        planAssignments(emp(e), current, refs);
    expect(plan({ roles: ["site_manager"] })).toThrow(RULE_MESSAGES.siteManagerWithoutSite);
    expect(plan({ roles: ["inspector"], sites: [{ id: SITE_A, role: "site_manager" }] })).toThrow(RULE_MESSAGES.siteManagerSiteLevelWithoutRole);
    expect(plan({ roles: ["site_manager"], sites: [{ id: "33333333-3333-4333-8333-333333333333" }] })).toThrow(RULE_MESSAGES.siteManagerNoSiteLeft);
    expect(plan({ roles: ["site_manager"], sites: [{ id: SITE_A, role: "site_manager" }] })).not.toThrow();
    const withSite: Assignments = { ...none(), sites: new Map([[SITE_A, null]]) };
    expect(plan({ roles: ["site_manager"], updateMode: "additive" }, withSite)).not.toThrow();
    expect(plan({ roles: ["site_manager"] }, withSite)).toThrow(RULE_MESSAGES.siteManagerWithoutSite);
    // A site-level site_manager for a site that does not exist is only a warning.
    expect(plan({ roles: ["inspector"], sites: [{ id: "x", role: "site_manager" }] })).not.toThrow();
  });
});

describe("mergeFields", () => {
  it("keeps absent fields, clears null ones, generates displayName, and reports no change for an identical sync", () => {
    const first = mergeFields(null, emp({ firstName: "Ada", lastName: "Lovelace", metadata: { a: 1, b: [1, 2] }, terminationDate: "2025-01-01" }));
    expect(first.changed).toBe(true);
    expect(first.fields).toMatchObject({ displayName: "Ada Lovelace", email: null, terminationDate: "2025-01-01" });
    const same = mergeFields(first.fields, emp({ firstName: "Ada", metadata: { b: [1, 2], a: 1 } }));
    expect(same.changed).toBe(false);
    const cleared = mergeFields(first.fields, emp({ terminationDate: null, displayName: "Countess" }));
    expect(cleared.fields).toMatchObject({ terminationDate: null, displayName: "Countess", firstName: "Ada", metadata: { a: 1, b: [1, 2] } });
    expect(cleared.changed).toBe(true);
    expect(generatedDisplayName(null, "Solo")).toBe("Solo");
    expect(generatedDisplayName(null, null)).toBeNull();
  });
});

describe("diffAssignments", () => {
  it("writes only the difference", () => {
    const current: Assignments = {
      roles: new Map([
        ["r1", "a"],
        ["r2", "b"],
      ]),
      groups: new Map([["g1", "x"]]),
      sites: new Map([["s1", null]]),
    };
    const desired: Assignments = {
      roles: new Map([
        ["r2", "b"],
        ["r3", "c"],
      ]),
      groups: new Map([["g1", "y"]]),
      sites: new Map([["s1", null]]),
    };
    const d = diffAssignments(current, desired);
    expect(d).toMatchObject({ addRoles: ["r3"], removeRoles: ["r1"], removeGroups: [], removeSites: [], changed: true });
    expect([...d.putGroups]).toEqual([["g1", "y"]]);
    expect(d.putSites.size).toBe(0);
    expect(diffAssignments(desired, desired).changed).toBe(false);
  });
});

describe("chainKeys", () => {
  it("chains employees sharing an id or an e-mail (case aside), transitively", () => {
    const keys = chainKeys([
      { externalEmployeeId: "A", email: "a@x.test" },
      { externalEmployeeId: "B", email: "b@x.test" },
      { externalEmployeeId: "C", email: "A@X.TEST" },
      { externalEmployeeId: "B" },
      { externalEmployeeId: "D", email: "b@x.test" },
      { externalEmployeeId: "C", email: "c@x.test" },
      { externalEmployeeId: "E", email: "c@x.test" },
      { externalEmployeeId: "F" },
    ]);
    expect(keys).toEqual(["A", "B", "A", "B", "B", "A", "A", "F"]);
  });
});
