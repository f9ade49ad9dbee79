import { registry, z } from "./openapi.ts";

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

const security = [{ scim: [] }];
const scimJson = (schema: z.ZodType) => ({ "application/scim+json": { schema }, "application/json": { schema } });

const ScimError = registry.register(
  "ScimError",
  z.object({ schemas: z.array(z.string()), status: z.string(), scimType: z.string().optional(), detail: z.string() }).openapi({ description: "RFC 7644 section 3.12" }),
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
      active: z.boolean().optional().openapi({ description: "false: the employee is INACTIVE (a TERMINATED one stays TERMINATED) and its account disabled; left out of a PUT: the status stays." }),
      emails: z
        .array(z.looseObject({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() }))
        .optional()
        .openapi({ description: "The employee's e-mail (the work one). A User created or replaced needs one, here or as a userName that is an e-mail address: its account is made with it." }),
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
    Operations: z.array(z.object({ op: z.string().openapi({ description: "add, remove or replace (any case)" }), path: z.string().optional(), value: z.unknown().optional() })),
  }),
);

const ListResponse = (item: z.ZodType) => z.object({ schemas: z.array(z.string()), totalResults: z.number().int(), startIndex: z.number().int(), itemsPerPage: z.number().int(), Resources: z.array(item) });

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

for (const [type, schema] of [
  ["Users", ScimUser],
  ["Groups", ScimGroup],
] as const) {
  registry.registerPath({ method: "get", path: `/scim/v2/${type}`, summary: `SCIM: list or filter ${type}`, security, request: { query: ListQuery }, responses: { 200: { description: "ListResponse", content: scimJson(ListResponse(schema)) }, ...errors(400, 401, 403) } });
  registry.registerPath({ method: "post", path: `/scim/v2/${type}`, summary: `SCIM: create a ${type.slice(0, -1)}`, security, request: { body: { content: scimJson(schema) } }, responses: { 201: { description: "Created", content: scimJson(schema) }, ...errors(400, 401, 403, 409) } });
  registry.registerPath({ method: "get", path: `/scim/v2/${type}/{id}`, summary: `SCIM: one ${type.slice(0, -1)}`, security, request: { params: Id, query: Projection }, responses: { 200: { description: "The resource", content: scimJson(schema) }, 304: { description: "Not modified" }, ...errors(401, 403, 404) } });
  registry.registerPath({ method: "put", path: `/scim/v2/${type}/{id}`, summary: `SCIM: replace a ${type.slice(0, -1)}`, security, request: { params: Id, headers: IfMatch, body: { content: scimJson(schema) } }, responses: { 200: { description: "Replaced", content: scimJson(schema) }, ...errors(400, 401, 403, 404, 409, 412) } });
  registry.registerPath({ method: "patch", path: `/scim/v2/${type}/{id}`, summary: `SCIM: patch a ${type.slice(0, -1)}`, description: type === "Groups" ? "204, or 200 with the group when `attributes` is given." : undefined, security, request: { params: Id, headers: IfMatch, body: { content: scimJson(PatchOp) } }, responses: { 200: { description: "Patched", content: scimJson(schema) }, 204: { description: "Patched" }, ...errors(400, 401, 403, 404, 409, 412) } });
  registry.registerPath({ method: "delete", path: `/scim/v2/${type}/{id}`, summary: `SCIM: delete a ${type.slice(0, -1)}`, security, request: { params: Id, headers: IfMatch }, responses: { 204: { description: "Deleted" }, ...errors(401, 403, 404, 412) } });
}

registry.registerPath({
  method: "post",
  path: "/scim/v2/Bulk",
  summary: "SCIM: several operations, with bulkId references",
  security,
  request: { body: { content: scimJson(z.object({ schemas: z.array(z.string()), failOnErrors: z.number().int().optional(), Operations: z.array(z.object({ method: z.string(), path: z.string(), bulkId: z.string().optional(), version: z.string().optional(), data: z.unknown().optional() })) })) } },
  responses: { 200: { description: "BulkResponse", content: scimJson(z.object({ schemas: z.array(z.string()), Operations: z.array(z.looseObject({ status: z.string() })) })) }, ...errors(400, 401, 403, 413) },
});

for (const path of ["/scim/v2/ServiceProviderConfig", "/scim/v2/ResourceTypes", "/scim/v2/Schemas"]) {
  registry.registerPath({ method: "get", path, summary: `SCIM discovery: ${path.split("/").pop()} (no token needed)`, responses: { 200: { description: "RFC 7643 sections 5 to 7", content: scimJson(z.looseObject({})) } } });
}
