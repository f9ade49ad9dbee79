import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "@insp/testing";
import { ENTERPRISE, GROUP, PATCH_OP, USER, expectError, expectList, expectResource, expectScim, scimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * The request sequences Okta and Microsoft Entra ID document for SCIM 2.0 provisioning, replayed
 * with their bodies (Okta: "SCIM 2.0 Protocol Reference"; Entra: "Tutorial: Develop and plan
 * provisioning for a SCIM endpoint" and "Known issues ... SCIM 2.0 protocol compliance"), each
 * answer checked against RFC 7643/7644 and against what the service then holds.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const employee = async (id: string) =>
  (
    await stack.db.sql<
      {
        status: string;
        external_employee_id: string;
        first_name: string | null;
        last_name: string | null;
        email: string | null;
        department: string | null;
        disabled: boolean | null;
        username: string | null;
        metadata: Record<string, unknown> | null;
        manager_id: string | null;
      }[]
    >`
    select e.status, e.external_employee_id, e.first_name, e.last_name, e.email, e.department, e.metadata, e.manager_id, u.disabled, u.username
    from employees e left join users u on u.id = e.user_id where e.id = ${id}`
  )[0]!;
const groupsOf = async (employeeId: string) =>
  (
    await stack.db.sql<
      { name: string }[]
    >`select g.name from employee_groups eg join groups g on g.id = eg.group_id where eg.employee_id = ${employeeId} order by g.name`
  ).map((r) => r.name);

describe("Okta's SCIM 2.0 sequence", () => {
  it("looks a user up, creates it, reads, updates, deactivates and reactivates it; pushes a group and its members", async () => {
    const t = await stack.tenant();
    const okta = await scimCaller(stack, t);
    const headers = { "user-agent": "Okta SCIM Client 1.0.0" };
    const userName = `test.user-${t.organization.id.slice(0, 8)}@okta.local`;

    // Does the user exist? 200 with an empty list (not 404).
    const lookup = await okta.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`, undefined, headers);
    expect(expectList(lookup, 0)).toEqual([]);

    const body = {
      schemas: [USER],
      userName,
      name: { givenName: "Test", familyName: "User" },
      emails: [{ primary: true, value: userName, type: "work" }],
      displayName: "Test User",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    };
    const created = expectResource(await okta.call("POST", "/Users", body, headers), 201, "User");
    expect(created).toMatchObject({
      userName,
      externalId: "00ujl29u0le5T6Aj10h7",
      name: { givenName: "Test", familyName: "User" },
      displayName: "Test User",
      active: true,
      emails: [{ value: userName, type: "work", primary: true }],
      groups: [],
    });
    expect(created).not.toHaveProperty("password");
    // The same user again: 409 uniqueness.
    expectError(await okta.call("POST", "/Users", body, headers), 409, "uniqueness");
    // It is an employee with an account.
    expect(await employee(created.id)).toMatchObject({
      status: "ACTIVE",
      external_employee_id: "00ujl29u0le5T6Aj10h7",
      email: userName,
      username: userName,
      disabled: false,
    });

    const read = expectResource(await okta.call("GET", `/Users/${created.id}`, undefined, headers), 200, "User");
    expect(read).toEqual(created);
    expect(
      expectList(await okta.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}&startIndex=1&count=100`), 1)[0]!.id,
    ).toBe(created.id);

    // Profile update: PUT of the whole user.
    const put = {
      schemas: [USER],
      id: created.id,
      userName,
      name: { givenName: "Another", middleName: "Excited", familyName: "User" },
      emails: [{ primary: true, value: userName, type: "work", display: userName }],
      active: true,
      groups: [],
      meta: { resourceType: "User" },
    };
    const updated = expectResource(await okta.call("PUT", `/Users/${created.id}`, put, headers), 200, "User");
    // middleName is kept (RFC 7643 section 4.1.1), and the formatted name made of the parts.
    expect(updated).toMatchObject({ name: { givenName: "Another", middleName: "Excited", familyName: "User", formatted: "Another Excited User" } });
    expect(updated.meta.version).not.toBe(created.meta.version);
    expect(await employee(created.id)).toMatchObject({ first_name: "Another", external_employee_id: "00ujl29u0le5T6Aj10h7" });

    // Deactivate and reactivate: a replace without a path.
    const deactivated = expectResource(
      await okta.call("PATCH", `/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }, headers),
      200,
      "User",
    );
    expect(deactivated.active).toBe(false);
    expect(await employee(created.id)).toMatchObject({ status: "INACTIVE", disabled: true });
    const reactivated = expectResource(
      await okta.call("PATCH", `/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true } }] }, headers),
      200,
      "User",
    );
    expect(reactivated.active).toBe(true);
    expect(await employee(created.id)).toMatchObject({ status: "ACTIVE", disabled: false });

    // Import: every user, one page.
    expect(expectList(await okta.call("GET", "/Users?startIndex=1&count=100", undefined, headers), 1).map((u) => u.id)).toEqual([created.id]);

    // Group push.
    const group = expectResource(await okta.call("POST", "/Groups", { schemas: [GROUP], displayName: "Test SCIMv2", members: [] }, headers), 201, "Group");
    expect(group).toMatchObject({ displayName: "Test SCIMv2", members: [] });
    expectResource(await okta.call("GET", `/Groups/${group.id}`, undefined, headers), 200, "Group");
    // A rename carrying the group's own id (Okta sends it on every membership update).
    expectScim(
      await okta.call(
        "PATCH",
        `/Groups/${group.id}`,
        { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { id: group.id, displayName: "Test SCIMv2" } }] },
        headers,
      ),
      204,
    );
    // Membership: remove one that is not there and add the user.
    const membership = {
      schemas: [PATCH_OP],
      Operations: [
        { op: "remove", path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' },
        { op: "add", path: "members", value: [{ value: created.id, display: userName }] },
      ],
    };
    expectScim(await okta.call("PATCH", `/Groups/${group.id}`, membership, headers), 204);
    const withMember = expectResource(await okta.call("GET", `/Groups/${group.id}`, undefined, headers), 200, "Group");
    expect(withMember.members).toEqual([
      { value: created.id, $ref: expect.stringMatching(new RegExp(`/Users/${created.id}$`)), type: "User", display: "Another User" },
    ]);
    expect(await groupsOf(created.id)).toEqual(["Test SCIMv2"]);
    expect(expectResource(await okta.call("GET", `/Users/${created.id}`), 200, "User").groups.map((g: { display: string }) => g.display)).toEqual([
      "Test SCIMv2",
    ]);
    // A full membership push replaces the members.
    expectScim(
      await okta.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "members", value: [] }] }, headers),
      204,
    );
    expect(await groupsOf(created.id)).toEqual([]);
    // Custom apps: PUT of the group.
    const putGroup = expectResource(
      await okta.call(
        "PUT",
        `/Groups/${group.id}`,
        { schemas: [GROUP], displayName: "Test SCIMv20", members: [{ value: created.id, display: userName }] },
        headers,
      ),
      200,
      "Group",
    );
    expect(putGroup).toMatchObject({ displayName: "Test SCIMv20", members: [{ value: created.id }] });
    // Delete the group: its members lose it.
    expectScim(await okta.call("DELETE", `/Groups/${group.id}`, undefined, headers), 204);
    expectError(await okta.call("GET", `/Groups/${group.id}`), 404);
    expect(await groupsOf(created.id)).toEqual([]);
  });
});

describe("Microsoft Entra ID's provisioning sequence", () => {
  it("tests the connection, creates users (the documented bodies, nulls included), finds them by userName, externalId and work e-mail, updates, disables and deletes them", async () => {
    const t = await stack.tenant();
    const entra = await scimCaller(stack, t);
    const tag = t.organization.id.slice(0, 8);
    // Test Connection: a random user that does not exist, 200 with an empty list.
    expectList(await entra.call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${randomUUID()}"`)}`), 0);

    const first = expectResource(
      await entra.call("POST", "/Users", {
        schemas: [USER, ENTERPRISE],
        externalId: `0a21f0f2-8d2a-4f8e-bf98-${tag}`,
        userName: `Test_User_${tag}`,
        active: true,
        emails: [{ primary: true, type: "work", value: `Test_User_${tag}@testuser.com` }],
        meta: { resourceType: "User" },
        name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
        roles: [],
      }),
      201,
      "User",
    );
    expect(first).toMatchObject({ userName: `Test_User_${tag}`, active: true, name: { givenName: "givenName", familyName: "familyName" } });
    // "Example 2": nulls and a misspelt extension URN.
    const joy = expectResource(
      await entra.call("POST", "/Users", {
        schemas: [USER, "urn:ietf:params:scim:schemas:extension:enterprise:2.0User"],
        externalId: `jyoung-${tag}`,
        userName: `jyoung-${tag}@testuser.com`,
        active: true,
        addresses: null,
        displayName: "Joy Young",
        emails: [{ type: "work", value: `jyoung-${tag}@Contoso.com`, primary: true }],
        meta: { resourceType: "User" },
        name: { familyName: "Young", givenName: "Joy" },
        phoneNumbers: null,
        preferredLanguage: null,
        title: null,
        department: null,
        manager: null,
      }),
      201,
      "User",
    );
    expect(joy).toMatchObject({ displayName: "Joy Young", emails: [{ value: `jyoung-${tag}@Contoso.com`, type: "work" }] });

    expectError(await entra.call("GET", `/Users/${randomUUID()}`), 404);
    const q = (f: string) => entra.call("GET", `/Users?filter=${encodeURIComponent(f)}`);
    expect(expectList(await q(`userName eq "Test_User_${tag}"`), 1)[0]!.id).toBe(first.id);
    expect(expectList(await q(`externalId eq "jyoung-${tag}"`), 1)[0]!.id).toBe(joy.id);
    expect(expectList(await q(`emails[type eq "work"].value eq "jyoung-${tag}@contoso.com"`), 1)[0]!.id).toBe(joy.id);
    expectList(await q(`emails[type eq "home"].value eq "jyoung-${tag}@contoso.com"`), 0);

    // Update User [Multi-valued properties]: the work e-mail and the family name.
    const multi = await entra.call("PATCH", `/Users/${first.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: `updated-${tag}@microsoft.com` },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
      ],
    });
    expect(expectResource(multi, 200, "User")).toMatchObject({
      emails: [{ value: `updated-${tag}@microsoft.com`, type: "work", primary: true }],
      name: { familyName: "updatedFamilyName" },
    });
    expect(await employee(first.id)).toMatchObject({ email: `updated-${tag}@microsoft.com`, last_name: "updatedFamilyName" });
    // Update User [Single-valued properties]: userName.
    const renamed = await entra.call("PATCH", `/Users/${first.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "userName", value: `5b50642d-${tag}@testuser.com` }],
    });
    expect(expectResource(renamed, 200, "User").userName).toBe(`5b50642d-${tag}@testuser.com`);
    expect((await employee(first.id)).username).toBe(`5b50642d-${tag}@testuser.com`);

    // The tenant-flag form: a path-less replace with dotted keys, the enterprise employeeNumber, externalId renamed.
    const flagged = await entra.call("PATCH", `/Users/${joy.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: "displayName", value: "Pvlo" },
        { op: "Replace", path: "externalId", value: `Eqpj-${tag}` },
        { op: "Replace", path: `${ENTERPRISE}:employeeNumber`, value: "Eqpj" },
        { op: "replace", value: { "name.givenName": "Kkom", [`${ENTERPRISE}:department`]: "Warehouse" } },
      ],
    });
    expect(expectResource(flagged, 200, "User")).toMatchObject({
      displayName: "Pvlo",
      externalId: `Eqpj-${tag}`,
      name: { givenName: "Kkom" },
      [ENTERPRISE]: { employeeNumber: "Eqpj", department: "Warehouse" },
    });
    expect(await employee(joy.id)).toMatchObject({ external_employee_id: `Eqpj-${tag}`, department: "Warehouse", metadata: { employeeNumber: "Eqpj" } });
    // The manager, as the tutorial's Example 5 sends it.
    const managed = await entra.call("PATCH", `/Users/${joy.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Add", path: "manager", value: [{ $ref: `http://x/scim/Users/${first.id}`, value: first.id }] }],
    });
    expect(expectResource(managed, 200, "User")[ENTERPRISE].manager).toMatchObject({ value: first.id });
    expect((await employee(joy.id)).manager_id).toBe(first.id);
    // An "Add" of nickName (kept), and of a work address (the service keeps no addresses: accepted, nothing changes).
    expect(
      expectResource(
        await entra.call("PATCH", `/Users/${joy.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Add", path: "nickName", value: "Babs" }] }),
        200,
        "User",
      ).nickName,
    ).toBe("Babs");
    const addressed = expectResource(
      await entra.call("PATCH", `/Users/${joy.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Add", path: 'addresses[type eq "work"].streetAddress', value: "1 Main St" }],
      }),
      200,
      "User",
    );
    expect(addressed).not.toHaveProperty("addresses");

    // Disable User: the tutorial's body, and the default tenants' string boolean.
    expect(
      expectResource(
        await entra.call("PATCH", `/Users/${first.id}`, { Operations: [{ op: "Replace", path: "active", value: false }], schemas: [PATCH_OP] }),
        200,
        "User",
      ).active,
    ).toBe(false);
    expect(
      expectResource(
        await entra.call("PATCH", `/Users/${joy.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] }),
        200,
        "User",
      ).active,
    ).toBe(false);
    expect(await employee(joy.id)).toMatchObject({ status: "INACTIVE", disabled: true });
    // Disabled users stay visible (a soft delete for Entra).
    expect(expectList(await q(`userName eq "5b50642d-${tag}@testuser.com"`), 1)[0]!.active).toBe(false);

    // Delete User: 204, then 404; the employee is TERMINATED.
    expectScim(await entra.call("DELETE", `/Users/${first.id}`), 204);
    expectError(await entra.call("GET", `/Users/${first.id}`), 404);
    expectList(await q(`userName eq "5b50642d-${tag}@testuser.com"`), 0);
    expect(await employee(first.id)).toMatchObject({ status: "TERMINATED", disabled: true });
  });

  it("creates a group, reads it without members, finds it by displayName, renames it, adds and removes members (both documented forms) and deletes it", async () => {
    const t = await stack.tenant();
    const entra = await scimCaller(stack, t);
    const user = (n: string) =>
      entra.call("POST", "/Users", {
        schemas: [USER],
        userName: `${n}-${t.organization.id.slice(0, 8)}@example.test`,
        externalId: `${n}-${t.organization.id}`,
        active: true,
      });
    const [u1, u2] = [expectResource(await user("u1"), 201, "User"), expectResource(await user("u2"), 201, "User")];

    const group = expectResource(
      await entra.call("POST", "/Groups", {
        schemas: [GROUP, "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group"],
        externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
        displayName: "displayName",
        meta: { resourceType: "Group" },
      }),
      201,
      "Group",
    );
    expect(group).toMatchObject({ externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159", displayName: "displayName", members: [] });
    const bare = expectResource(await entra.call("GET", `/Groups/${group.id}?excludedAttributes=members`), 200, "Group");
    expect(bare).not.toHaveProperty("members");
    const found = expectList(await entra.call("GET", `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`), 1);
    expect(found[0]!).toMatchObject({ id: group.id, displayName: "displayName" });
    expect(found[0]!).not.toHaveProperty("members");

    // Update Group [Non-member attributes], [Add Members], [Remove Members] (the tutorial's form, then the flag form).
    expectScim(
      await entra.call("PATCH", `/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Replace", path: "displayName", value: "updatedDisplayName" }],
      }),
      204,
    );
    expectScim(
      await entra.call("PATCH", `/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: "Add",
            path: "members",
            value: [
              { $ref: null, value: u1.id },
              { $ref: null, value: u2.id },
            ],
          },
        ],
      }),
      204,
    );
    expect(
      expectResource(await entra.call("GET", `/Groups/${group.id}`), 200, "Group")
        .members.map((m: { value: string }) => m.value)
        .sort(),
    ).toEqual([u1.id, u2.id].sort());
    expectScim(
      await entra.call("PATCH", `/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Remove", path: "members", value: [{ $ref: null, value: u1.id }] }],
      }),
      204,
    );
    expect(await groupsOf(u1.id)).toEqual([]);
    expect(await groupsOf(u2.id)).toEqual(["updatedDisplayName"]);
    expectScim(
      await entra.call("PATCH", `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${u2.id}"]` }] }),
      204,
    );
    expect(expectResource(await entra.call("GET", `/Groups/${group.id}`), 200, "Group")).toMatchObject({ displayName: "updatedDisplayName", members: [] });
    // An unknown member is refused, and nothing changes.
    expectError(
      await entra.call("PATCH", `/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Add", path: "members", value: [{ value: u1.id }, { value: randomUUID() }] }],
      }),
      400,
      "invalidValue",
    );
    expect(await groupsOf(u1.id)).toEqual([]);

    expectScim(await entra.call("DELETE", `/Groups/${group.id}`), 204);
    expectError(await entra.call("GET", `/Groups/${group.id}`), 404);
    // The groups the service's own employee sync assigns are the same groups.
    const api = await entra.call("GET", `/Groups?filter=${encodeURIComponent(`displayName eq "${t.groups[0]!.name}"`)}`);
    expect(expectList(api, 1)[0]!.id).toBe(t.groups[0]!.id);
  });
});
