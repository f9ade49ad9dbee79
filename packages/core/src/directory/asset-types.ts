import { and, asc, count, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { AssetTypeListQuery, AssetTypeView, CreateAssetTypeBody, PatchAssetTypeBody } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { assets, assetTypes, templates, templateVersions } from "@insp/db/schema";
import { AppError, isUuid, notFound } from "../errors.ts";
import { archiveSet, assertRevision, commonFilters, page, recordDirectoryChange, referrers, uniqueOr409, type DirectoryActor } from "./common.ts";

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

const atNotFound = (id: string) => notFound(`Asset type ${id} not found`);
const nameTaken = (name: string) => `An asset type named '${name}' already exists in this organization (archived ones keep their name)`;

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
    assets: new Map(a.map((r) => [r.id!, Number(r.n)])),
    templates: new Map([...named].map(([id, set]) => [id, set.size])),
  };
}

async function views(db: DbOrTx, organizationId: string, rows: Row[]): Promise<AssetTypeView[]> {
  const u = await usage(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, u.assets.get(r.id) ?? 0, u.templates.get(r.id) ?? 0));
}

/** The organization's asset types among `ids` (feeds' and webhooks' loader). */
export async function assetTypesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<AssetTypeView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return views(
    db,
    organizationId,
    await db
      .select()
      .from(assetTypes)
      .where(and(eq(assetTypes.organizationId, organizationId), inArray(assetTypes.id, valid))),
  );
}

export async function getAssetType(db: DbOrTx, organizationId: string, id: string): Promise<AssetTypeView> {
  const [view] = await assetTypesByIds(db, organizationId, [id]);
  if (!view) throw atNotFound(id);
  return view;
}

export async function listAssetTypes(db: DbOrTx, organizationId: string, q: AssetTypeListQuery) {
  const conds: SQL[] = [eq(assetTypes.organizationId, organizationId), ...commonFilters(assetTypes, q)];
  const where = and(...conds);
  const rows = await db.select().from(assetTypes).where(where).orderBy(asc(assetTypes.name), asc(assetTypes.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(assetTypes).where(where)) as [{ n: number }];
  const p = page(await views(db, organizationId, rows), Number(n), q);
  return { assetTypes: p.items, pagination: p.pagination };
}

async function assertNameFree(tx: Tx, organizationId: string, name: string, except?: string): Promise<void> {
  const conds = [eq(assetTypes.organizationId, organizationId), eq(assetTypes.name, name)];
  if (except) conds.push(ne(assetTypes.id, except));
  const [taken] = await tx
    .select({ id: assetTypes.id })
    .from(assetTypes)
    .where(and(...conds));
  if (taken) throw new AppError("conflict", nameTaken(name));
}

/** POST /api/asset-types and the admin CLI's create-asset-type. 409 when the name is taken. */
export async function createAssetType(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateAssetTypeBody): Promise<AssetTypeView> {
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        await assertNameFree(tx, organizationId, input.name);
        const [row] = await tx
          .insert(assetTypes)
          .values({ organizationId, name: input.name, fields: input.fields ?? [] })
          .returning();
        await recordDirectoryChange(tx, actor, { organizationId, kind: "asset_type", id: row!.id, change: "created" });
        return toView(row!, 0, 0);
      }),
    nameTaken(input.name),
  );
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
  if (!isUuid(id)) throw atNotFound(id);
  await uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(assetTypes)
          .where(and(eq(assetTypes.organizationId, organizationId), eq(assetTypes.id, id)))
          .for("update");
        if (!row) throw atNotFound(id);
        assertRevision("asset_type", row.revision, expected);
        const fields: string[] = [];
        const set: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== row.name) {
          await assertNameFree(tx, organizationId, input.name, id);
          fields.push("name");
          set.name = input.name;
        }
        if (input.fields !== undefined && JSON.stringify(input.fields) !== JSON.stringify(row.fields)) {
          fields.push("fields");
          set.fields = input.fields;
        }
        const archive = archiveSet(row.archivedAt, input.archived);
        if (archive) {
          fields.push("archived");
          Object.assign(set, archive);
        }
        if (!fields.length) return;
        await tx
          .update(assetTypes)
          .set({ ...set, revision: row.revision + 1 })
          .where(eq(assetTypes.id, id));
        const change = archive && input.archived ? "archived" : "updated";
        await recordDirectoryChange(tx, actor, { organizationId, kind: "asset_type", id, change, fields });
      }),
    nameTaken(input.name ?? ""),
  );
  return getAssetType(db, organizationId, id);
}

/** DELETE /api/asset-types/{id}: only one no asset and no template names (409 naming how many: archive it instead). */
export async function deleteAssetType(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  if (!isUuid(id)) throw atNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: assetTypes.name })
      .from(assetTypes)
      .where(and(eq(assetTypes.organizationId, organizationId), eq(assetTypes.id, id)))
      .for("update");
    if (!row) throw atNotFound(id);
    const u = await usage(tx, organizationId, [id]);
    const who = referrers([
      [u.assets.get(id) ?? 0, "asset", "assets"],
      [u.templates.get(id) ?? 0, "template", "templates"],
    ]);
    if (who.length)
      throw new AppError(
        "conflict",
        `Asset type '${row.name}' cannot be deleted: ${who.join(", ")} refer to it. Archive it instead (PATCH /api/asset-types/${id} with {"archived": true})`,
        who,
      );
    await tx.delete(assetTypes).where(and(eq(assetTypes.organizationId, organizationId), eq(assetTypes.id, id)));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "asset_type", id, change: "deleted" });
  });
}
