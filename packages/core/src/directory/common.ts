import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { PG, pgErrorCode, type Tx } from "@insp/db";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError } from "../errors.ts";

/**
 * What sites, groups and roles share over HTTP (docs/organization-administration.md): the change
 * event and audit entry of every write, the stale-ETag and taken-name answers, archiving, and the
 * list filters.
 */

export type DirectoryKind = "site" | "group" | "role" | "response_type" | "asset_type";
export type DirectoryChange = "created" | "updated" | "archived" | "deleted";

/** Who changes the directory: the audit context of the request or of the admin CLI. */
export type DirectoryActor = AuditContext;

/** One change: its event (site.updated, ... for feeds and webhooks) and its audit entry (field names only), in the caller's transaction. */
export async function recordDirectoryChange(
  tx: Tx,
  actor: DirectoryActor,
  e: { organizationId: string; kind: DirectoryKind; id: string; change: DirectoryChange; fields?: string[] },
): Promise<void> {
  await recordChange(tx, { organizationId: e.organizationId, resourceType: e.kind, resourceId: e.id, change: e.change });
  await recordAudit(tx, actor, {
    organizationId: e.organizationId,
    action: `${e.kind}.${e.change}`,
    resourceType: e.kind,
    resourceId: e.id,
    changedFields: e.fields,
  });
}

/** 412: the If-Match revisions (null: `*`) do not name the current one. */
export function assertRevision(kind: DirectoryKind, current: number, expected: number[] | null): void {
  if (expected !== null && !expected.includes(current))
    throw new AppError(
      "stale",
      `The ${kind} has changed since you read it (it is at revision ${current}); GET it again and reapply your change with its new ETag`,
    );
}

/** Runs `fn`; a unique violation it meets (a race the checks before it lost) becomes a 409 with `message`. */
export async function uniqueOr409<T>(fn: () => Promise<T>, message: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw new AppError("conflict", message);
    throw err;
  }
}

/** The columns a PATCH's `archived` sets, or nothing when it does not change it. */
export function archiveSet(archivedAt: Date | null, archived: boolean | undefined): { archivedAt: SQL | null } | null {
  if (archived === undefined || archived === (archivedAt !== null)) return null;
  return { archivedAt: archived ? sql`now()` : null };
}

/** List filters every noun has: name prefix (case-insensitive), changed since, archived ones or not. */
export function commonFilters(
  t: { name: PgColumn; updatedAt: PgColumn; archivedAt: PgColumn },
  q: { namePrefix?: string; updatedSince?: string; includeArchived: boolean },
): SQL[] {
  const conds: SQL[] = [];
  if (q.namePrefix) conds.push(sql`lower(${t.name}) like ${q.namePrefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + "%"}`);
  if (q.updatedSince) conds.push(sql`${t.updatedAt} >= ${new Date(q.updatedSince).toISOString()}::timestamptz`);
  if (!q.includeArchived) conds.push(sql`${t.archivedAt} is null`);
  return conds;
}

export const page = <T>(items: T[], total: number, q: { limit: number; offset: number }) => ({
  items,
  pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + items.length < total },
});

/** "3 assigned employees, 1 site below it": the kinds with a count above 0. */
export const referrers = (counts: [number, string, string][]) => counts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
