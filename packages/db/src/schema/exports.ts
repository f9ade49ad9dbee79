import { sql } from "drizzle-orm";
import { boolean, bigint, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, orgId, ts } from "./columns.ts";

/**
 * CSV and XLSX exports of inspections (docs/exports.md): one row per request, made by one
 * inspection-export job. QUEUED -> RUNNING -> SUCCEEDED | FAILED, or CANCELLED from QUEUED or
 * RUNNING. The file lives in the media store under `storage_key`, set only with SUCCEEDED.
 */
export const inspectionExports = pgTable(
  "inspection_exports",
  {
    id: id(),
    organizationId: orgId(),
    /** csv, xlsx */
    format: text("format").notNull(),
    /** The list's filters as sent (docs/exports.md). */
    filter: jsonb("filter").notNull().default({}),
    includeAnswers: boolean("include_answers").notNull().default(false),
    /** QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED */
    status: text("status").notNull().default("QUEUED"),
    rowsWritten: integer("rows_written").notNull().default(0),
    storageKey: text("storage_key"),
    byteSize: bigint("byte_size", { mode: "number" }),
    fileName: text("file_name"),
    error: text("error"),
    /** Who asked for it: api_key, user, ... and its id (the audit log's actor). */
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id"),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    /** finished_at + EXPORT_RETENTION_HOURS, as the worker that finished it saw it. */
    expiresAt: ts("expires_at"),
    /** Runs started (a worker that died mid-export starts it over). */
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    index("inspection_exports_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    // The per-organization limit counts QUEUED and RUNNING exports.
    index("inspection_exports_org_active_idx")
      .on(t.organizationId, t.status)
      .where(sql`status in ('QUEUED', 'RUNNING')`),
    // The retention sweep reads finished exports by age, across organizations.
    index("inspection_exports_org_finished_idx").on(t.organizationId, t.finishedAt),
  ],
);
