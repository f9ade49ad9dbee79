import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Db } from "@insp/db";
import { inspectionReports } from "@insp/db/schema";
import { AppError } from "../errors.ts";
import { MediaMissing, type MediaStore } from "../media/store.ts";

const nextAttempt = sql`${inspectionReports.attempts} + 1`;

/** The report row a worker renders: null when there is nothing to do (finished meanwhile, or deleted). */
export async function startReport(
  db: Db,
  organizationId: string,
  reportId: string,
): Promise<{ inspectionId: string; cacheKey: string; attempts: number } | null> {
  const [row] = await db
    .update(inspectionReports)
    .set({ status: "RUNNING", attempts: nextAttempt })
    .where(
      and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.id, reportId), inArray(inspectionReports.status, ["QUEUED", "RUNNING"])),
    )
    .returning({ inspectionId: inspectionReports.inspectionId, cacheKey: inspectionReports.cacheKey, attempts: inspectionReports.attempts });
  return row ?? null;
}

/**
 * Records a rendered report, then deletes the older finished reports of the same inspection
 * (their rows, then their files). False when the row is gone (its inspection was deleted): the
 * caller deletes the file it stored.
 */
export async function finishReport(
  db: Db,
  store: MediaStore,
  organizationId: string,
  reportId: string,
  file: { storageKey: string; byteSize: number; pages: number },
): Promise<boolean> {
  const [row] = await db
    .update(inspectionReports)
    .set({ status: "SUCCEEDED", storageKey: file.storageKey, byteSize: file.byteSize, pages: file.pages, error: null, finishedAt: new Date() })
    .where(and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.id, reportId)))
    .returning({ inspectionId: inspectionReports.inspectionId, createdAt: inspectionReports.createdAt });
  if (!row) return false;
  const older = await db
    .delete(inspectionReports)
    .where(
      and(
        eq(inspectionReports.organizationId, organizationId),
        eq(inspectionReports.inspectionId, row.inspectionId),
        ne(inspectionReports.id, reportId),
        lt(inspectionReports.createdAt, row.createdAt),
        inArray(inspectionReports.status, ["SUCCEEDED", "FAILED"]),
      ),
    )
    .returning({ storageKey: inspectionReports.storageKey });
  const keys = older.flatMap((o) => (o.storageKey ? [o.storageKey] : []));
  if (keys.length) await store.delete(keys);
  return true;
}

/** Records why a report could not be rendered (a sentence safe to show its requester). */
export async function failReport(db: Db, organizationId: string, reportId: string, message: string): Promise<void> {
  await db
    .update(inspectionReports)
    .set({ status: "FAILED", error: message, finishedAt: new Date() })
    .where(and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.id, reportId)));
}

/** A failure of rendering that another attempt cannot mend, with the sentence shown for it. */
export class PermanentReportError extends Error {}

/** Whether a rendering failure is worth another attempt, and the safe sentence recorded when it is not (or no attempt is left). */
export function classifyReportFailure(err: unknown): { permanent: boolean; message: string } {
  if (err instanceof PermanentReportError) return { permanent: true, message: err.message };
  if (err instanceof MediaMissing) return { permanent: true, message: "an image of the inspection is missing from the media store" };
  if (err instanceof AppError && err.kind === "not_found") return { permanent: true, message: "the inspection no longer exists" };
  return { permanent: false, message: "the PDF could not be rendered (an internal error; it was logged)" };
}

/** Forgets a report whose stored file is missing, so the next request renders it again. */
export async function forgetReport(db: Db, organizationId: string, reportId: string): Promise<void> {
  await db.delete(inspectionReports).where(and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.id, reportId)));
}
