import { boolean, doublePrecision, foreignKey, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";

/** Organization reference data: roles, groups, sites, asset types, assets, response types. */

/**
 * Directory rows changed over HTTP (/api/sites, /api/groups, /api/roles) carry a revision for
 * their ETag, and may be archived: the HR sync treats an archived row as missing.
 */
const directoryColumns = () => ({
  /** 1 when created, one more for every accepted change. */
  revision: integer("revision").notNull().default(1),
  /** Set: archived (kept for what refers to it; the HR sync no longer assigns it). */
  archivedAt: ts("archived_at"),
});

export const roles = pgTable(
  "roles",
  { id: id(), organizationId: orgId(), name: text("name").notNull(), createdAt: createdAt(), updatedAt: updatedAt(), ...directoryColumns() },
  (t) => [uniqueIndex("roles_org_name_key").on(t.organizationId, t.name)],
);

export const groups = pgTable(
  "groups",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    externalId: text("external_id"),
    createdAt: createdAt(),
    /** Name, external id or members changed (SCIM's meta.lastModified). */
    updatedAt: updatedAt(),
    ...directoryColumns(),
  },
  (t) => [uniqueIndex("groups_org_name_key").on(t.organizationId, t.name), uniqueIndex("groups_org_external_id_key").on(t.organizationId, t.externalId)],
);

export const sites = pgTable(
  "sites",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    address: text("address"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** A region above this site, of the same organization (the composite key says so); never a cycle (core checks). */
    parentSiteId: uuid("parent_site_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...directoryColumns(),
  },
  (t) => [
    uniqueIndex("sites_org_code_key").on(t.organizationId, t.code),
    uniqueIndex("sites_org_id_key").on(t.organizationId, t.id),
    index("sites_org_parent_idx").on(t.organizationId, t.parentSiteId),
    foreignKey({ name: "sites_parent_fk", columns: [t.organizationId, t.parentSiteId], foreignColumns: [t.organizationId, t.id] }),
  ],
);

/** A field an asset of the type has (asset_types.fields). */
export interface AssetTypeField {
  name: string;
  type: "text" | "number" | "date" | "boolean";
  required: boolean;
}

export const assetTypes = pgTable(
  "asset_types",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    /** The fields an asset of this type has. */
    fields: jsonb("fields").$type<AssetTypeField[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...directoryColumns(),
  },
  (t) => [uniqueIndex("asset_types_org_name_key").on(t.organizationId, t.name)],
);

/** The status of an asset: a RETIRED one is kept with its history but takes no new inspections. */
const ASSET_STATUSES = ["ACTIVE", "RETIRED"] as const;

/** An organization's assets (/api/assets, docs/assets.md): what ASSET inspections inspect. */
export const assets = pgTable(
  "assets",
  {
    id: id(),
    organizationId: orgId(),
    assetTypeId: uuid("asset_type_id").references(() => assetTypes.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** Unique in the organization (QR and barcode lookup: GET /api/assets?code=). Null only for assets made before /api/assets. */
    code: text("code"),
    /** Where it is; a site of the same organization (the composite key says so). */
    siteId: uuid("site_id"),
    status: text("status", { enum: ASSET_STATUSES }).notNull().default("ACTIVE"),
    /** Values of the asset type's fields, by field name (checked against the type's schema by core). */
    fields: jsonb("fields").$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** Free JSON object (size-limited by the API). */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...directoryColumns(),
  },
  (t) => [
    index("assets_org_idx").on(t.organizationId),
    uniqueIndex("assets_org_code_key").on(t.organizationId, t.code),
    index("assets_org_site_idx").on(t.organizationId, t.siteId),
    foreignKey({ name: "assets_site_fk", columns: [t.organizationId, t.siteId], foreignColumns: [sites.organizationId, sites.id] }),
  ],
);

/** Organization-defined answer kinds (/api/response-types and the admin CLI). */
export const responseTypes = pgTable(
  "response_types",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    /** SELECT, MULTI_SELECT, TEXT, NUMBER, DATE, BOOLEAN, PHOTO, ... */
    inputType: text("input_type").notNull(),
    uiLabel: text("ui_label"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...directoryColumns(),
  },
  (t) => [uniqueIndex("response_types_org_name_key").on(t.organizationId, t.name)],
);

export const responseTypeOptions = pgTable(
  "response_type_options",
  {
    id: id(),
    organizationId: orgId(),
    responseTypeId: uuid("response_type_id")
      .notNull()
      .references(() => responseTypes.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    value: text("value").notNull(),
    position: integer("position").notNull(),
    requiresNote: boolean("requires_note").notNull().default(false),
    requiresPhoto: boolean("requires_photo").notNull().default(false),
  },
  (t) => [index("response_type_options_type_idx").on(t.responseTypeId)],
);
