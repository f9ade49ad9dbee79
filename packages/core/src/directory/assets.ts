import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AssetListQuery, AssetView, CreateAssetBody, PatchAssetBody } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { assets, assetTypes, inspections, occurrences, sites, users } from "@insp/db/schema";
import { badRequest, isUuid } from "../errors.ts";
import { listInspections } from "../inspections/list.ts";
import { blockedBy, changedColumns, directoryNoun, type DirectoryActor } from "./common.ts";

/**
 * Assets over HTTP (/api/assets, docs/assets.md) and the admin CLI's create-asset: one
 * implementation. An asset has a code unique in its organization (QR and barcode lookup), a type
 * whose field schema its `fields` must fit, an optional site, a status (ACTIVE, RETIRED), its
 * history (the inspections naming it) and its next scheduled occurrence.
 */

type Row = typeof assets.$inferSelect;
type LastInspection = AssetView["lastInspection"];
type NextOccurrence = AssetView["nextOccurrence"];
type FieldValues = Record<string, string | number | boolean>;

const toView = (r: Row, last: LastInspection, next: NextOccurrence): AssetView => ({
  id: r.id,
  name: r.name,
  code: r.code,
  assetTypeId: r.assetTypeId,
  siteId: r.siteId,
  status: r.status,
  fields: r.fields,
  metadata: r.metadata,
  lastInspection: last,
  nextOccurrence: next,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The newest inspection (by creation) of each asset among `ids`, with who conducted it. */
async function lastInspections(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, NonNullable<LastInspection>>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectDistinctOn([inspections.assetId], {
      assetId: inspections.assetId,
      id: inspections.id,
      inspectionNumber: inspections.inspectionNumber,
      status: inspections.status,
      date: sql<Date>`coalesce(${inspections.completedAt}, ${inspections.createdAt})`.mapWith(inspections.createdAt),
      userId: users.id,
      userName: users.name,
      email: users.email,
    })
    .from(inspections)
    .innerJoin(users, eq(users.id, inspections.conductedBy))
    .where(and(eq(inspections.organizationId, organizationId), inArray(inspections.assetId, ids)))
    .orderBy(inspections.assetId, desc(inspections.createdAt), desc(inspections.id));
  return new Map(
    rows.map((r) => [
      r.assetId!,
      {
        id: r.id,
        inspectionNumber: r.inspectionNumber,
        status: r.status,
        date: r.date.toISOString(),
        conductedBy: { id: r.userId, name: r.userName, email: r.email },
      },
    ]),
  );
}

/** The pending occurrence due first (LATE, OPEN or UPCOMING) of each asset among `ids` (docs/schedules.md). */
async function nextOccurrences(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, NonNullable<NextOccurrence>>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectDistinctOn([occurrences.assetId], {
      assetId: occurrences.assetId,
      id: occurrences.id,
      scheduleId: occurrences.scheduleId,
      state: occurrences.state,
      startAt: occurrences.startAt,
      dueAt: occurrences.dueAt,
    })
    .from(occurrences)
    .innerJoin(assets, eq(assets.id, occurrences.assetId))
    .where(
      and(
        eq(occurrences.organizationId, organizationId),
        inArray(occurrences.assetId, ids),
        inArray(occurrences.state, ["UPCOMING", "OPEN", "LATE"]),
        // An upcoming one of an asset retired or archived meanwhile will not open (the sweep drops it).
        sql`(${occurrences.state} <> 'UPCOMING' or (${assets.status} = 'ACTIVE' and ${assets.archivedAt} is null))`,
      ),
    )
    .orderBy(occurrences.assetId, asc(occurrences.dueAt), asc(occurrences.id));
  return new Map(
    rows.map((r) => [
      r.assetId!,
      {
        id: r.id,
        scheduleId: r.scheduleId,
        state: r.state as NonNullable<NextOccurrence>["state"],
        startAt: r.startAt.toISOString(),
        dueAt: r.dueAt.toISOString(),
      },
    ]),
  );
}

const noun = directoryNoun<Row, AssetView>({
  table: assets,
  kind: "asset",
  label: "Asset",
  path: "assets",
  unique: { column: assets.code, taken: (code) => `An asset with code '${code}' already exists in this organization (archived assets keep their code)` },
  display: (r) => r.code ?? r.name,
  views: async (db, organizationId, rows) => {
    const ids = rows.map((r) => r.id);
    const [last, next] = await Promise.all([lastInspections(db, organizationId, ids), nextOccurrences(db, organizationId, ids)]);
    return rows.map((r) => toView(r, last.get(r.id) ?? null, next.get(r.id) ?? null));
  },
});

/** The organization's assets among `ids` (feeds' and webhooks' loader). */
export const assetsByIds = noun.byIds;

/** GET /api/assets/{id}: with its last inspection; 404 for an unknown, malformed or another organization's id. */
export const getAsset = noun.get;

/** GET /api/assets: by code; `code=` is the scanned-code lookup. */
export async function listAssets(db: DbOrTx, organizationId: string, q: AssetListQuery) {
  const extra: SQL[] = [];
  if (q.code !== undefined) extra.push(eq(assets.code, q.code));
  if (q.status !== undefined) extra.push(eq(assets.status, q.status));
  for (const [value, column] of [
    [q.siteId, assets.siteId],
    [q.assetTypeId, assets.assetTypeId],
  ] as const)
    if (value !== undefined) extra.push(isUuid(value) ? eq(column, value) : sql`false`);
  const p = await noun.list(db, organizationId, q, assets.code, extra);
  return { assets: p.items, pagination: p.pagination };
}

/** GET /api/assets/{id}/inspections: its history, newest first (404 for an asset not the organization's). */
export async function listAssetInspections(db: Db, organizationId: string, id: string, q: { limit: number; offset: number }) {
  await getAsset(db, organizationId, id);
  return listInspections(db, organizationId, { assetId: id, limit: q.limit, offset: q.offset, includeAnswers: false });
}

const invalid = (details: string[]) => badRequest("Invalid asset", details);

/** The field schema of `assetTypeId`: 400 unless it is an unarchived asset type of the organization. */
async function typeOf(tx: Tx, organizationId: string, assetTypeId: string) {
  const [t] = isUuid(assetTypeId)
    ? await tx
        .select({ name: assetTypes.name, fields: assetTypes.fields, archivedAt: assetTypes.archivedAt })
        .from(assetTypes)
        .where(and(eq(assetTypes.organizationId, organizationId), eq(assetTypes.id, assetTypeId)))
        .for("key share")
    : [];
  if (!t) throw invalid([`assetTypeId '${assetTypeId}' is not an asset type of this organization`]);
  if (t.archivedAt) throw invalid([`assetTypeId '${assetTypeId}' is an archived asset type: restore it first`]);
  return t;
}

/** 400 unless `siteId` is an unarchived site of the organization. */
async function checkSite(tx: Tx, organizationId: string, siteId: string): Promise<void> {
  const [s] = isUuid(siteId)
    ? await tx
        .select({ archivedAt: sites.archivedAt })
        .from(sites)
        .where(and(eq(sites.organizationId, organizationId), eq(sites.id, siteId)))
        .for("key share")
    : [];
  if (!s) throw invalid([`siteId '${siteId}' is not a site of this organization`]);
  if (s.archivedAt) throw invalid([`siteId '${siteId}' is an archived site: restore it first`]);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const fits: Record<string, (v: unknown) => boolean> = {
  text: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  date: (v) => typeof v === "string" && DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
};
const WORDS: Record<string, string> = { text: "a string", number: "a number", boolean: "true or false", date: "a date (YYYY-MM-DD)" };

/** Every way `values` do not fit the type's field schema (unknown names, wrong types, required ones missing), one message each. */
function fieldViolations(type: { name: string; fields: { name: string; type: string; required: boolean }[] }, values: FieldValues): string[] {
  const byName = new Map(type.fields.map((f) => [f.name, f]));
  const details: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const f = byName.get(name);
    if (!f) details.push(`fields.${name} is not a field of asset type '${type.name}'`);
    else if (!fits[f.type]!(value)) details.push(`fields.${name} must be ${WORDS[f.type]}`);
  }
  for (const f of type.fields) if (f.required && values[f.name] === undefined) details.push(`fields.${f.name} is required by asset type '${type.name}'`);
  return details;
}

async function checkFields(tx: Tx, organizationId: string, assetTypeId: string, values: FieldValues): Promise<void> {
  const details = fieldViolations(await typeOf(tx, organizationId, assetTypeId), values);
  if (details.length) throw invalid(details);
}

/** POST /api/assets and the admin CLI's create-asset. 400 (type, site, fields), 409 (code taken); 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createAsset(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateAssetBody, max?: number): Promise<AssetView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.code,
    before: async (tx) => {
      await checkFields(tx, organizationId, input.assetTypeId, input.fields ?? {});
      if (typeof input.siteId === "string") await checkSite(tx, organizationId, input.siteId);
    },
    insert: async (tx) => {
      const [row] = await tx
        .insert(assets)
        .values({
          organizationId,
          name: input.name,
          code: input.code,
          assetTypeId: input.assetTypeId.toLowerCase(),
          siteId: input.siteId?.toLowerCase() ?? null,
          status: input.status ?? "ACTIVE",
          fields: input.fields ?? {},
          metadata: input.metadata ?? {},
        })
        .returning();
      return row!;
    },
  });
}

/** The columns a PATCH changes and their names, after the type, fields, site and code checks. */
async function planAssetPatch(tx: Tx, organizationId: string, row: Row, input: PatchAssetBody) {
  const plan = changedColumns(row, input, ["name", "code", "status"] as const);
  const typeId = input.assetTypeId?.toLowerCase();
  if (typeId !== undefined && typeId !== row.assetTypeId) plan.set.assetTypeId = typeId;
  const siteId = input.siteId === undefined ? undefined : (input.siteId?.toLowerCase() ?? null);
  if (siteId !== undefined && siteId !== row.siteId) plan.set.siteId = siteId;
  for (const key of ["fields", "metadata"] as const)
    if (input[key] !== undefined && JSON.stringify(input[key]) !== JSON.stringify(row[key])) plan.set[key] = input[key];
  for (const key of ["assetTypeId", "siteId", "fields", "metadata"]) if (key in plan.set) plan.fields.push(key);
  const type = (plan.set.assetTypeId as string | undefined) ?? row.assetTypeId;
  if (("assetTypeId" in plan.set || "fields" in plan.set) && type) await checkFields(tx, organizationId, type, (plan.set.fields as FieldValues) ?? row.fields);
  if (typeof plan.set.siteId === "string") await checkSite(tx, organizationId, plan.set.siteId);
  if (typeof plan.set.code === "string") await noun.assertFree(tx, organizationId, plan.set.code, row.id);
  return plan;
}

/** PATCH /api/assets/{id}: 404, 412 (If-Match), 400 (type, site, fields), 409 (code taken). */
export async function patchAsset(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchAssetBody, actor: DirectoryActor) {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: noun.spec.unique.taken(input.code ?? ""),
    archived: input.archived,
    plan: (tx, row) => planAssetPatch(tx, organizationId, row, input),
  });
}

/** DELETE /api/assets/{id}: only an asset no inspection names (409 naming how many: retire or archive it instead). */
export async function deleteAsset(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
    const [r] = await tx
      .select({ n: count() })
      .from(inspections)
      .where(and(eq(inspections.organizationId, organizationId), eq(inspections.assetId, id)));
    const b = blockedBy(Number(r?.n ?? 0), "inspection names it", "inspections name it");
    return b && { why: `${b.why} (its history); retire it (status RETIRED) or archive it`, details: b.details };
  });
}
