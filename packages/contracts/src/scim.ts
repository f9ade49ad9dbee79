import { registry, z } from "./openapi.ts";
import { defineOperation, type Callers } from "./operation.ts";

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) under /scim/v2, for identity providers: described here for the
 * API document; requests are validated by the SCIM schemas themselves (core/scim), and every
 * error is a SCIM error body. Resources are loose objects: SCIM clients send more than we keep.
 */

export const scimAuth = registry.registerComponent("securitySchemes", "scim", {
  type: "http",
  scheme: "bearer",
  description: "Access token (POST /oauth/token, client credentials) of an OAuth client with scope `scim` (npm run admin -- create-oauth-client --scope scim).",
});

/** An OAuth client's access token with scope `scim` (the document's scim scheme). */
const auth: Callers = { allow: ["client"], scope: "scim" };
type Examples = Record<string, { summary: string; value: unknown }>;
/** Both media types SCIM clients send, with the same schema and, for a request, the same examples. */
const scimJson = (schema: z.ZodType, examples?: Examples) => ({
  "application/scim+json": { schema, ...(examples ? { examples } : {}) },
  "application/json": { schema, ...(examples ? { examples } : {}) },
});

const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE_USER = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const BULK_REQUEST = "urn:ietf:params:scim:api:messages:2.0:BulkRequest";
/** Ids in the examples: Users (employees' ids): Ada, her manager, someone who left. */
const ADA = "2819c223-7f76-453a-919d-413861904646";
const MANAGER = "26118915-6090-4610-87e4-49d8ca9f808d";
const LEAVER = "b7e3f1c8-5d2a-4c9e-8f61-3a0d9e7c4b25";

const adaUser = {
  schemas: [USER_SCHEMA, ENTERPRISE_USER],
  externalId: "E1001",
  userName: "ada@example.com",
  name: { givenName: "Ada", familyName: "Lovelace" },
  displayName: "Ada Lovelace",
  title: "Inspector",
  active: true,
  emails: [{ value: "ada@example.com", type: "work", primary: true }],
  phoneNumbers: [{ value: "+44 20 7946 0958", type: "work" }],
  [ENTERPRISE_USER]: { department: "Operations", employeeNumber: "1001", manager: { value: MANAGER } },
};
const safetyTeam = {
  schemas: [GROUP_SCHEMA],
  externalId: "00g1emaKYZTWRYYRRTSK",
  displayName: "Safety Team",
  members: [{ value: ADA, display: "Ada Lovelace" }],
};

const REQUEST_EXAMPLES: Record<"Users" | "Groups", { create: Examples; replace: Examples; patch: Examples }> = {
  Users: {
    create: { user: { summary: "A User with a work e-mail (its account is made with it), its manager and department", value: adaUser } },
    replace: { user: { summary: "The whole User, as Okta sends a profile update", value: { ...adaUser, title: "Lead inspector" } } },
    patch: {
      deactivate: {
        summary: "Deactivate (Okta: a replace without a path)",
        value: { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] },
      },
      attributes: {
        summary: "Change attributes by path (Microsoft Entra ID)",
        value: {
          schemas: [PATCH_OP],
          Operations: [
            { op: "Replace", path: 'emails[type eq "work"].value', value: "ada.king@example.com" },
            { op: "Replace", path: "name.familyName", value: "King" },
            { op: "Add", path: `${ENTERPRISE_USER}:department`, value: "Quality" },
          ],
        },
      },
    },
  },
  Groups: {
    create: { group: { summary: "A group with one member (an ACTIVE User, by its id)", value: safetyTeam } },
    replace: {
      group: {
        summary: "The whole group: its name and every member",
        value: { ...safetyTeam, displayName: "Safety and Quality", members: [{ value: ADA }, { value: MANAGER }] },
      },
    },
    patch: {
      members: {
        summary: "Add a member and remove another",
        value: {
          schemas: [PATCH_OP],
          Operations: [
            { op: "add", path: "members", value: [{ value: MANAGER, display: "Grace Hopper" }] },
            { op: "remove", path: `members[value eq "${ADA}"]` },
          ],
        },
      },
      rename: { summary: "Rename", value: { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { displayName: "Site Safety Team" } }] } },
    },
  },
};

const BULK_EXAMPLES: Examples = {
  bulk: {
    summary: "Create a User and a group with it as a member (bulkId reference), and deactivate another User",
    value: {
      schemas: [BULK_REQUEST],
      failOnErrors: 1,
      Operations: [
        { method: "POST", path: "/Users", bulkId: "ada", data: adaUser },
        { method: "POST", path: "/Groups", bulkId: "team", data: { schemas: [GROUP_SCHEMA], displayName: "Night Shift", members: [{ value: "bulkId:ada" }] } },
        { method: "PATCH", path: `/Users/${LEAVER}`, data: { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] } },
      ],
    },
  },
};

const ScimError = registry.register(
  "ScimError",
  z
    .object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string() })
    .openapi({ description: "RFC 7644 section 3.12" }),
);
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { description: "SCIM error", content: scimJson(ScimError) }]));

const Meta = z.object({ resourceType: z.string(), created: z.string(), lastModified: z.string(), location: z.string(), version: z.string() });

export const ScimUser = registry.register(
  "ScimUser",
  z
    .looseObject({
      schemas: z.array(z.string()),
      id: z.string().optional().openapi({ description: "The employee's id (read-only)." }),
      externalId: z.string().optional().openapi({ description: "The employee's externalEmployeeId (without one, userName is used)." }),
      userName: z.string().openapi({ description: "The account's username, unique in the organization." }),
      name: z.looseObject({ givenName: z.string().optional(), familyName: z.string().optional() }).optional(),
      displayName: z.string().optional(),
      title: z.string().optional(),
      active: z.boolean().optional().openapi({
        description: "false: the employee is INACTIVE (a TERMINATED one stays TERMINATED) and its account disabled; left out of a PUT: the status stays.",
      }),
      emails: z
        .array(z.looseObject({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() }))
        .optional()
        .openapi({
          description:
            "The employee's e-mail (the work one). A User created or replaced needs one, here or as a userName that is an e-mail address: its account is made with it.",
        }),
      phoneNumbers: z.array(z.looseObject({ value: z.string(), type: z.string().optional() })).optional(),
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": z
        .looseObject({ department: z.string().optional(), employeeNumber: z.string().optional(), manager: z.looseObject({ value: z.string() }).optional() })
        .optional(),
      meta: Meta.optional(),
    })
    .openapi({ description: "RFC 7643 section 4.1 with the enterprise extension (section 4.3)." }),
);

export const ScimGroup = registry.register(
  "ScimGroup",
  z.looseObject({
    schemas: z.array(z.string()),
    id: z.string().optional(),
    externalId: z.string().optional(),
    displayName: z.string(),
    members: z.array(z.looseObject({ value: z.string(), display: z.string().optional() })).optional(),
    meta: Meta.optional(),
  }),
);

const PatchOp = registry.register(
  "ScimPatchOp",
  z.object({
    schemas: z.array(z.string()).openapi({ example: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"] }),
    Operations: z.array(
      z.object({ op: z.string().openapi({ description: "add, remove or replace (any case)" }), path: z.string().optional(), value: z.unknown().optional() }),
    ),
  }),
);

const ListResponse = (item: z.ZodType) =>
  z.object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(item),
  });

const ListQuery = z.object({
  filter: z.string().optional().openapi({ example: 'userName eq "ada@example.com"' }),
  startIndex: z.string().optional().openapi({ description: "1-based" }),
  count: z.string().optional().openapi({ description: "at most 200; 0 only counts" }),
  attributes: z.string().optional(),
  excludedAttributes: z.string().optional(),
});
const Projection = ListQuery.pick({ attributes: true, excludedAttributes: true });
const Id = z.object({ id: z.string() });
const IfMatch = z.object({ "if-match": z.string().optional() });

/** A resource type's six operations: list, create, read, replace, patch, delete. */
const resourceOps = (type: "Users" | "Groups", schema: z.ZodType) => ({
  list: defineOperation({
    method: "get",
    path: `/scim/v2/${type}`,
    summary: `SCIM: list or filter ${type}`,
    auth,
    validate: false,
    request: { query: ListQuery },
    responses: { 200: { description: "ListResponse", content: scimJson(ListResponse(schema)) }, ...errors(400, 401, 403) },
  }),
  create: defineOperation({
    method: "post",
    path: `/scim/v2/${type}`,
    summary: `SCIM: create a ${type.slice(0, -1)}`,
    auth,
    validate: false,
    request: { body: { content: scimJson(schema, REQUEST_EXAMPLES[type].create) } },
    responses: { 201: { description: "Created", content: scimJson(schema) }, ...errors(400, 401, 403, 409) },
  }),
  read: defineOperation({
    method: "get",
    path: `/scim/v2/${type}/{id}`,
    summary: `SCIM: one ${type.slice(0, -1)}`,
    auth,
    validate: false,
    request: { params: Id, query: Projection },
    responses: { 200: { description: "The resource", content: scimJson(schema) }, 304: { description: "Not modified" }, ...errors(401, 403, 404) },
  }),
  replace: defineOperation({
    method: "put",
    path: `/scim/v2/${type}/{id}`,
    summary: `SCIM: replace a ${type.slice(0, -1)}`,
    auth,
    validate: false,
    request: { params: Id, headers: IfMatch, body: { content: scimJson(schema, REQUEST_EXAMPLES[type].replace) } },
    responses: { 200: { description: "Replaced", content: scimJson(schema) }, ...errors(400, 401, 403, 404, 409, 412) },
  }),
  patch: defineOperation({
    method: "patch",
    path: `/scim/v2/${type}/{id}`,
    summary: `SCIM: patch a ${type.slice(0, -1)}`,
    description: type === "Groups" ? "204, or 200 with the group when `attributes` is given." : undefined,
    auth,
    validate: false,
    request: { params: Id, headers: IfMatch, body: { content: scimJson(PatchOp, REQUEST_EXAMPLES[type].patch) } },
    responses: { 200: { description: "Patched", content: scimJson(schema) }, 204: { description: "Patched" }, ...errors(400, 401, 403, 404, 409, 412) },
  }),
  delete: defineOperation({
    method: "delete",
    path: `/scim/v2/${type}/{id}`,
    summary: `SCIM: delete a ${type.slice(0, -1)}`,
    auth,
    validate: false,
    request: { params: Id, headers: IfMatch },
    responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404, 412) },
  }),
});
export const scimUserOps = resourceOps("Users", ScimUser);
export const scimGroupOps = resourceOps("Groups", ScimGroup);

export const scimBulkOp = defineOperation({
  method: "post",
  path: "/scim/v2/Bulk",
  summary: "SCIM: several operations, with bulkId references",
  auth,
  validate: false,
  request: {
    body: {
      content: scimJson(
        z.object({
          schemas: z.array(z.string()),
          failOnErrors: z.number().int().optional(),
          Operations: z.array(
            z.object({ method: z.string(), path: z.string(), bulkId: z.string().optional(), version: z.string().optional(), data: z.unknown().optional() }),
          ),
        }),
        BULK_EXAMPLES,
      ),
    },
  },
  responses: {
    200: {
      description: "BulkResponse",
      content: scimJson(z.object({ schemas: z.array(z.string()), Operations: z.array(z.looseObject({ status: z.string() })) })),
    },
    ...errors(400, 401, 403, 413),
  },
});

/** Discovery (RFC 7644 section 4): the same for everyone, no token; counted per client address. */
const discoveryOp = (path: string, hidden = false) =>
  defineOperation({
    method: "get",
    path,
    summary: `SCIM discovery: ${path.split("/")[3]} (no token needed)`,
    auth: "address",
    validate: false,
    hidden,
    responses: { 200: { description: "RFC 7643 sections 5 to 7", content: scimJson(z.looseObject({})) } },
  });
export const scimDiscoveryOps = {
  serviceProviderConfig: discoveryOp("/scim/v2/ServiceProviderConfig"),
  resourceTypes: discoveryOp("/scim/v2/ResourceTypes"),
  schemas: discoveryOp("/scim/v2/Schemas"),
  // One resource type or schema by name: served, but left out of the document, as before.
  resourceType: discoveryOp("/scim/v2/ResourceTypes/{name}", true),
  schema: discoveryOp("/scim/v2/Schemas/{id}", true),
};
