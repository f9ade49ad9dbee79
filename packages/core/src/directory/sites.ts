import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { CreateSiteBody, PatchSiteBody, SiteListQuery, SiteView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeSites, inspections, sites } from "@insp/db/schema";
import { badRequest, isUuid } from "../errors.ts";
import { changedColumns, directoryNoun, referrers, type DirectoryActor } from "./common.ts";

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

const noun = directoryNoun<SiteRow, SiteView>({
  table: sites,
  kind: "site",
  label: "Site",
  path: "sites",
  unique: { column: sites.code, taken: (code) => `A site with code '${code}' already exists in this organization (archived sites keep their code)` },
  display: (r) => r.code,
  views: async (_db, _org, rows) => rows.map(toView),
});

/** The organization's sites among `ids` (feeds' and webhooks' loader); ids that are not UUIDs or not theirs are left out. */
export const sitesByIds = noun.byIds;

/** GET /api/sites/{id}: 404 for an unknown, malformed or another organization's id. */
export const getSite = noun.get;

export async function listSites(db: DbOrTx, organizationId: string, q: SiteListQuery) {
  const extra: SQL[] = [];
  if (q.code !== undefined) extra.push(eq(sites.code, q.code));
  if (q.parentSiteId !== undefined) extra.push(isUuid(q.parentSiteId) ? eq(sites.parentSiteId, q.parentSiteId) : sql`false`);
  const p = await noun.list(db, organizationId, q, sites.code, extra);
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

/** POST /api/sites and the admin CLI's create-site. 400 (parent), 409 (code taken); 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createSite(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateSiteBody, max?: number): Promise<SiteView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.code,
    before: async (tx) => {
      if (typeof input.parentSiteId === "string") await checkParent(tx, organizationId, input.parentSiteId, null);
    },
    insert: async (tx) => {
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
      return row!;
    },
  });
}

/** The columns a PATCH changes (only those that differ) and their names for the audit, after the parent and code checks. */
async function planSitePatch(tx: Tx, organizationId: string, row: SiteRow, input: PatchSiteBody) {
  const plan = changedColumns(row, input, ["name", "code", "address", "latitude", "longitude"] as const);
  const parent = input.parentSiteId === undefined ? undefined : (input.parentSiteId?.toLowerCase() ?? null);
  if (parent !== undefined && parent !== row.parentSiteId) {
    plan.fields.push("parentSiteId");
    plan.set.parentSiteId = parent;
  }
  const lat = plan.set.latitude === undefined ? row.latitude : plan.set.latitude;
  const lon = plan.set.longitude === undefined ? row.longitude : plan.set.longitude;
  if ((lat === null) !== (lon === null)) throw badRequest("Invalid site", [lat === null ? "longitude needs latitude" : "latitude needs longitude"]);
  if (typeof parent === "string" && parent !== row.parentSiteId) await checkParent(tx, organizationId, parent, row.id);
  if (typeof plan.set.code === "string") await noun.assertFree(tx, organizationId, plan.set.code, row.id);
  return plan;
}

/** PATCH /api/sites/{id}: 404, 412 (If-Match), 400 (parent, coordinates), 409 (code taken). */
export async function patchSite(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchSiteBody, actor: DirectoryActor) {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: noun.spec.unique.taken(input.code ?? ""),
    archived: input.archived,
    plan: (tx, row) => planSitePatch(tx, organizationId, row, input),
  });
}

/**
 * DELETE /api/sites/{id}: only a site nothing refers to. Assigned employees, inspections and sites
 * below it are counted, and any of them is a 409 naming the counts and saying to archive instead.
 */
export async function deleteSite(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
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
    return refs.length ? { why: `it has ${refs.join(", ")}`, details: refs } : null;
  });
}
