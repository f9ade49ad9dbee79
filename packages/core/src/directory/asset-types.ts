import { and, count, eq, inArray } from "drizzle-orm";
import type { AssetTypeListQuery, AssetTypeView, CreateAssetTypeBody, PatchAssetTypeBody } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { assets, assetTypes, templates, templateVersions } from "@insp/db/schema";
import { countsById, directoryNoun, referrers, type DirectoryActor } from "./common.ts";

/** Asset types over HTTP (/api/asset-types) and the admin CLI's create-asset-type: one implementation. */

type Row = typeof assetTypes.$inferSelect;

const toView = (r: Row, assetCount: number, templateCount: number): AssetTypeView => ({
  id: r.id,
  name: r.name,
  fields: r.fields,
  assets: assetCount,
  templates: templateCount,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Assets of each type, and templates naming it (the template or any of its versions). */
async function usage(db: DbOrTx, organizationId: string, ids: string[]): Promise<{ assets: Map<string, number>; templates: Map<string, number> }> {
  if (!ids.length) return { assets: new Map(), templates: new Map() };
  const a = await db
    .select({ id: assets.assetTypeId, n: count() })
    .from(assets)
    .where(and(eq(assets.organizationId, organizationId), inArray(assets.assetTypeId, ids)))
    .groupBy(assets.assetTypeId);
  const t = await db
    .select({ id: templates.assetTypeId, tid: templates.id })
    .from(templates)
    .where(and(eq(templates.organizationId, organizationId), inArray(templates.assetTypeId, ids)));
  const v = await db
    .selectDistinct({ id: templateVersions.assetTypeId, tid: templateVersions.templateId })
    .from(templateVersions)
    .innerJoin(templates, and(eq(templates.id, templateVersions.templateId), eq(templates.organizationId, organizationId)))
    .where(inArray(templateVersions.assetTypeId, ids));
  const named = new Map<string, Set<string>>();
  for (const r of [...t, ...v]) {
    if (!r.id) continue;
    if (!named.has(r.id)) named.set(r.id, new Set());
    named.get(r.id)!.add(r.tid);
  }
  return {
    assets: countsById(a),
    templates: new Map([...named].map(([id, set]) => [id, set.size])),
  };
}

const noun = directoryNoun<Row, AssetTypeView>({
  table: assetTypes,
  kind: "asset_type",
  label: "Asset type",
  path: "asset-types",
  unique: { column: assetTypes.name, taken: (name) => `An asset type named '${name}' already exists in this organization (archived ones keep their name)` },
  display: (r) => r.name,
  views: async (db, organizationId, rows) => {
    const u = await usage(
      db,
      organizationId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toView(r, u.assets.get(r.id) ?? 0, u.templates.get(r.id) ?? 0));
  },
});

/** The organization's asset types among `ids` (feeds' and webhooks' loader). */
export const assetTypesByIds = noun.byIds;

export const getAssetType = noun.get;

export async function listAssetTypes(db: DbOrTx, organizationId: string, q: AssetTypeListQuery) {
  const p = await noun.list(db, organizationId, q, assetTypes.name);
  return { assetTypes: p.items, pagination: p.pagination };
}

/** POST /api/asset-types and the admin CLI's create-asset-type. 409 when the name is taken; 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createAssetType(
  db: Db | Tx,
  organizationId: string,
  actor: DirectoryActor,
  input: CreateAssetTypeBody,
  max?: number,
): Promise<AssetTypeView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.name,
    insert: async (tx: Tx) =>
      (
        await tx
          .insert(assetTypes)
          .values({ organizationId, name: input.name, fields: input.fields ?? [] })
          .returning()
      )[0]!,
  });
}

/** PATCH /api/asset-types/{id}: rename, replace the fields, archive or restore. 404, 412, 409. */
export async function patchAssetType(
  db: Db,
  organizationId: string,
  id: string,
  expected: number[] | null,
  input: PatchAssetTypeBody,
  actor: DirectoryActor,
): Promise<AssetTypeView> {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: noun.spec.unique.taken(input.name ?? ""),
    archived: input.archived,
    plan: async (tx, row) => {
      const plan = await noun.planUnique(tx, organizationId, row, "name", input.name);
      if (input.fields !== undefined && JSON.stringify(input.fields) !== JSON.stringify(row.fields)) {
        plan.fields.push("fields");
        plan.set.fields = input.fields;
      }
      return plan;
    },
  });
}

/** DELETE /api/asset-types/{id}: only one no asset and no template names (409 naming how many: archive it instead). */
export async function deleteAssetType(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
    const u = await usage(tx, organizationId, [id]);
    const refs = referrers([
      [u.assets.get(id) ?? 0, "asset", "assets"],
      [u.templates.get(id) ?? 0, "template", "templates"],
    ]);
    return refs.length ? { why: `${refs.join(", ")} refer to it`, details: refs } : null;
  });
}
