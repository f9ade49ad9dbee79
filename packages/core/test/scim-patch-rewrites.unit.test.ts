import { describe, expect, it } from "vitest";
import {
  PATCH_REWRITES,
  booleansFromStrings,
  complexAttributeMerged,
  filteredSubAttributeReplaced,
  managerAsValue,
  managerPathQualified,
  membersRemovedByValue,
  normalizePatch,
  nullsDropped,
  opNamesInLowerCase,
  pathlessValueSplit,
  pathsCheckedUnkeptSkipped,
  typedEntryAdded,
  type PatchOperation,
  type PatchRewrite,
  type PatchTarget,
} from "../src/scim/patch-rewrites.ts";
import { ENTERPRISE, PATCH_OP, ScimError } from "../src/scim/protocol.ts";

/**
 * Each rewrite of a SCIM PATCH body as a table: the identity provider whose form a row stands
 * for ("any" where the rewrite follows RFC 7644 against scimmy, not a provider), the operations
 * it sends and what scimmy is given. Then normalizePatch on whole bodies Entra ID and Okta send
 * (their documented sequences, through the API: apps/api/test/scim/scim-providers.int.test.ts).
 */

const MANAGER = `${ENTERPRISE}:manager`;
/** A User as the service shows it: a work e-mail, a name, no manager. */
const joy = {
  id: "2819c223",
  userName: "jyoung@testuser.com",
  displayName: "Joy Young",
  name: { familyName: "Young", givenName: "Joy" },
  emails: [{ value: "jyoung@Contoso.com", type: "work", primary: true }],
  active: true,
  [ENTERPRISE]: { employeeNumber: "701984" },
};
/** A User with a home e-mail only, no name. */
const homeOnly = { id: "5d48a0a8", userName: "bjensen", emails: [{ value: "bjensen@example.com", type: "home", primary: true }] };
/** A User without e-mails or phone numbers. */
const bare = { id: "7b3f5a1e", userName: "nobody" };
const group = { id: "e9e30dba", displayName: "Test SCIMv2", members: [{ value: "2819c223", display: "Joy Young" }] };

const user = (current: Record<string, unknown> = joy): PatchTarget => ({ current, resource: "User" });
const asGroup: PatchTarget = { current: group, resource: "Group" };

/** A row: provider, what the row shows, the operations in, the operations out (or the SCIM error), the resource (joy unless given). */
type Row = [provider: string, what: string, input: PatchOperation[], expected: PatchOperation[] | { status: number; scimType: string }, target?: PatchTarget];

function table(rewrite: PatchRewrite, rows: Row[]): void {
  describe(rewrite.name, () => {
    for (const [provider, what, input, expected, target = user()] of rows) {
      it(`${provider}: ${what}`, () => {
        const frozen = structuredClone(input);
        if (Array.isArray(expected)) expect(rewrite(input, target)).toEqual(expected);
        else {
          const err = (() => {
            try {
              rewrite(input, target);
            } catch (e) {
              return e;
            }
          })();
          expect(err).toBeInstanceOf(ScimError);
          expect(err).toMatchObject(expected);
        }
        expect(input).toEqual(frozen); // a rewrite returns a new list and leaves its input alone
      });
    }
  });
}

it("PATCH_REWRITES runs every rewrite tested here, in this order", () => {
  expect(PATCH_REWRITES.map((r) => r.name)).toEqual([
    "opNamesInLowerCase",
    "nullsDropped",
    "pathlessValueSplit",
    "managerPathQualified",
    "pathsCheckedUnkeptSkipped",
    "managerAsValue",
    "booleansFromStrings",
    "membersRemovedByValue",
    "typedEntryAdded",
    "filteredSubAttributeReplaced",
    "complexAttributeMerged",
  ]);
});

table(opNamesInLowerCase, [
  [
    "Entra ID",
    "Replace, Add and Remove",
    [
      { op: "Replace", path: "displayName", value: "Pvlo" },
      { op: "Add", path: "nickName", value: "Babs" },
      { op: "Remove", path: "title" },
    ],
    [
      { op: "replace", path: "displayName", value: "Pvlo" },
      { op: "add", path: "nickName", value: "Babs" },
      { op: "remove", path: "title" },
    ],
  ],
  ["Okta", "already lower case", [{ op: "replace", value: { active: false } }], [{ op: "replace", value: { active: false } }]],
]);

table(nullsDropped, [
  [
    "Entra ID",
    "a member's $ref: null",
    [{ op: "add", path: "members", value: [{ $ref: null, value: "2819c223" }] }],
    [{ op: "add", path: "members", value: [{ value: "2819c223" }] }],
    asGroup,
  ],
  [
    "Entra ID",
    "addresses: null in a path-less value",
    [{ op: "replace", value: { addresses: null, title: "Lead" } }],
    [{ op: "replace", value: { title: "Lead" } }],
  ],
  [
    "Entra ID",
    "a null inside a list",
    [{ op: "add", path: "emails", value: [null, { value: "j@x.test", display: null }] }],
    [{ op: "add", path: "emails", value: [{ value: "j@x.test" }] }],
  ],
  ["any", "an operation without a value", [{ op: "remove", path: "title" }], [{ op: "remove", path: "title" }]],
]);

table(pathlessValueSplit, [
  ["Okta", "deactivation", [{ op: "replace", value: { active: false } }], [{ op: "replace", path: "active", value: false }]],
  [
    "Okta",
    "a group rename carrying the group's own id",
    [{ op: "replace", value: { id: group.id, displayName: "Test SCIMv2" } }],
    [{ op: "replace", path: "displayName", value: "Test SCIMv2" }],
    asGroup,
  ],
  [
    "Entra ID",
    "dotted keys and a URN-qualified key",
    [{ op: "replace", value: { "name.givenName": "Kkom", [`${ENTERPRISE}:department`]: "Warehouse" } }],
    [
      { op: "replace", path: "name.givenName", value: "Kkom" },
      { op: "replace", path: `${ENTERPRISE}:department`, value: "Warehouse" },
    ],
  ],
  [
    "any",
    "an extension object, schemas and meta",
    [
      {
        op: "add",
        value: { schemas: ["x"], meta: {}, [ENTERPRISE]: { department: "Sales", costCenter: "4130" }, emails: [{ value: "j@x.test", type: "work" }] },
      },
    ],
    [
      { op: "add", path: `${ENTERPRISE}:department`, value: "Sales" },
      { op: "add", path: `${ENTERPRISE}:costCenter`, value: "4130" },
      { op: "add", path: "emails", value: [{ value: "j@x.test", type: "work" }] },
    ],
  ],
  [
    "any",
    "the enterprise URN of a Group is an attribute name like any other",
    [{ op: "add", value: { [ENTERPRISE]: { department: "Sales" } } }],
    [{ op: "add", path: ENTERPRISE, value: { department: "Sales" } }],
    asGroup,
  ],
  [
    "any",
    "a remove, a path, a value that is not an object: as they are",
    [
      { op: "remove", value: { title: "x" } },
      { op: "replace", path: "title", value: { a: 1 } },
      { op: "replace", value: [{ title: "x" }] },
    ],
    [
      { op: "remove", value: { title: "x" } },
      { op: "replace", path: "title", value: { a: 1 } },
      { op: "replace", value: [{ title: "x" }] },
    ],
  ],
]);

table(managerPathQualified, [
  [
    "Entra ID",
    "path manager (Example 5)",
    [{ op: "add", path: "manager", value: [{ value: "0a21f0f2" }] }],
    [{ op: "add", path: MANAGER, value: [{ value: "0a21f0f2" }] }],
  ],
  ["Entra ID", "in any case", [{ op: "remove", path: "Manager" }], [{ op: "remove", path: MANAGER }]],
  [
    "any",
    "another path, or none",
    [
      { op: "replace", path: "manager.value", value: "x" },
      { op: "replace", value: { manager: "x" } },
    ],
    [
      { op: "replace", path: "manager.value", value: "x" },
      { op: "replace", value: { manager: "x" } },
    ],
  ],
]);

table(pathsCheckedUnkeptSkipped, [
  [
    "Entra ID",
    "a work address (not kept): skipped",
    [
      { op: "add", path: 'addresses[type eq "work"].streetAddress', value: "1 Main St" },
      { op: "add", path: "nickName", value: "Babs" },
    ],
    [{ op: "add", path: "nickName", value: "Babs" }],
  ],
  [
    "any",
    "password and roles (not kept): skipped",
    [
      { op: "replace", path: "password", value: "1mz050nq" },
      { op: "add", path: "roles", value: [] },
    ],
    [],
  ],
  [
    "any",
    "an attribute no schema declares is left to scimmy (invalidPath)",
    [{ op: "replace", path: "shoeSize", value: 44 }],
    [{ op: "replace", path: "shoeSize", value: 44 }],
  ],
  [
    "any",
    "a Group's addresses are not skipped (scimmy: invalidPath)",
    [{ op: "add", path: "addresses", value: [] }],
    [{ op: "add", path: "addresses", value: [] }],
    asGroup,
  ],
  ["any", "a read-only target", [{ op: "add", path: "groups", value: [] }], { status: 400, scimType: "mutability" }],
  ["any", "an immutable target", [{ op: "replace", path: 'members[value eq "2819c223"].value', value: "x" }], { status: 400, scimType: "mutability" }, asGroup],
  ["any", "a malformed path", [{ op: "replace", path: "emails[type eq work]", value: "x" }], { status: 400, scimType: "invalidFilter" }],
]);

table(managerAsValue, [
  [
    "Entra ID",
    "[{value, $ref}] (Example 5)",
    [{ op: "add", path: MANAGER, value: [{ value: "0a21f0f2", $ref: "https://x/scim/v2/Users/0a21f0f2" }] }],
    [{ op: "add", path: MANAGER, value: { value: "0a21f0f2" } }],
  ],
  ["Okta or Entra ID", "an id", [{ op: "replace", path: MANAGER, value: "0a21f0f2" }], [{ op: "replace", path: MANAGER, value: { value: "0a21f0f2" } }]],
  ["Okta or Entra ID", "an empty id: no value", [{ op: "replace", path: MANAGER, value: "" }], [{ op: "replace", path: MANAGER }]],
  [
    "any",
    "a remove, or a sub-attribute, as they are",
    [
      { op: "remove", path: MANAGER, value: "x" },
      { op: "replace", path: `${MANAGER}.value`, value: "x" },
    ],
    [
      { op: "remove", path: MANAGER, value: "x" },
      { op: "replace", path: `${MANAGER}.value`, value: "x" },
    ],
  ],
]);

table(booleansFromStrings, [
  ["Entra ID", 'active: "False" (disable)', [{ op: "replace", path: "active", value: "False" }], [{ op: "replace", path: "active", value: false }]],
  ["Entra ID", 'a primary flag: "True"', [{ op: "replace", path: "emails.primary", value: "True" }], [{ op: "replace", path: "emails.primary", value: true }]],
  [
    "any",
    "another attribute, another string: as they are",
    [
      { op: "replace", path: "title", value: "False" },
      { op: "replace", path: "active", value: "no" },
    ],
    [
      { op: "replace", path: "title", value: "False" },
      { op: "replace", path: "active", value: "no" },
    ],
  ],
]);

table(membersRemovedByValue, [
  [
    "Entra ID",
    "members listed in the value of a remove",
    [{ op: "remove", path: "members", value: [{ value: "2819c223" }, { value: "5d48a0a8" }] }],
    [
      { op: "remove", path: 'members[value eq "2819c223"]' },
      { op: "remove", path: 'members[value eq "5d48a0a8"]' },
    ],
    asGroup,
  ],
  ["Entra ID", "a member without a string id is dropped", [{ op: "remove", path: "Members", value: [{ value: 7 }, {}] }], [], asGroup],
  [
    "Okta",
    "the filtered path, as it is",
    [{ op: "remove", path: 'members[value eq "2819c223"]' }],
    [{ op: "remove", path: 'members[value eq "2819c223"]' }],
    asGroup,
  ],
  [
    "any",
    "a remove of members without a value (every member), and an add, as they are",
    [
      { op: "remove", path: "members" },
      { op: "add", path: "members", value: [{ value: "x" }] },
    ],
    [
      { op: "remove", path: "members" },
      { op: "add", path: "members", value: [{ value: "x" }] },
    ],
    asGroup,
  ],
]);

table(typedEntryAdded, [
  [
    "Entra ID",
    "a work e-mail while the user has a home one only",
    [{ op: "replace", path: 'emails[type eq "work"].value', value: "b@x.test" }],
    [{ op: "add", path: "emails", value: [{ type: "work", value: "b@x.test", primary: false }] }],
    user(homeOnly),
  ],
  [
    "Entra ID",
    "a work e-mail while the user has none: primary",
    [{ op: "add", path: 'emails[type eq "work"].value', value: "n@x.test" }],
    [{ op: "add", path: "emails", value: [{ type: "work", value: "n@x.test", primary: true }] }],
    user(bare),
  ],
  [
    "Entra ID",
    "the work e-mail the user has: replaced",
    [{ op: "replace", path: 'emails[type eq "work"].value', value: "u@x.test" }],
    [{ op: "replace", path: 'emails[type eq "work"].value', value: "u@x.test" }],
  ],
  [
    "Entra ID",
    "an add to the work e-mail the user has: a replace",
    [{ op: "add", path: 'emails[type eq "Work"].value', value: "u@x.test" }],
    [{ op: "replace", path: 'emails[type eq "Work"].value', value: "u@x.test" }],
  ],
  [
    "Entra ID",
    "a phone number of a new type: no primary flag",
    [{ op: "add", path: 'phoneNumbers[type eq "mobile"].value', value: "+1 555" }],
    [{ op: "add", path: "phoneNumbers", value: [{ type: "mobile", value: "+1 555" }] }],
  ],
  ["any", "a remove, as it is", [{ op: "remove", path: 'emails[type eq "home"].value' }], [{ op: "remove", path: 'emails[type eq "home"].value' }]],
]);

table(filteredSubAttributeReplaced, [
  [
    "any",
    "the value the filter tests",
    [{ op: "replace", path: 'emails[value eq "JYOUNG@contoso.com"].value', value: "joy@contoso.com" }],
    [
      { op: "remove", path: 'emails[value eq "JYOUNG@contoso.com"]' },
      { op: "add", path: "emails", value: [{ type: "work", primary: true, value: "joy@contoso.com" }] },
    ],
  ],
  [
    "any",
    "no entry matches: as it is (scimmy answers noTarget)",
    [{ op: "replace", path: 'emails[value eq "x@x.test"].value', value: "y" }],
    [{ op: "replace", path: 'emails[value eq "x@x.test"].value', value: "y" }],
  ],
  [
    "any",
    "a sub-attribute the filter does not test: as it is",
    [{ op: "replace", path: 'emails[value eq "jyoung@contoso.com"].type', value: "home" }],
    [{ op: "replace", path: 'emails[value eq "jyoung@contoso.com"].type', value: "home" }],
  ],
  [
    "Entra ID",
    "typedEntryAdded's form, as it is",
    [{ op: "replace", path: 'emails[type eq "work"].type', value: "home" }],
    [{ op: "replace", path: 'emails[type eq "work"].type', value: "home" }],
  ],
]);

table(complexAttributeMerged, [
  [
    "any",
    "a replace of the name keeps the parts it does not give",
    [{ op: "replace", path: "name", value: { givenName: "Jo" } }],
    [{ op: "replace", path: "name.givenName", value: "Jo" }],
  ],
  [
    "any",
    "a sub-attribute of an absent name: the name added",
    [{ op: "add", path: "name.middleName", value: "Excited" }],
    [{ op: "add", path: "name", value: { middleName: "Excited" } }],
    user(homeOnly),
  ],
  [
    "any",
    "after a remove of the name, a sub-attribute adds it again",
    [
      { op: "remove", path: "name" },
      { op: "replace", path: "name.givenName", value: "Jo" },
      { op: "replace", path: "name.familyName", value: "Y" },
    ],
    [
      { op: "remove", path: "name" },
      { op: "add", path: "name", value: { givenName: "Jo" } },
      { op: "replace", path: "name.familyName", value: "Y" },
    ],
  ],
  [
    "Entra ID",
    "the manager's id while there is no manager",
    [{ op: "replace", path: `${MANAGER}.value`, value: "0a21f0f2" }],
    [{ op: "add", path: MANAGER, value: { value: "0a21f0f2" } }],
  ],
  [
    "any",
    "a whole name while there is none, and a multi-valued attribute: as they are",
    [
      { op: "add", path: "name", value: { givenName: "B" } },
      { op: "replace", path: "emails", value: [] },
    ],
    [
      { op: "add", path: "name", value: { givenName: "B" } },
      { op: "replace", path: "emails", value: [] },
    ],
    user(homeOnly),
  ],
]);

describe("normalizePatch", () => {
  it("Entra ID: the work e-mail, the family name, a string boolean, the manager, a work address and the tenant-flag form in one body", () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "updatedEmail@microsoft.com" },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
        { op: "Replace", path: "active", value: "False" },
        { op: "Add", path: "manager", value: [{ $ref: null, value: "0a21f0f2" }] },
        { op: "Add", path: 'addresses[type eq "work"].streetAddress', value: "1 Main St" },
        { op: "replace", value: { "name.givenName": "Kkom", [`${ENTERPRISE}:department`]: "Warehouse", title: null } },
      ],
    };
    expect(normalizePatch(body, joy, "User")).toEqual({
      schemas: [PATCH_OP],
      Operations: [
        { op: "replace", path: 'emails[type eq "work"].value', value: "updatedEmail@microsoft.com" },
        { op: "replace", path: "name.familyName", value: "updatedFamilyName" },
        { op: "replace", path: "active", value: false },
        { op: "add", path: MANAGER, value: { value: "0a21f0f2" } },
        { op: "replace", path: "name.givenName", value: "Kkom" },
        { op: "replace", path: `${ENTERPRISE}:department`, value: "Warehouse" },
      ],
    });
  });

  it("Entra ID: a group renamed, a member removed by value and one added", () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: "displayName", value: "updatedDisplayName" },
        { op: "Remove", path: "members", value: [{ $ref: null, value: "2819c223" }] },
        { op: "Add", path: "members", value: [{ $ref: null, value: "5d48a0a8" }] },
      ],
    };
    expect(normalizePatch(body, group, "Group").Operations).toEqual([
      { op: "replace", path: "displayName", value: "updatedDisplayName" },
      { op: "remove", path: 'members[value eq "2819c223"]' },
      { op: "add", path: "members", value: [{ value: "5d48a0a8" }] },
    ]);
  });

  it("Okta: deactivation, and a group push with the group's own id", () => {
    expect(normalizePatch({ schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }, joy, "User").Operations).toEqual([
      { op: "replace", path: "active", value: false },
    ]);
    const push = {
      schemas: [PATCH_OP],
      Operations: [
        { op: "replace", value: { id: group.id, displayName: "Test SCIMv2" } },
        { op: "remove", path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' },
        { op: "add", path: "members", value: [{ value: "5d48a0a8", display: "test.user@okta.local" }] },
      ],
    };
    expect(normalizePatch(push, group, "Group").Operations).toEqual([
      { op: "replace", path: "displayName", value: "Test SCIMv2" },
      { op: "remove", path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' },
      { op: "add", path: "members", value: [{ value: "5d48a0a8", display: "test.user@okta.local" }] },
    ]);
  });

  it("only attributes the service does not keep: no operations (nothing changes)", () => {
    expect(normalizePatch({ schemas: [PATCH_OP], Operations: [{ op: "replace", value: { password: "x", addresses: [] } }] }, joy, "User").Operations).toEqual(
      [],
    );
  });

  const refused: [string, unknown, string, string][] = [
    ["not a PatchOp message", { Operations: [{ op: "add", path: "title", value: "x" }] }, "invalidSyntax", `PATCH bodies must name the schema ${PATCH_OP}`],
    ["no operations", { schemas: [PATCH_OP], Operations: [] }, "invalidValue", "PATCH bodies must carry at least one operation in Operations"],
    ["an operation without op", { schemas: [PATCH_OP], Operations: [{ path: "title" }] }, "invalidSyntax", "Each operation needs an op"],
    ["an unknown op", { schemas: [PATCH_OP], Operations: [{ op: "Copy", path: "title" }] }, "invalidSyntax", "Unknown operation 'Copy'"],
    [
      "another resource's id in a path-less value",
      { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { id: "other", title: "x" } }] },
      "mutability",
      "id is read-only: a PATCH cannot change it",
    ],
    // Operation by operation: the first malformed one is named, whatever the later ones.
    [
      "an id first, then an unknown op",
      { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { ID: "other" } }, { op: "copy" }] },
      "mutability",
      "id is read-only: a PATCH cannot change it",
    ],
  ];
  for (const [what, body, scimType, detail] of refused) {
    it(`refuses ${what}: 400 ${scimType}`, () => {
      expect(() => normalizePatch(body, joy, "User")).toThrow(expect.objectContaining({ status: 400, scimType, message: detail }) as Error);
    });
  }
});
