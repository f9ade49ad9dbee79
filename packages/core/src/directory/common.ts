import { and, asc, count, eq, inArray, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { PG, pgErrorCode, type Db, type DbOrTx, type Tx } from "@insp/db";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, isUuid, notFound } from "../errors.ts";
import { assertRoom, type RowQuota } from "../quota.ts";

/**
 * What the directory's nouns share over HTTP (docs/organization-administration.md): the change
 * event and audit entry of every write, the stale-ETag and taken-name answers, archiving, the
 * list filters, and directoryNoun, the table-driven get/list/create/PATCH/DELETE each noun is built on.
 */

export type DirectoryKind = "site" | "group" | "role" | "response_type" | "asset_type" | "asset";
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
function assertRevision(kind: DirectoryKind, current: number, expected: number[] | null): void {
  if (expected !== null && !expected.includes(current))
    throw new AppError(
      "stale",
      `The ${kind} has changed since you read it (it is at revision ${current}); GET it again and reapply your change with its new ETag`,
    );
}

/** Runs `fn`; a unique violation it meets (a race the checks before it lost) becomes a 409 with `message`. */
async function uniqueOr409<T>(fn: () => Promise<T>, message: string): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw new AppError("conflict", message);
    throw err;
  }
}

/** The columns a PATCH's `archived` sets, or nothing when it does not change it. */
function archiveSet(archivedAt: Date | null, archived: boolean | undefined): { archivedAt: SQL | null } | null {
  if (archived === undefined || archived === (archivedAt !== null)) return null;
  return { archivedAt: archived ? sql`now()` : null };
}

/** List filters every noun has: name prefix (case-insensitive), changed since, archived ones or not. */
function commonFilters(
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

/** The columns every directory table has (packages/db/src/schema/directory.ts). */
type NounTable = PgTable & { id: PgColumn; organizationId: PgColumn; updatedAt: PgColumn; archivedAt: PgColumn; revision: PgColumn; name: PgColumn };
type NounRow = { id: string; revision: number; archivedAt: Date | null };

/** What makes one noun: its table, its names in events and messages, its unique column and its views. */
export interface NounSpec<Row extends NounRow, View> {
  table: NounTable;
  kind: DirectoryKind;
  /** "Site", "Response type": starts the 404 and delete-refused messages. */
  label: string;
  /** "sites": the path of the PATCH a refused delete points to. */
  path: string;
  /** The column no two rows of an organization share (sites: code; the others: name) and the 409 saying it is taken. */
  unique: { column: PgColumn; taken: (value: string) => string };
  /** What a refused delete calls the row (its code or name). */
  display: (row: Row) => string;
  /** The views of some rows (with their counts, options, ...). */
  views: (db: DbOrTx, organizationId: string, rows: Row[]) => Promise<View[]>;
}

/** A change a PATCH plans: the columns it sets and their names for the audit. */
export type PatchPlan = { set: Record<string, unknown>; fields: string[] };

/** A noun's reads: the by-ids loader of feeds and webhooks, get with 404, the paged list, the unique-column check, the locked row. */
function nounReads<Row extends NounRow, View>(spec: NounSpec<Row, View>) {
  const t = spec.table;
  const missing = (id: string) => notFound(`${spec.label} ${id} not found`);
  const mine = (organizationId: string, id: string) => and(eq(t.organizationId, organizationId), eq(t.id, id));

  async function byIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<View[]> {
    const valid = ids.filter(isUuid);
    if (!valid.length) return [];
    const rows = await db
      .select()
      .from(t)
      .where(and(eq(t.organizationId, organizationId), inArray(t.id, valid)));
    return spec.views(db, organizationId, rows as unknown as Row[]);
  }

  async function get(db: DbOrTx, organizationId: string, id: string): Promise<View> {
    const [view] = await byIds(db, organizationId, [id]);
    if (!view) throw missing(id);
    return view;
  }

  /** One page, ordered by `order` then id, with the common filters and the noun's own (`extra`). */
  async function list(db: DbOrTx, organizationId: string, q: ListQuery, order: PgColumn, extra: SQL[] = []) {
    const where = and(eq(t.organizationId, organizationId), ...commonFilters(t, q), ...extra);
    const rows = await db.select().from(t).where(where).orderBy(asc(order), asc(t.id)).limit(q.limit).offset(q.offset);
    const [{ n }] = (await db.select({ n: count() }).from(t).where(where)) as [{ n: number }];
    return page(await spec.views(db, organizationId, rows as unknown as Row[]), Number(n), q);
  }

  /** 409 when another row of the organization (not `except`) has `value` in the unique column. */
  async function assertFree(tx: Tx, organizationId: string, value: string, except?: string): Promise<void> {
    const conds = [eq(t.organizationId, organizationId), eq(spec.unique.column, value)];
    if (except) conds.push(ne(t.id, except));
    const [taken] = await tx
      .select({ id: t.id })
      .from(t)
      .where(and(...conds));
    if (taken) throw new AppError("conflict", spec.unique.taken(value));
  }

  /** A PATCH plan that starts with the unique column (`field`, its name in the body, the row and the audit) when `value` changes it: 409 when taken. */
  async function planUnique(tx: Tx, organizationId: string, row: Row, field: string, value: string | undefined): Promise<PatchPlan> {
    const plan: PatchPlan = { set: {}, fields: [] };
    if (value !== undefined && value !== (row as Record<string, unknown>)[field]) {
      await assertFree(tx, organizationId, value, row.id);
      plan.fields.push(field);
      plan.set[field] = value;
    }
    return plan;
  }

  /** The row, locked for the rest of the transaction; 404 when it is not the organization's. */
  async function lock(tx: Tx, organizationId: string, id: string): Promise<Row> {
    const [row] = await tx.select().from(t).where(mine(organizationId, id)).for("update");
    if (!row) throw missing(id);
    return row as unknown as Row;
  }

  return { spec, missing, mine, byIds, get, list, assertFree, planUnique, lock };
}

/**
 * The shapes every directory noun shares (sites, groups, roles, response and asset types): its
 * reads (nounReads), and create, PATCH and DELETE with their 404, 412 and 409 answers, events and
 * audit entries. Each noun's file keeps only what is its own (site parents, role holders, group
 * members, options, ...).
 */
export function directoryNoun<Row extends NounRow, View>(spec: NounSpec<Row, View>) {
  const r = nounReads(spec);
  const t = spec.table;

  /**
   * POST and the admin CLI's create-…: `insert` writes the row (after its own checks) in the
   * transaction that checks `unique` is free and records the change. 409 when it is taken (`taken`:
   * the message of a lost race, when the noun's own checks cover more than the unique column).
   * `max`: DIRECTORY_MAX_PER_ORG, rows of this noun (archived ones too) the organization may
   * have; one more is a 409 (undefined: the admin CLI, not limited).
   */
  async function create(
    db: Db | Tx,
    organizationId: string,
    actor: DirectoryActor,
    c: { unique: string; taken?: string; max: number | undefined; before?: (tx: Tx) => Promise<void>; insert: (tx: Tx) => Promise<Row> },
  ): Promise<View> {
    return uniqueOr409(
      () =>
        db.transaction(async (tx) => {
          await assertRoom(tx, organizationId, directoryQuota(spec.path, tx.select({ n: count() }).from(t).where(eq(t.organizationId, organizationId)), c.max));
          await c.before?.(tx);
          await r.assertFree(tx, organizationId, c.unique);
          const row = await c.insert(tx);
          await recordDirectoryChange(tx, actor, { organizationId, kind: spec.kind, id: row.id, change: "created" });
          return (await spec.views(tx, organizationId, [row]))[0]!;
        }),
      c.taken ?? spec.unique.taken(c.unique),
    );
  }

  /**
   * PATCH with If-Match (`expected`; null: `*`): 404, 412, then the noun's `plan` (its checks and
   * columns) and `archived`; nothing changes when nothing differs. 409 (`taken`) on a unique race.
   */
  async function patch(
    db: Db,
    organizationId: string,
    id: string,
    expected: number[] | null,
    actor: DirectoryActor,
    p: { taken: string; archived: boolean | undefined; plan: (tx: Tx, row: Row) => Promise<PatchPlan> },
  ): Promise<View> {
    if (!isUuid(id)) throw r.missing(id);
    await uniqueOr409(
      () =>
        db.transaction(async (tx) => {
          const row = await r.lock(tx, organizationId, id);
          assertRevision(spec.kind, row.revision, expected);
          const { set, fields } = await p.plan(tx, row);
          const archive = archiveSet(row.archivedAt, p.archived);
          if (archive) {
            fields.push("archived");
            Object.assign(set, archive);
          }
          if (!fields.length) return;
          await tx
            .update(t)
            .set({ ...set, revision: row.revision + 1 } as never)
            .where(eq(t.id, id));
          const change = archive && p.archived ? "archived" : "updated";
          await recordDirectoryChange(tx, actor, { organizationId, kind: spec.kind, id, change, fields });
        }),
      p.taken,
    );
    return r.get(db, organizationId, id);
  }

  /**
   * DELETE: only a row nothing refers to. `blockers` says what refers to it (`why`, and the
   * details listing each kind); any is a 409 saying to archive it instead.
   */
  async function remove(
    db: Db,
    organizationId: string,
    id: string,
    actor: DirectoryActor,
    blockers: (tx: Tx, row: Row) => Promise<{ why: string; details: string[] } | null>,
  ): Promise<void> {
    if (!isUuid(id)) throw r.missing(id);
    await db.transaction(async (tx) => {
      const row = await r.lock(tx, organizationId, id);
      const b = await blockers(tx, row);
      if (b)
        throw new AppError(
          "conflict",
          `${spec.label} '${spec.display(row)}' cannot be deleted: ${b.why}. Archive it instead (PATCH /api/${spec.path}/${id} with {"archived": true})`,
          b.details,
        );
      await tx.delete(t).where(r.mine(organizationId, id));
      await recordDirectoryChange(tx, actor, { organizationId, kind: spec.kind, id, change: "deleted" });
    });
  }

  return { ...r, create, patch, remove };
}

/** The words and lock of one directory noun's quota (`path`: "sites", "response-types"), shared with SCIM's groups. */
export const directoryQuotaOf = (path: string) => ({
  key: `directory:${path}`,
  what: path.replace(/-/g, " "),
  setting: "DIRECTORY_MAX_PER_ORG",
  room: `delete unused ones first (DELETE /api/${path}/{id}); archived ones count too, and one still in use can only be archived, so past that ask the operator to raise the setting`,
});

const directoryQuota = (path: string, count: SQLWrapper, max: number | undefined): RowQuota => ({ ...directoryQuotaOf(path), count, max });

type ListQuery = { namePrefix?: string; updatedSince?: string; includeArchived: boolean; limit: number; offset: number };

/** The columns of `input` (among `keys`) that differ from `row`, for a PATCH's plan. */
export function changedColumns<K extends string>(row: Record<K, unknown>, input: Partial<Record<K, unknown>>, keys: readonly K[]): PatchPlan {
  const plan: PatchPlan = { set: {}, fields: [] };
  for (const key of keys) {
    const v = input[key];
    if (v === undefined || v === row[key]) continue;
    plan.fields.push(key);
    plan.set[key] = v;
  }
  return plan;
}

/** The count of each of `ids` in a grouped query's rows. */
export const countsById = (rows: { id: string | null; n: number | string }[]) => new Map(rows.map((r) => [r.id!, Number(r.n)]));

type Counter = (db: DbOrTx, organizationId: string, ids: string[]) => Promise<Map<string, number>>;

/** Rows of `t` (a table with organization_id) per value of `column` among `ids`: a role's holders, a group's members. */
export const counterOf =
  (t: PgTable & { organizationId: PgColumn }, column: PgColumn): Counter =>
  async (db, organizationId, ids) => {
    if (!ids.length) return new Map();
    return countsById(
      (await db
        .select({ id: column, n: count() })
        .from(t)
        .where(and(eq(t.organizationId, organizationId), inArray(column, ids)))
        .groupBy(column)) as { id: string; n: number }[],
    );
  };

/** A noun's `views` when its view is the row and one count (a role's holders, a group's members). */
export const countedViews =
  <Row extends { id: string }, View>(counter: Counter, toView: (row: Row, n: number) => View) =>
  async (db: DbOrTx, organizationId: string, rows: Row[]): Promise<View[]> => {
    const counts = await counter(
      db,
      organizationId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toView(r, counts.get(r.id) ?? 0));
  };

/** A delete's blocker when one kind refers to the row: `n` of it, worded `one` or `many` ("2 employees hold it"). */
export const blockedBy = (n: number, one: string, many: string) => {
  if (n === 0) return null;
  const who = `${n} ${n === 1 ? one : many}`;
  return { why: who, details: [who] };
};
