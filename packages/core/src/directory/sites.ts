import { and, asc, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { CreateSiteBody, PatchSiteBody, SiteListQuery, SiteView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeSites, inspections, sites } from "@insp/db/schema";
import { AppError, badRequest, isUuid, notFound } from "../errors.ts";
import { archiveSet, assertRevision, commonFilters, page, recordDirectoryChange, referrers, uniqueOr409, type DirectoryActor } from "./common.ts";

/** Sites over HTTP (/api/sites) and the admin CLI's create-site: one implementation. */

type SiteRow = typeof sites.$inferSelect;

const toView = (r: SiteRow): SiteView => ({
  id: r.id,
  name: r.name,
  code: r.code,
  address: r.address,
  latitude: r.latitude,
  longitude: r.longitude,
  parentSiteId: r.parentSiteId,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const siteNotFound = (id: string) => notFound(`Site ${id} not found`);
const codeTaken = (code: string) => `A site with code '${code}' already exists in this organization (archived sites keep their code)`;

/** The organization's sites among `ids` (feeds' and webhooks' loader); ids that are not UUIDs or not theirs are left out. */
export async function sitesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<SiteView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return (
    await db
      .select()
      .from(sites)
      .where(and(eq(sites.organizationId, organizationId), inArray(sites.id, valid)))
  ).map(toView);
}

/** GET /api/sites/{id}: 404 for an unknown, malformed or another organization's id. */
export async function getSite(db: DbOrTx, organizationId: string, id: string): Promise<SiteView> {
  const [view] = await sitesByIds(db, organizationId, [id]);
  if (!view) throw siteNotFound(id);
  return view;
}

export async function listSites(db: DbOrTx, organizationId: string, q: SiteListQuery) {
  const conds: SQL[] = [eq(sites.organizationId, organizationId), ...commonFilters(sites, q)];
  if (q.code !== undefined) conds.push(eq(sites.code, q.code));
  if (q.parentSiteId !== undefined) conds.push(isUuid(q.parentSiteId) ? eq(sites.parentSiteId, q.parentSiteId) : sql`false`);
  const where = and(...conds);
  const rows = await db.select().from(sites).where(where).orderBy(asc(sites.code), asc(sites.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(sites).where(where)) as [{ n: number }];
  const p = page(rows.map(toView), Number(n), q);
  return { sites: p.items, pagination: p.pagination };
}

/**
 * 400 unless `parentId` is an unarchived site of the organization and not `siteId` or one below
 * it (the parent's chain of ancestors, walked in SQL, must not reach the site).
 */
async function checkParent(tx: Tx, organizationId: string, parentId: string, siteId: string | null): Promise<void> {
  const bad = (why: string) => badRequest("Invalid site", [`parentSiteId '${parentId}' ${why}`]);
  const [parent] = isUuid(parentId)
    ? await tx
        .select({ archivedAt: sites.archivedAt })
        .from(sites)
        .where(and(eq(sites.organizationId, organizationId), eq(sites.id, parentId)))
        .for("key share")
    : [];
  if (!parent) throw bad("is not a site of this organization");
  if (parent.archivedAt) throw bad("is an archived site: restore it first");
  if (siteId === null) return;
  const rows = await tx.execute<{ id: string }>(sql`
    with recursive up(id, parent, depth) as (
      select id, parent_site_id, 0 from sites where organization_id = ${organizationId} and id = ${parentId}
      union all
      select s.id, s.parent_site_id, up.depth + 1 from sites s join up on s.id = up.parent
        where s.organization_id = ${organizationId} and up.depth < 1000)
    select id from up where id = ${siteId} limit 1`);
  if (rows.length) throw bad("is this site or one below it: a site cannot be its own region");
}

/** POST /api/sites and the admin CLI's create-site. 400 (parent), 409 (code taken). */
export async function createSite(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateSiteBody): Promise<SiteView> {
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        if (typeof input.parentSiteId === "string") await checkParent(tx, organizationId, input.parentSiteId, null);
        const [taken] = await tx
          .select({ id: sites.id })
          .from(sites)
          .where(and(eq(sites.organizationId, organizationId), eq(sites.code, input.code)));
        if (taken) throw new AppError("conflict", codeTaken(input.code));
        const [row] = await tx
          .insert(sites)
          .values({
            organizationId,
            name: input.name,
            code: input.code,
            address: input.address ?? null,
            latitude: input.latitude ?? null,
            longitude: input.longitude ?? null,
            parentSiteId: input.parentSiteId?.toLowerCase() ?? null,
          })
          .returning();
        await recordDirectoryChange(tx, actor, { organizationId, kind: "site", id: row!.id, change: "created" });
        return toView(row!);
      }),
    codeTaken(input.code),
  );
}

/** The columns a PATCH changes (only those that differ), and their names for the audit. */
function planSitePatch(row: SiteRow, input: PatchSiteBody) {
  const set: Partial<typeof sites.$inferInsert> = {};
  const fields: string[] = [];
  for (const key of ["name", "code", "address", "latitude", "longitude"] as const) {
    const v = input[key];
    if (v === undefined || v === row[key]) continue;
    fields.push(key);
    Object.assign(set, { [key]: v });
  }
  const parent = input.parentSiteId === undefined ? undefined : (input.parentSiteId?.toLowerCase() ?? null);
  if (parent !== undefined && parent !== row.parentSiteId) {
    fields.push("parentSiteId");
    set.parentSiteId = parent;
  }
  const lat = set.latitude === undefined ? row.latitude : set.latitude;
  const lon = set.longitude === undefined ? row.longitude : set.longitude;
  if ((lat === null) !== (lon === null)) throw badRequest("Invalid site", [lat === null ? "longitude needs latitude" : "latitude needs longitude"]);
  const archive = archiveSet(row.archivedAt, input.archived);
  if (archive) {
    fields.push("archived");
    Object.assign(set, archive);
  }
  return { set, fields, parent, archiving: archive !== null && input.archived === true };
}

/** PATCH /api/sites/{id}: 404, 412 (If-Match), 400 (parent, coordinates), 409 (code taken). */
export async function patchSite(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchSiteBody, actor: DirectoryActor) {
  if (!isUuid(id)) throw siteNotFound(id);
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(sites)
          .where(and(eq(sites.organizationId, organizationId), eq(sites.id, id)))
          .for("update");
        if (!row) throw siteNotFound(id);
        assertRevision("site", row.revision, expected);
        const plan = planSitePatch(row, input);
        if (!plan.fields.length) return toView(row);
        if (typeof plan.parent === "string") await checkParent(tx, organizationId, plan.parent, id);
        if (plan.set.code !== undefined) {
          const [taken] = await tx
            .select({ id: sites.id })
            .from(sites)
            .where(and(eq(sites.organizationId, organizationId), eq(sites.code, plan.set.code), ne(sites.id, id)));
          if (taken) throw new AppError("conflict", codeTaken(plan.set.code));
        }
        const [updated] = await tx
          .update(sites)
          .set({ ...plan.set, revision: row.revision + 1 })
          .where(eq(sites.id, id))
          .returning();
        await recordDirectoryChange(tx, actor, { organizationId, kind: "site", id, change: plan.archiving ? "archived" : "updated", fields: plan.fields });
        return toView(updated!);
      }),
    codeTaken(input.code ?? ""),
  );
}

/**
 * DELETE /api/sites/{id}: only a site nothing refers to. Assigned employees, inspections and sites
 * below it are counted, and any of them is a 409 naming the counts and saying to archive instead.
 */
export async function deleteSite(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  if (!isUuid(id)) throw siteNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ code: sites.code })
      .from(sites)
      .where(and(eq(sites.organizationId, organizationId), eq(sites.id, id)))
      .for("update");
    if (!row) throw siteNotFound(id);
    const n = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
    const refs = referrers([
      [await n(tx.select({ n: count() }).from(employeeSites).where(eq(employeeSites.siteId, id))), "assigned employee", "assigned employees"],
      [
        await n(
          tx
            .select({ n: count() })
            .from(inspections)
            .where(and(eq(inspections.organizationId, organizationId), eq(inspections.siteId, id))),
        ),
        "inspection",
        "inspections",
      ],
      [
        await n(
          tx
            .select({ n: count() })
            .from(sites)
            .where(and(eq(sites.organizationId, organizationId), eq(sites.parentSiteId, id))),
        ),
        "site below it",
        "sites below it",
      ],
    ]);
    if (refs.length)
      throw new AppError(
        "conflict",
        `Site '${row.code}' cannot be deleted: it has ${refs.join(", ")}. Archive it instead (PATCH /api/sites/${id} with {"archived": true})`,
        refs,
      );
    await tx.delete(sites).where(and(eq(sites.organizationId, organizationId), eq(sites.id, id)));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "site", id, change: "deleted" });
  });
}
