import { and, asc, desc, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";
import type { Db } from "@insp/db";
import { inspectionExports as e, templates } from "@insp/db/schema";
import { AppError, badRequest, isUuid, notFound, tooMany } from "../errors.ts";
import type { AuditContext } from "../audit/index.ts";
import type { InspectionFilter } from "../inspections/list.ts";
import type { EXPORT_FORMATS, EXPORT_STATUSES } from "@insp/contracts";

export type ExportFormat = (typeof EXPORT_FORMATS)[number];
type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The filter as stored in inspection_exports.filter (JSON: bbox as its four numbers, dates as ISO text). */
export type StoredExportFilter = InspectionFilter;

export interface ExportView {
  id: string;
  format: ExportFormat;
  status: ExportStatus;
  filter: StoredExportFilter;
  includeAnswers: boolean;
  rowsWritten: number;
  fileName: string | null;
  byteSize: number | null;
  error: string | null;
  createdBy: { type: string; id: string | null };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string | null;
  statusUrl: string;
  downloadUrl: string | null;
}

type Row = typeof e.$inferSelect;

function toExportView(r: Row): ExportView {
  return {
    id: r.id,
    format: r.format as ExportFormat,
    status: r.status as ExportStatus,
    filter: r.filter as StoredExportFilter,
    includeAnswers: r.includeAnswers,
    rowsWritten: r.rowsWritten,
    fileName: r.fileName,
    byteSize: r.status === "SUCCEEDED" ? r.byteSize : null,
    error: r.error,
    createdBy: { type: r.createdByType, id: r.createdById },
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    statusUrl: `/api/exports/${r.id}`,
    downloadUrl: r.status === "SUCCEEDED" ? `/api/exports/${r.id}/download` : null,
  };
}

const exportNotFound = (id: string) => notFound(`Export ${id} not found`);

export interface CreateExportInput {
  format: ExportFormat;
  filter: StoredExportFilter;
  includeAnswers: boolean;
}

/** Seconds a request refused for too many exports in flight is told to wait (Retry-After). */
const EXPORTS_FULL_RETRY_AFTER_SECONDS = 30;

/**
 * A QUEUED export row (the caller enqueues its job after this returns). At most `maxActive`
 * QUEUED or RUNNING exports per organization: past it, 429 (too_many). The count and the insert
 * run under a transaction-scoped advisory lock of the organization, so two requests at once cannot
 * both take the last place.
 */
export async function createExport(db: Db, organizationId: string, actor: AuditContext, input: CreateExportInput, maxActive: number): Promise<ExportView> {
  if (input.includeAnswers && input.filter.templateId === undefined) {
    throw badRequest("includeAnswers needs filter.templateId: the answer columns are the questions of one template");
  }
  if (input.filter.templateId !== undefined) {
    const [t] = isUuid(input.filter.templateId)
      ? await db
          .select({ id: templates.id })
          .from(templates)
          .where(and(eq(templates.organizationId, organizationId), eq(templates.id, input.filter.templateId)))
      : [];
    if (!t) throw badRequest(`filter.templateId ${input.filter.templateId} is not a template of this organization`);
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`exports:${organizationId}`}, 0))`);
    const [{ active } = { active: 0 }] = await tx
      .select({ active: sql<number>`count(*)::int` })
      .from(e)
      .where(and(eq(e.organizationId, organizationId), inArray(e.status, ["QUEUED", "RUNNING"])));
    if (active >= maxActive) {
      throw tooMany(
        `This organization already has ${active} exports queued or running (at most ${maxActive}: EXPORTS_MAX_RUNNING_PER_ORG); wait until one has finished, or cancel one (DELETE /api/exports/{id})`,
        EXPORTS_FULL_RETRY_AFTER_SECONDS,
      );
    }
    const [row] = await tx
      .insert(e)
      .values({
        organizationId,
        format: input.format,
        filter: input.filter,
        includeAnswers: input.includeAnswers,
        createdByType: actor.actorType,
        createdById: actor.actorId,
      })
      .returning();
    return toExportView(row!);
  });
}

async function exportRow(db: Db, organizationId: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw exportNotFound(id);
  const [row] = await db
    .select()
    .from(e)
    .where(and(eq(e.organizationId, organizationId), eq(e.id, id)));
  if (!row) throw exportNotFound(id);
  return row;
}

export async function getExport(db: Db, organizationId: string, id: string): Promise<ExportView> {
  return toExportView(await exportRow(db, organizationId, id));
}

/** What GET /api/exports/{id}/download streams: only a SUCCEEDED export has a file (409 before, 404 once swept). */
export async function exportFile(
  db: Db,
  organizationId: string,
  id: string,
): Promise<{ storageKey: string; fileName: string; format: ExportFormat; byteSize: number }> {
  const row = await exportRow(db, organizationId, id);
  if (row.status !== "SUCCEEDED" || row.storageKey === null) {
    throw new AppError("conflict", `Export ${id} is ${row.status}: only a SUCCEEDED export can be downloaded`);
  }
  return { storageKey: row.storageKey, fileName: row.fileName ?? `${id}.${row.format}`, format: row.format as ExportFormat, byteSize: row.byteSize ?? 0 };
}

export interface ExportListQuery {
  limit: number;
  offset: number;
  status?: ExportStatus;
}

/** The organization's exports, newest first (createdAt, then id). */
export async function listExports(db: Db, organizationId: string, q: ExportListQuery) {
  const where = and(eq(e.organizationId, organizationId), q.status ? eq(e.status, q.status) : undefined);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db.select().from(e).where(where).orderBy(desc(e.createdAt), desc(e.id)).limit(q.limit).offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(e)
      .where(where),
  ]);
  return { exports: rows.map(toExportView), pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + rows.length < total } };
}

/**
 * DELETE /api/exports/{id}: a QUEUED or RUNNING export becomes CANCELLED (its job stops at its next
 * page and removes what it wrote). Cancelling a CANCELLED export again answers it as it is; a
 * finished one (SUCCEEDED or FAILED) is a 409.
 */
export async function cancelExport(db: Db, organizationId: string, id: string): Promise<ExportView> {
  const row = await exportRow(db, organizationId, id);
  const [updated] = await db
    .update(e)
    .set({ status: "CANCELLED", finishedAt: sql`now()`, error: null })
    .where(and(eq(e.organizationId, organizationId), eq(e.id, row.id), inArray(e.status, ["QUEUED", "RUNNING"])))
    .returning();
  if (updated) return toExportView(updated);
  const now = await exportRow(db, organizationId, id);
  if (now.status === "CANCELLED") return toExportView(now);
  throw new AppError("conflict", `Export ${id} is ${now.status}: only a QUEUED or RUNNING export can be cancelled`);
}

/**
 * Retention: exports that finished (SUCCEEDED, FAILED, CANCELLED) more than `hours` ago lose their
 * file, then their row, a batch at a time. The file goes first: a run that dies in between
 * leaves the row, and the next run deletes the file again (a missing key is not an error).
 */
export async function deleteExpiredExports(db: Db, store: { delete(keys: string[]): Promise<void> }, hours: number, batch = 200): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db
      .select({ id: e.id, organizationId: e.organizationId, storageKey: e.storageKey })
      .from(e)
      .where(and(inArray(e.status, ["SUCCEEDED", "FAILED", "CANCELLED"]), lt(e.finishedAt, sql`now() - make_interval(hours => ${hours})`)))
      .limit(batch);
    if (!rows.length) return deleted;
    const keys = rows.map((r) => r.storageKey).filter((k): k is string => k !== null);
    if (keys.length) await store.delete(keys);
    await db.delete(e).where(or(...rows.map((r) => and(eq(e.organizationId, r.organizationId), eq(e.id, r.id)))));
    deleted += rows.length;
    if (rows.length < batch) return deleted;
  }
}

/**
 * Exports QUEUED or RUNNING for more than `olderThanMs` whose job is gone (the API died between the
 * row and the enqueue, Redis lost the job) or failed without recording it: queued again under the
 * same job id (a live job is left alone). The job starts the file over.
 */
export async function requeueStalledExports(db: Db, queues: Queues, olderThanMs: number, page = 1000): Promise<number> {
  return requeuePaged(
    queues,
    "inspection-export",
    (after) =>
      db
        .select({ id: e.id, organizationId: e.organizationId })
        .from(e)
        .where(
          and(
            inArray(e.status, ["QUEUED", "RUNNING"]),
            sql`${e.createdAt} <= now() - ${olderThanMs} * interval '1 millisecond'`,
            after ? gt(e.id, after) : undefined,
          ),
        )
        .orderBy(asc(e.id))
        .limit(page),
    (x) => ({ jobId: jobIds.export(x.id), data: { organizationId: x.organizationId, exportId: x.id } }),
    page,
  );
}
