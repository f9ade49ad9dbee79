import { randomUUID } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import type postgres from "postgres";
import type { Db } from "@insp/db";
import { inspectionConditions } from "../inspections/list.ts";
import { selectSummaries, type SummaryRow } from "../inspections/summary.ts";
import { mediaStorageKey, type MediaStore } from "../media/store.ts";
import { SUMMARY_HEADERS, answerColumnsOf, columnKey, renderAnswer, summaryCells, type AnswerColumns, type AnswerRow } from "./columns.ts";
import { csvRecord, type Cell } from "./format.ts";
import type { ExportFormat, StoredExportFilter } from "./service.ts";

/** Inspections per page: one keyset query, one summaries query and one answers query each. */
const EXPORT_PAGE_SIZE = 500;

interface Writer {
  add(rows: Cell[][]): Promise<void>;
  /** Finishes the file (flushed and closed). */
  finish(): Promise<void>;
  /** Stops writing (the file is removed by the caller). */
  abort(): void;
}

async function csvWriter(file: string): Promise<Writer> {
  const out: WriteStream = createWriteStream(file, { flags: "wx" });
  await once(out, "open");
  let failed: Error | null = null;
  out.on("error", (err) => (failed = err));
  // A UTF-8 byte order mark, so spreadsheet programs read names with accents as written.
  out.write("\uFEFF");
  return {
    async add(rows) {
      if (failed) throw failed;
      if (!out.write(rows.map(csvRecord).join(""))) await once(out, "drain");
    },
    async finish() {
      if (failed) throw failed;
      out.end();
      await once(out, "finish");
      await new Promise<void>((resolve) => (out.closed ? resolve() : out.once("close", () => resolve())));
    },
    abort: () => out.destroy(),
  };
}

async function xlsxWriter(file: string, headers: string[]): Promise<Writer> {
  // Streaming: each committed row is written to the zip and forgotten; inline strings (no shared
  // string table, which would keep every distinct text in memory until the end).
  // Loaded when an XLSX export runs (a third of a second): not by every process that imports core.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet("Inspections");
  sheet.addRow(headers).commit();
  return {
    async add(rows) {
      for (const r of rows) sheet.addRow(r).commit();
      // Let the zip stream drain between pages.
      await new Promise((resolve) => setImmediate(resolve));
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
    abort: () => {},
  };
}

export interface ExportRunContext {
  db: Db;
  store: MediaStore;
  /** Days are long: hours after finishing until the retention sweep deletes the export. */
  retentionHours: number;
  /** Called after each page (tests and the bench watch progress). */
  onPage?: (rowsWritten: number) => void;
  /** The job's: once aborted (past EXPORT_JOB_TIMEOUT_SECONDS), the run stops at its next page and throws its reason. */
  signal?: AbortSignal;
}

export type ExportRunResult = { outcome: "succeeded"; rowsWritten: number; byteSize: number } | { outcome: "stopped"; reason: string };

interface Claimed {
  format: ExportFormat;
  filter: StoredExportFilter;
  include_answers: boolean;
  attempts: number;
  created_at: string;
}

/**
 * Runs one export (the inspection-export job). Takes the row from QUEUED (or from RUNNING, when
 * a worker died mid-export and BullMQ runs the job again) with attempts + 1, and starts the file
 * over. Reads the filter's inspections oldest first in keyset pages of (created_at, id), writes
 * each page to a local file and records rows_written; every page update is fenced by the run's
 * attempt number and RUNNING, so a cancelled export (or a run superseded by a later one) stops at
 * its next page and removes its file. At the end the file goes into the media store under a key
 * of its own run, and the row becomes SUCCEEDED only if it is still this run's: the API never
 * serves a file before that.
 */
export async function runExport(ctx: ExportRunContext, organizationId: string, exportId: string): Promise<ExportRunResult> {
  const sql = ctx.db.$client;
  const [claimed] = await sql<Claimed[]>`
    update inspection_exports set status = 'RUNNING', started_at = now(), attempts = attempts + 1, rows_written = 0
    where organization_id = ${organizationId} and id = ${exportId} and status in ('QUEUED', 'RUNNING')
    returning format, filter, include_answers, attempts, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as created_at`;
  if (!claimed) {
    await removeSpoolFiles(ctx.store.spoolDir, exportId);
    return { outcome: "stopped", reason: "not queued or running (cancelled, finished or deleted)" };
  }
  const fence = claimed.attempts;
  const filter = claimed.filter ?? {};
  const conds = inspectionConditions(sql, organizationId, filter);
  const answers: AnswerColumns | null = claimed.include_answers && filter.templateId ? await answerColumnsOf(sql, organizationId, filter.templateId) : null;
  const headers = [...SUMMARY_HEADERS, ...(answers?.headers ?? [])];

  await mkdir(ctx.store.spoolDir, { recursive: true });
  // The spool file of an earlier run of this export that died (SIGKILL, a lost machine) goes first.
  await removeSpoolFiles(ctx.store.spoolDir, exportId);
  const file = path.join(ctx.store.spoolDir, `${exportId}.${fence}.export`);
  const writer = claimed.format === "xlsx" ? await xlsxWriter(file, headers) : await csvWriter(file);
  let stored: string | null = null;
  try {
    if (claimed.format === "csv") await writer.add([headers]);
    let rowsWritten = 0;
    let cursor: { at: string; id: string } | null = null;
    const where = conds === null ? null : conds.reduce((a, c) => sql`${a} and ${c}`);
    while (where !== null) {
      ctx.signal?.throwIfAborted();
      const after: postgres.PendingQuery<postgres.Row[]> = cursor ? sql`and (created_at, id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql``;
      const page: { id: string; at: string }[] = await sql<{ id: string; at: string }[]>`
        select id, created_at::text as at from inspections where ${where} ${after} order by created_at, id limit ${EXPORT_PAGE_SIZE}`;
      if (!page.length) break;
      cursor = { at: page.at(-1)!.at, id: page.at(-1)!.id };
      const rows = await pageRows(
        ctx.db,
        organizationId,
        page.map((p) => p.id),
        answers,
      );
      await writer.add(rows);
      rowsWritten += rows.length;
      const [still] = await sql`
        update inspection_exports set rows_written = ${rowsWritten}
        where organization_id = ${organizationId} and id = ${exportId} and status = 'RUNNING' and attempts = ${fence} returning id`;
      if (!still) return await stop(writer, file, "cancelled or superseded");
      ctx.onPage?.(rowsWritten);
      if (page.length < EXPORT_PAGE_SIZE) break;
    }
    ctx.signal?.throwIfAborted();
    await writer.finish();
    const byteSize = (await stat(file)).size;
    stored = mediaStorageKey(organizationId, randomUUID());
    await ctx.store.putFile(stored, file, byteSize);
    const fileName = `inspections-${claimed.created_at}.${claimed.format}`;
    const [done] = await sql`
      update inspection_exports
      set status = 'SUCCEEDED', storage_key = ${stored}, byte_size = ${byteSize}, file_name = ${fileName}, rows_written = ${rowsWritten},
          finished_at = now(), expires_at = now() + make_interval(hours => ${ctx.retentionHours}), error = null
      where organization_id = ${organizationId} and id = ${exportId} and status = 'RUNNING' and attempts = ${fence} returning id`;
    if (!done) {
      await ctx.store.delete([stored]);
      return { outcome: "stopped", reason: "cancelled or superseded" };
    }
    return { outcome: "succeeded", rowsWritten, byteSize };
  } catch (err) {
    writer.abort();
    if (stored) await ctx.store.delete([stored]).catch(() => {});
    throw err;
  } finally {
    await rm(file, { force: true });
  }
}

/** Spool files of this export's runs (`<exportId>.<attempt>.export`): a run that died leaves its own. */
async function removeSpoolFiles(dir: string, exportId: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((f) => f.startsWith(`${exportId}.`) && f.endsWith(".export")).map((f) => rm(path.join(dir, f), { force: true })));
}

async function stop(writer: Writer, file: string, reason: string): Promise<ExportRunResult> {
  writer.abort();
  await rm(file, { force: true });
  return { outcome: "stopped", reason };
}

/** The rows of one page, in the page's order (oldest first), with their answers' columns. */
async function pageRows(db: Db, organizationId: string, ids: string[], answers: AnswerColumns | null): Promise<Cell[][]> {
  const sql = db.$client;
  const summaries = await selectSummaries(sql, organizationId, ids);
  const byId = new Map<string, SummaryRow>(summaries.map((s) => [s.id, s]));
  const cellsOf = new Map<string, Cell[]>();
  for (const id of ids) {
    const s = byId.get(id);
    if (s) cellsOf.set(id, [...summaryCells(s), ...(answers ? new Array<Cell>(answers.headers.length).fill(null) : [])]);
  }
  if (answers && summaries.length) {
    // Each inspection's answers at the revision its summary shows.
    const rows = await sql<(AnswerRow & { revision_from: number; revision_to: number | null })[]>`
      select inspection_id, question_id, answer_text, answer_number, answer_boolean, answer_date, answer_json, template_option_id, response_option_id, unit_id, note, revision_from, revision_to
      from inspection_answers
      where organization_id = ${organizationId} and inspection_id = any(${summaries.map((s) => s.id)}::uuid[])
      order by inspection_id, position`;
    for (const a of rows) {
      const s = byId.get(a.inspection_id)!;
      if (a.revision_from > s.revision || (a.revision_to !== null && a.revision_to <= s.revision)) continue;
      const col = answers.columnOf.get(columnKey(s.template_version, a.question_id));
      if (col === undefined) continue;
      cellsOf.get(a.inspection_id)![SUMMARY_HEADERS.length + col] = renderAnswer(a, s.template_version, answers);
    }
  }
  return ids.filter((id) => cellsOf.has(id)).map((id) => cellsOf.get(id)!);
}
