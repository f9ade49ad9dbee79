import { IdParam, booleanQuery, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { InspectionList } from "./inspections.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/**
 * The organization's directory over HTTP (issue 32; docs/organization-administration.md): sites
 * (/api/sites), groups and their members (/api/groups), roles (/api/roles). Every user of the
 * organization may read it; admin users and API keys with directory:write change it.
 */

const NAME_MAX = 200;
const CODE_MAX = 64;
const ADDRESS_MAX = 1000;

const name = z.string().trim().min(1, "name is required").max(NAME_MAX, `name must be at most ${NAME_MAX} characters`);
const code = z
  .string()
  .trim()
  .min(1, "code is required")
  .max(CODE_MAX, `code must be at most ${CODE_MAX} characters`)
  .openapi({ description: "Unique within the organization (archived sites included)." });
const address = z.string().max(ADDRESS_MAX, `address must be at most ${ADDRESS_MAX} characters`).nullable();
const latitude = z
  .number({ message: "latitude must be a number" })
  .min(-90, "latitude must be between -90 and 90")
  .max(90, "latitude must be between -90 and 90")
  .nullable();
const longitude = z
  .number({ message: "longitude must be a number" })
  .min(-180, "longitude must be between -180 and 180")
  .max(180, "longitude must be between -180 and 180")
  .nullable();
const parentSiteId = z
  .string()
  .max(64, "parentSiteId must be at most 64 characters")
  .nullable()
  .openapi({ format: "uuid", description: "A site of the organization this one belongs to (a region); null: none. Never a cycle." });
const archived = z.boolean({ message: "archived must be true or false" }).openapi({
  description: "true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it.",
});
const externalGroupId = z
  .string()
  .trim()
  .min(1, "externalGroupId must not be empty")
  .max(NAME_MAX, `externalGroupId must be at most ${NAME_MAX} characters`)
  .nullable()
  .openapi({ description: "The group's id in the HR or identity system (the sync's externalGroupId, SCIM's externalId); unique in the organization." });

const atLeastOne = (fields: string[]) => ({
  message: `give at least one of ${fields.join(", ")}`,
  when: (p: { issues: unknown[] }) => p.issues.length === 0,
});

export const CreateSiteBody = z
  .strictObject({
    name,
    code,
    address: address.optional(),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    parentSiteId: parentSiteId.optional(),
  })
  .refine((b) => (b.latitude ?? null) === null || (b.longitude ?? null) !== null, { message: "latitude needs longitude", path: ["longitude"] })
  .refine((b) => (b.longitude ?? null) === null || (b.latitude ?? null) !== null, { message: "longitude needs latitude", path: ["latitude"] })
  .openapi("SiteCreateRequest");
export type CreateSiteBody = z.output<typeof CreateSiteBody>;

const SITE_FIELDS = ["name", "code", "address", "latitude", "longitude", "parentSiteId", "archived"];
export const PatchSiteBody = z
  .strictObject({
    name: name.optional(),
    code: code.optional(),
    address: address.optional(),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    parentSiteId: parentSiteId.optional(),
    archived: archived.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(SITE_FIELDS))
  .openapi("SitePatchRequest");
export type PatchSiteBody = z.output<typeof PatchSiteBody>;

export const CreateGroupBody = z.strictObject({ name, externalGroupId: externalGroupId.optional() }).openapi("GroupCreateRequest");
export type CreateGroupBody = z.output<typeof CreateGroupBody>;

export const PatchGroupBody = z
  .strictObject({ name: name.optional(), externalGroupId: externalGroupId.optional(), archived: archived.optional() })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(["name", "externalGroupId", "archived"]))
  .openapi("GroupPatchRequest");
export type PatchGroupBody = z.output<typeof PatchGroupBody>;

export const CreateRoleBody = z.strictObject({ name }).openapi("RoleCreateRequest");
export type CreateRoleBody = z.output<typeof CreateRoleBody>;

export const PatchRoleBody = z
  .strictObject({ name: name.optional(), archived: archived.optional() })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(["name", "archived"]))
  .openapi("RolePatchRequest");
export type PatchRoleBody = z.output<typeof PatchRoleBody>;

/** The input types a response type may have; SELECT and MULTI_SELECT have options. */
export const RESPONSE_INPUT_TYPES = ["SELECT", "MULTI_SELECT", "TEXT", "NUMBER", "DATE", "BOOLEAN", "PHOTO"] as const;
const CHOICE_TYPES: readonly string[] = ["SELECT", "MULTI_SELECT"];
const OPTIONS_MAX = 100;
const inputType = z
  .string({ message: `inputType must be one of ${RESPONSE_INPUT_TYPES.join(", ")}` })
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(RESPONSE_INPUT_TYPES, { message: `inputType must be one of ${RESPONSE_INPUT_TYPES.join(", ")}` }))
  .openapi({ type: "string", enum: [...RESPONSE_INPUT_TYPES], description: "How the answer is given; SELECT and MULTI_SELECT choose among the options." });
const uiLabel = z.string().trim().max(NAME_MAX, `uiLabel must be at most ${NAME_MAX} characters`).nullable();
const ResponseOptionInput = z.strictObject({
  label: z.string().trim().min(1, "label is required").max(NAME_MAX, `label must be at most ${NAME_MAX} characters`),
  value: z.string().trim().min(1, "value is required").max(NAME_MAX, `value must be at most ${NAME_MAX} characters`),
  requiresNote: z.boolean({ message: "requiresNote must be true or false" }).optional(),
  requiresPhoto: z.boolean({ message: "requiresPhoto must be true or false" }).optional(),
});
const responseOptions = z
  .array(ResponseOptionInput)
  .max(OPTIONS_MAX, `options must have at most ${OPTIONS_MAX} entries`)
  .refine((o) => new Set(o.map((x) => x.value)).size === o.length, { message: "option values must be unique" })
  .openapi({ description: "The choices, in this order (their position). Only for SELECT and MULTI_SELECT; a PATCH with options replaces them all." });

export const CreateResponseTypeBody = z
  .strictObject({ name, inputType, uiLabel: uiLabel.optional(), options: responseOptions.optional() })
  .refine((b) => !b.options?.length || CHOICE_TYPES.includes(b.inputType), {
    message: "options are only for SELECT and MULTI_SELECT",
    path: ["options"],
  })
  .openapi("ResponseTypeCreateRequest");
export type CreateResponseTypeBody = z.output<typeof CreateResponseTypeBody>;

export const PatchResponseTypeBody = z
  .strictObject({ name: name.optional(), uiLabel: uiLabel.optional(), options: responseOptions.optional(), archived: archived.optional() })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(["name", "uiLabel", "options", "archived"]))
  .openapi("ResponseTypePatchRequest");
export type PatchResponseTypeBody = z.output<typeof PatchResponseTypeBody>;

/** The types an asset type's field may have. */
const ASSET_FIELD_TYPES = ["text", "number", "date", "boolean"] as const;
const FIELDS_MAX = 50;
const AssetTypeField = z.strictObject({
  name: z.string().trim().min(1, "field name is required").max(NAME_MAX, `field name must be at most ${NAME_MAX} characters`),
  type: z.enum(ASSET_FIELD_TYPES, { message: `field type must be one of ${ASSET_FIELD_TYPES.join(", ")}` }),
  required: z.boolean({ message: "required must be true or false" }).default(false),
});
const assetFields = z
  .array(AssetTypeField)
  .max(FIELDS_MAX, `fields must have at most ${FIELDS_MAX} entries`)
  .refine((f) => new Set(f.map((x) => x.name.toLowerCase())).size === f.length, { message: "field names must be unique (case-insensitive)" })
  .openapi({
    description:
      "The fields an asset of this type has: a name, a type (text, number, date, boolean) and whether it is required. A PATCH with fields replaces them all.",
  });

export const CreateAssetTypeBody = z.strictObject({ name, fields: assetFields.optional() }).openapi("AssetTypeCreateRequest");
export type CreateAssetTypeBody = z.output<typeof CreateAssetTypeBody>;

export const PatchAssetTypeBody = z
  .strictObject({ name: name.optional(), fields: assetFields.optional(), archived: archived.optional() })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(["name", "fields", "archived"]))
  .openapi("AssetTypePatchRequest");
export type PatchAssetTypeBody = z.output<typeof PatchAssetTypeBody>;

/** An asset's status: RETIRED ones keep their history but take no new inspections. */
export const ASSET_STATUSES = ["ACTIVE", "RETIRED"] as const;
const METADATA_MAX_BYTES = 16_384;
const assetCode = z
  .string()
  .trim()
  .min(1, "code is required")
  .max(CODE_MAX, `code must be at most ${CODE_MAX} characters`)
  .openapi({ description: "Unique within the organization (archived assets included): what its QR code or barcode says." });
const assetTypeId = z
  .string()
  .max(64, "assetTypeId must be at most 64 characters")
  .openapi({ format: "uuid", description: "An asset type of the organization." });
const siteId = z
  .string()
  .max(64, "siteId must be at most 64 characters")
  .nullable()
  .openapi({ format: "uuid", description: "The site of the organization where it is; null: none." });
const assetStatus = z.enum(ASSET_STATUSES, { message: `status must be one of ${ASSET_STATUSES.join(", ")}` });
const fieldValues = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { message: "fields must be an object of field names to values" })
  .openapi({
    description:
      "Values of the asset type's fields by field name: text a string, number a number, date a YYYY-MM-DD string, boolean true or false. Required fields must have one; unknown names are refused.",
  });
const metadata = z
  .record(z.string(), z.unknown(), { message: "metadata must be a JSON object" })
  .refine((m) => JSON.stringify(m).length <= METADATA_MAX_BYTES, { message: `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON` })
  .openapi({ description: `Free JSON object of your own (at most ${METADATA_MAX_BYTES} bytes as JSON).` });

export const CreateAssetBody = z
  .strictObject({
    name,
    code: assetCode,
    assetTypeId,
    siteId: siteId.optional(),
    status: assetStatus.optional(),
    fields: fieldValues.optional(),
    metadata: metadata.optional(),
  })
  .openapi("AssetCreateRequest");
export type CreateAssetBody = z.output<typeof CreateAssetBody>;

const ASSET_FIELDS = ["name", "code", "assetTypeId", "siteId", "status", "fields", "metadata", "archived"];
export const PatchAssetBody = z
  .strictObject({
    name: name.optional(),
    code: assetCode.optional(),
    assetTypeId: assetTypeId.optional(),
    siteId: siteId.optional(),
    status: assetStatus.optional(),
    fields: fieldValues.optional(),
    metadata: metadata.optional(),
    archived: archived.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, atLeastOne(ASSET_FIELDS))
  .openapi("AssetPatchRequest");
export type PatchAssetBody = z.output<typeof PatchAssetBody>;

const updatedSince = z.iso
  .datetime({ offset: true, message: "updatedSince must be an ISO 8601 date-time, e.g. 2026-03-01T00:00:00Z" })
  .optional()
  .openapi({ format: "date-time", description: "Only those changed at or after this instant." });
const namePrefix = z
  .string()
  .max(NAME_MAX, `namePrefix must be at most ${NAME_MAX} characters`)
  .optional()
  .openapi({ description: "Only those whose name starts with this (case-insensitive)." });
const includeArchived = booleanQuery(false).openapi({ type: "boolean", description: "true: archived ones too (default false)." });

const listQuery = { namePrefix, updatedSince, includeArchived, ...pageQuery };
export const SiteListQuery = z.object({
  ...listQuery,
  code: z.string().max(CODE_MAX, `code must be at most ${CODE_MAX} characters`).optional().openapi({ description: "The site with this code (exact)." }),
  parentSiteId: z.string().optional().openapi({ format: "uuid", description: "Only the sites directly under this one." }),
});
export type SiteListQuery = z.output<typeof SiteListQuery>;
export const GroupListQuery = z.object({
  ...listQuery,
  externalGroupId: z.string().max(NAME_MAX).optional().openapi({ description: "The group with this externalGroupId (exact)." }),
});
export type GroupListQuery = z.output<typeof GroupListQuery>;
export const RoleListQuery = z.object(listQuery);
export type RoleListQuery = z.output<typeof RoleListQuery>;
export const ResponseTypeListQuery = z.object(listQuery);
export type ResponseTypeListQuery = z.output<typeof ResponseTypeListQuery>;
export const AssetTypeListQuery = z.object(listQuery);
export type AssetTypeListQuery = z.output<typeof AssetTypeListQuery>;
export const AssetListQuery = z.object({
  ...listQuery,
  code: z
    .string()
    .max(CODE_MAX, `code must be at most ${CODE_MAX} characters`)
    .optional()
    .openapi({ description: "The asset with this code (exact): a scanned QR code or barcode." }),
  siteId: z.string().optional().openapi({ format: "uuid", description: "Only the assets at this site." }),
  assetTypeId: z.string().optional().openapi({ format: "uuid", description: "Only the assets of this type." }),
  status: assetStatus.optional(),
});
export type AssetListQuery = z.output<typeof AssetListQuery>;
export const MemberListQuery = z.object(pageQuery);

const common = {
  archived: z.boolean(),
  archivedAt: isoTimestamp.nullable(),
  revision: z.number().int().openapi({ description: "1 when created, one more for every accepted change. The ETag header names it." }),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
};
const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });

export const SiteView = registry.register(
  "Site",
  z.object({
    id: z.uuid(),
    name: z.string(),
    code: z.string(),
    address: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    parentSiteId: z.uuid().nullable(),
    ...common,
  }),
);
export type SiteView = z.output<typeof SiteView>;
export const SiteList = registry.register("SiteList", z.object({ sites: z.array(SiteView), pagination }));

export const GroupView = registry.register(
  "Group",
  z.object({
    id: z.uuid(),
    name: z.string(),
    externalGroupId: z.string().nullable(),
    memberCount: z.number().int().openapi({ description: "Employees assigned to the group." }),
    ...common,
  }),
);
export type GroupView = z.output<typeof GroupView>;
export const GroupList = registry.register("GroupList", z.object({ groups: z.array(GroupView), pagination }));

export const GroupMember = registry.register(
  "GroupMember",
  z.object({
    employeeId: z.uuid(),
    externalEmployeeId: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    userId: z.uuid().nullable().openapi({ description: "The employee's user account." }),
    memberRole: z.string().nullable().openapi({ description: "The member's role within the group (the sync's group role)." }),
  }),
);
export type GroupMemberView = z.output<typeof GroupMember>;
export const GroupMemberList = registry.register("GroupMemberList", z.object({ members: z.array(GroupMember), pagination }));
export const MemberParams = z.object({ id: z.string().openapi({ format: "uuid" }), employeeId: z.string().openapi({ format: "uuid" }) });
export const AddMemberBody = z
  .strictObject({
    memberRole: z.string().trim().min(1).max(NAME_MAX, `memberRole must be at most ${NAME_MAX} characters`).nullable().optional(),
  })
  .openapi("GroupMemberRequest");

export const RoleView = registry.register(
  "Role",
  z.object({
    id: z.uuid(),
    name: z.string(),
    holders: z.number().int().openapi({ description: "Employees who hold the role." }),
    ...common,
  }),
);
export type RoleView = z.output<typeof RoleView>;
export const RoleList = registry.register("RoleList", z.object({ roles: z.array(RoleView), pagination }));

export const ResponseTypeView = registry.register(
  "ResponseType",
  z.object({
    id: z.uuid(),
    name: z.string(),
    inputType: z.string(),
    uiLabel: z.string().nullable(),
    options: z.array(
      z.object({ id: z.uuid(), label: z.string(), value: z.string(), position: z.number().int(), requiresNote: z.boolean(), requiresPhoto: z.boolean() }),
    ),
    templates: z.number().int().openapi({ description: "Templates (any version) with a question of this type." }),
    ...common,
  }),
);
export type ResponseTypeView = z.output<typeof ResponseTypeView>;
export const ResponseTypeList = registry.register("ResponseTypeList", z.object({ responseTypes: z.array(ResponseTypeView), pagination }));

export const AssetTypeView = registry.register(
  "AssetType",
  z.object({
    id: z.uuid(),
    name: z.string(),
    fields: z.array(z.object({ name: z.string(), type: z.enum(ASSET_FIELD_TYPES), required: z.boolean() })),
    assets: z.number().int().openapi({ description: "Assets of this type." }),
    templates: z.number().int().openapi({ description: "Templates (any version) for assets of this type (their assetTypeId)." }),
    ...common,
  }),
);
export type AssetTypeView = z.output<typeof AssetTypeView>;
export const AssetTypeList = registry.register("AssetTypeList", z.object({ assetTypes: z.array(AssetTypeView), pagination }));

export const AssetView = registry.register(
  "Asset",
  z.object({
    id: z.uuid(),
    name: z.string(),
    code: z.string().nullable().openapi({ description: "null only for assets made before /api/assets." }),
    assetTypeId: z.string().nullable(),
    siteId: z.string().nullable(),
    status: z.enum(ASSET_STATUSES),
    fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    metadata: z.record(z.string(), z.unknown()),
    lastInspection: z
      .object({
        id: z.string(),
        inspectionNumber: z.string(),
        status: z.string(),
        date: isoTimestamp.openapi({ description: "When it was completed, or created when it is in progress." }),
        conductedBy: z.object({ id: z.string(), name: z.string().nullable(), email: z.string() }),
      })
      .nullable()
      .openapi({ description: "Its newest inspection (by creation); null when it has none." }),
    nextOccurrence: z
      .object({
        id: z.uuid(),
        scheduleId: z.uuid().nullable(),
        state: z.enum(["UPCOMING", "OPEN", "LATE"]),
        startAt: isoTimestamp,
        dueAt: isoTimestamp,
      })
      .nullable()
      .openapi({
        description:
          "The scheduled inspection due next for it (docs/schedules.md): its earliest UPCOMING, OPEN or LATE occurrence by due time (a LATE one first); null when none.",
        example: {
          id: "7e1f0c2a-4b3d-4c5e-8f6a-9b0c1d2e3f4a",
          scheduleId: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
          state: "UPCOMING",
          startAt: "2026-03-31T08:00:00.000Z",
          dueAt: "2026-03-31T16:00:00.000Z",
        },
      }),
    ...common,
  }),
);
export type AssetView = z.output<typeof AssetView>;
export const AssetList = registry.register("AssetList", z.object({ assets: z.array(AssetView), pagination }));

const read = keyOrUser("directory:read");
const write = keyOrUser("directory:write");
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const ifMatch = z.object({ "if-match": z.string().openapi({ example: '"r1"' }) });
const WHO_WRITES = "Admin users and API keys with directory:write (another user: 403).";
const ETAG = "The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.";
const PATCH_RULES =
  "Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision.";

/** The five operations of one directory noun (list, read, create, PATCH, DELETE). */
function nounOps<L extends z.ZodObject, C extends z.ZodType, P extends z.ZodType>(n: {
  path: string;
  what: string;
  view: z.ZodType;
  list: z.ZodType;
  query: L;
  create: C;
  createExample: unknown;
  patch: P;
  patchExamples: Record<string, { summary: string; value: unknown }>;
  listText: string;
  createText: string;
  patchText: string;
  deleteText: string;
}) {
  return {
    list: defineOperation({
      method: "get",
      path: n.path,
      summary: `List ${n.what}s; extension`,
      description: `${n.listText} Every user of the organization and API keys with directory:read. Archived ${n.what}s only with includeArchived=true.`,
      auth: read,
      request: { query: n.query },
      responses: { 200: json(n.list, `A page of ${n.what}s`), ...errorResponses(400, 401, 403, 429) },
    }),
    get: defineOperation({
      method: "get",
      path: `${n.path}/{id}`,
      summary: `One ${n.what}; extension`,
      description: ETAG,
      auth: read,
      request: { params: IdParam },
      responses: { 200: json(n.view, `The ${n.what}`), 304: { description: "Not modified (If-None-Match)" }, ...errorResponses(401, 403, 404, 429) },
    }),
    create: defineOperation({
      method: "post",
      path: n.path,
      summary: `Create a ${n.what}; extension`,
      description: `${n.createText} ${WHO_WRITES} Sends ${n.what}.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG ${n.what}s already (archived ones count): delete one first.`,
      auth: write,
      request: { body: { content: { "application/json": { schema: n.create, example: n.createExample } } } },
      responses: { 201: json(n.view, `The ${n.what}`), ...errorResponses(400, 401, 403, 409, 429) },
    }),
    patch: defineOperation({
      method: "patch",
      path: `${n.path}/{id}`,
      summary: `Change, archive or restore a ${n.what}; extension`,
      description: `${PATCH_RULES} ${n.patchText} ${WHO_WRITES} Sends ${n.what}.updated, or ${n.what}.archived when it becomes archived.`,
      auth: write,
      request: { params: IdParam, headers: ifMatch, body: { content: { "application/json": { schema: n.patch, examples: n.patchExamples } } } },
      responses: { 200: json(n.view, `The ${n.what} after the change`), ...errorResponses(400, 401, 403, 404, 409, 412, 428, 429) },
    }),
    delete: defineOperation({
      method: "delete",
      path: `${n.path}/{id}`,
      summary: `Delete a ${n.what}; extension`,
      description: `${n.deleteText} ${WHO_WRITES} Sends ${n.what}.deleted.`,
      auth: write,
      request: { params: IdParam },
      responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404, 409, 429) },
    }),
  };
}

const sites = nounOps({
  path: "/api/sites",
  what: "site",
  view: SiteView,
  list: SiteList,
  query: SiteListQuery,
  create: CreateSiteBody,
  createExample: { name: "Rotterdam warehouse", code: "NL-RTM-01", address: "Waalhaven 12, 3089 Rotterdam", latitude: 51.8853, longitude: 4.4281 },
  patch: PatchSiteBody,
  patchExamples: {
    move: { summary: "Put it under a region", value: { parentSiteId: "5b0e6a3c-2f4d-4e8a-9c1b-7d6e5f4a3b2c" } },
    archive: { summary: "Archive it", value: { archived: true } },
  },
  listText: "By code, then id. Filters: namePrefix, code (exact), parentSiteId, updatedSince.",
  createText: "code is unique in the organization (409 when taken); parentSiteId must be a site of the organization (400).",
  patchText: "A parentSiteId that would make a cycle (the site itself or one below it) is a 400; a code another site has is a 409.",
  deleteText:
    "Only a site nothing refers to: a site with assigned employees, inspections or sites below it answers 409 naming how many of each, and is archived instead (PATCH with archived: true).",
});
const groups = nounOps({
  path: "/api/groups",
  what: "group",
  view: GroupView,
  list: GroupList,
  query: GroupListQuery,
  create: CreateGroupBody,
  createExample: { name: "Night shift", externalGroupId: "HR-GRP-0042" },
  patch: PatchGroupBody,
  patchExamples: {
    rename: { summary: "Rename it", value: { name: "Night shift (north)" } },
    archive: { summary: "Archive it", value: { archived: true } },
  },
  listText: "By name, then id. Filters: namePrefix, externalGroupId (exact), updatedSince.",
  createText: "name and externalGroupId are unique in the organization (409 when taken). Groups made by SCIM are the same groups.",
  patchText: "A name or externalGroupId another group has is a 409.",
  deleteText: "Only a group without members: one with members answers 409 naming how many, and is archived instead (PATCH with archived: true).",
});
const roles = nounOps({
  path: "/api/roles",
  what: "role",
  view: RoleView,
  list: RoleList,
  query: RoleListQuery,
  create: CreateRoleBody,
  createExample: { name: "site_manager" },
  patch: PatchRoleBody,
  patchExamples: {
    rename: { summary: "Rename it (the HR sync then knows it by the new name)", value: { name: "FIELD_TECH" } },
    archive: { summary: "Archive it", value: { archived: true } },
  },
  listText: "By name, then id. Filters: namePrefix, updatedSince.",
  createText: "name is unique in the organization (409 when taken).",
  patchText: "A name another role has is a 409.",
  deleteText: "Only a role nobody holds: one held by employees answers 409 naming how many, and is archived instead (PATCH with archived: true).",
});

const responseTypes = nounOps({
  path: "/api/response-types",
  what: "response type",
  view: ResponseTypeView,
  list: ResponseTypeList,
  query: ResponseTypeListQuery,
  create: CreateResponseTypeBody,
  createExample: {
    name: "Pass / fail",
    inputType: "SELECT",
    options: [
      { label: "Pass", value: "pass" },
      { label: "Fail", value: "fail", requiresNote: true, requiresPhoto: true },
    ],
  },
  patch: PatchResponseTypeBody,
  patchExamples: {
    relabel: { summary: "Change its label", value: { uiLabel: "Result" } },
    archive: { summary: "Archive it (templates using it keep working; new templates cannot use it)", value: { archived: true } },
  },
  listText: "By name, then id. A template question's responseTypeId is one of these ids. Filters: namePrefix, updatedSince.",
  createText: "name is unique in the organization (409 when taken); options only for SELECT and MULTI_SELECT (400).",
  patchText: "A name another response type has is a 409; options replace all the options. inputType cannot change.",
  deleteText:
    "Only a response type no template uses: one used by a template (any version) answers 409 naming how many, and is archived instead (PATCH with archived: true).",
});

const assetTypes = nounOps({
  path: "/api/asset-types",
  what: "asset type",
  view: AssetTypeView,
  list: AssetTypeList,
  query: AssetTypeListQuery,
  create: CreateAssetTypeBody,
  createExample: {
    name: "Forklift",
    fields: [
      { name: "serialNumber", type: "text", required: true },
      { name: "capacityKg", type: "number", required: false },
      { name: "lastServiced", type: "date", required: false },
    ],
  },
  patch: PatchAssetTypeBody,
  patchExamples: {
    rename: { summary: "Rename it", value: { name: "Reach truck" } },
    archive: { summary: "Archive it", value: { archived: true } },
  },
  listText: "By name, then id. An ASSET template's assetTypeId is one of these ids. Filters: namePrefix, updatedSince.",
  createText: "name is unique in the organization (409 when taken); field names are unique and each type is text, number, date or boolean (400).",
  patchText: "A name another asset type has is a 409; fields replace all the fields.",
  deleteText:
    "Only an asset type nothing refers to: one with assets or templates naming it answers 409 naming how many of each, and is archived instead (PATCH with archived: true).",
});

export const { list: listSitesOp, get: getSiteOp, create: createSiteOp, patch: patchSiteOp, delete: deleteSiteOp } = sites;
export const { list: listGroupsOp, get: getGroupOp, create: createGroupOp, patch: patchGroupOp, delete: deleteGroupOp } = groups;
export const { list: listRolesOp, get: getRoleOp, create: createRoleOp, patch: patchRoleOp, delete: deleteRoleOp } = roles;
export const {
  list: listResponseTypesOp,
  get: getResponseTypeOp,
  create: createResponseTypeOp,
  patch: patchResponseTypeOp,
  delete: deleteResponseTypeOp,
} = responseTypes;
const assetsOps = nounOps({
  path: "/api/assets",
  what: "asset",
  view: AssetView,
  list: AssetList,
  query: AssetListQuery,
  create: CreateAssetBody,
  createExample: {
    name: "Forklift FL-07",
    code: "FL-07",
    assetTypeId: "5b0e6a3c-2f4d-4e8a-9c1b-7d6e5f4a3b2c",
    siteId: "0c7d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f",
    fields: { serialNumber: "SN-4471", capacityKg: 2500 },
    metadata: { purchaseOrder: "PO-2291" },
  },
  patch: PatchAssetBody,
  patchExamples: {
    move: { summary: "Move it to another site", value: { siteId: "0c7d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f" } },
    retire: { summary: "Retire it (it keeps its history; imports naming it are refused)", value: { status: "RETIRED" } },
  },
  listText: "By code, then id. Filters: namePrefix, code (exact: a scanned QR code or barcode), siteId, assetTypeId, status, updatedSince.",
  createText:
    "code is unique in the organization (409 when taken); assetTypeId must be an unarchived asset type and siteId an unarchived site of the organization, and fields must fit the type's field schema (400 naming the field).",
  patchText: "A code another asset has is a 409; fields replace all the field values and are checked against the (new) type; metadata replaces the metadata.",
  deleteText:
    "Only an asset no inspection names: one with inspections answers 409 naming how many; retire it (status RETIRED) or archive it instead (PATCH with archived: true).",
});

export const { list: listAssetTypesOp, get: getAssetTypeOp, create: createAssetTypeOp, patch: patchAssetTypeOp, delete: deleteAssetTypeOp } = assetTypes;

export const listGroupMembersOp = defineOperation({
  method: "get",
  path: "/api/groups/{id}/members",
  summary: "List a group's members; extension",
  description: "Members are employees (the HR sync's and SCIM's group assignments), by name. Every user of the organization and API keys with directory:read.",
  auth: read,
  request: { params: IdParam, query: MemberListQuery },
  responses: { 200: json(GroupMemberList, "A page of members"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const addGroupMemberOp = defineOperation({
  method: "put",
  path: "/api/groups/{id}/members/{employeeId}",
  summary: "Add an employee to a group, or change their role in it; extension",
  description:
    `The employee must be one of the organization's (404 otherwise). Repeating it changes nothing but memberRole. An archived group takes no new members (409). ${WHO_WRITES} ` +
    "Sends group.updated. The next HR sync of the employee in replace mode sets their groups again.",
  auth: write,
  request: {
    params: MemberParams,
    body: { content: { "application/json": { schema: AddMemberBody, example: { memberRole: "lead" } } } },
  },
  responses: { 200: json(GroupMember, "The membership"), ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const removeGroupMemberOp = defineOperation({
  method: "delete",
  path: "/api/groups/{id}/members/{employeeId}",
  summary: "Remove an employee from a group; extension",
  description: `404 when the employee is not a member. ${WHO_WRITES} Sends group.updated.`,
  auth: write,
  request: { params: MemberParams },
  responses: { 204: { description: "Removed" }, ...errorResponses(401, 403, 404, 429) },
});

export const { list: listAssetsOp, get: getAssetOp, create: createAssetOp, patch: patchAssetOp, delete: deleteAssetOp } = assetsOps;

export const listAssetInspectionsOp = defineOperation({
  method: "get",
  path: "/api/assets/{id}/inspections",
  summary: "An asset's inspections (its history); extension",
  description:
    "Newest first, as GET /api/inspections?assetId= answers them. Every user of the organization, and API keys with directory:read and inspections:read. 404 for another organization's asset.",
  auth: keyOrUser("directory:read", "inspections:read"),
  request: { params: IdParam, query: MemberListQuery },
  responses: { 200: json(InspectionList, "A page of the asset's inspections"), ...errorResponses(400, 401, 403, 404, 429) },
});
