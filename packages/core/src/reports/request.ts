import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { notYetWhileUnreachable, type Db } from "@insp/db";
import { inspectionReports, inspections } from "@insp/db/schema";
import { enqueueReport, jobIds, reportSignal, startCountdown, type JobWaiter, type Queues } from "@insp/queue";
import { isUuid, notFound, tooMany } from "../errors.ts";
import { detailValidator, getInspectionDetail, type InspectionDetail } from "../inspections/detail.ts";

type ReportStatus = "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED";

/** One row of inspection_reports as the API shows it. */
export interface ReportView {
  id: string;
  inspectionId: string;
  cacheKey: string;
  status: ReportStatus;
  /** Set once SUCCEEDED. */
  storageKey: string | null;
  byteSize: number | null;
  pages: number | null;
  /** Why it could not be rendered (FAILED), in a sentence safe to show. */
  error: string | null;
  attempts: number;
  createdAt: string;
  finishedAt: string | null;
}

const columns = {
  id: inspectionReports.id,
  inspectionId: inspectionReports.inspectionId,
  cacheKey: inspectionReports.cacheKey,
  status: inspectionReports.status,
  storageKey: inspectionReports.storageKey,
  byteSize: inspectionReports.byteSize,
  pages: inspectionReports.pages,
  error: inspectionReports.error,
  attempts: inspectionReports.attempts,
  createdAt: inspectionReports.createdAt,
  finishedAt: inspectionReports.finishedAt,
};

type Row = { [K in keyof typeof columns]: unknown };
const toView = (r: Row): ReportView => ({
  id: r.id as string,
  inspectionId: r.inspectionId as string,
  cacheKey: r.cacheKey as string,
  status: r.status as ReportStatus,
  storageKey: r.storageKey as string | null,
  byteSize: r.byteSize as number | null,
  pages: r.pages as number | null,
  error: r.error as string | null,
  attempts: r.attempts as number,
  createdAt: (r.createdAt as Date).toISOString(),
  finishedAt: (r.finishedAt as Date | null)?.toISOString() ?? null,
});

/** The review state an inspection is in (RECEIVED until someone reviews it); printed on its report. */
export async function reviewStateOf(db: Db, organizationId: string, inspectionId: string): Promise<string> {
  const [row] = await db
    .select({ reviewState: inspections.reviewState })
    .from(inspections)
    .where(and(eq(inspections.organizationId, organizationId), eq(inspections.id, inspectionId)));
  if (!row) throw notFound(`Inspection ${inspectionId} not found`);
  return row.reviewState;
}

/**
 * The cache key of a report of `detail`: `r<revision>-<fingerprint>`, where the fingerprint
 * covers what the detail's ETag covers (template, site, asset and inspector names, corrective
 * actions) and the review state. An unchanged inspection keeps its key; any change makes a new one.
 */
async function reportCacheKey(db: Db, organizationId: string, detail: InspectionDetail): Promise<string> {
  const v = await detailValidator(db, organizationId, detail);
  const reviewState = await reviewStateOf(db, organizationId, detail.id);
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([v.fingerprint, reviewState]))
    .digest("hex")
    .slice(0, 12);
  return `r${v.revision}-${fingerprint}`;
}

/** The revision a cache key was made for. */
export const revisionOfCacheKey = (cacheKey: string): number => Number(/^r(\d+)-/.exec(cacheKey)?.[1] ?? NaN);

/** GET /api/reports/{id}: one report of the caller's organization; another organization's or an unknown id is a 404. */
export async function getReport(db: Db, organizationId: string, reportId: string): Promise<ReportView> {
  if (!isUuid(reportId)) throw notFound(`Report ${reportId} not found`);
  const [row] = await db
    .select(columns)
    .from(inspectionReports)
    .where(and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.id, reportId)));
  if (!row) throw notFound(`Report ${reportId} not found`);
  return toView(row);
}

async function reportByKey(db: Db, organizationId: string, inspectionId: string, cacheKey: string): Promise<ReportView | null> {
  const [row] = await db
    .select(columns)
    .from(inspectionReports)
    .where(
      and(eq(inspectionReports.organizationId, organizationId), eq(inspectionReports.inspectionId, inspectionId), eq(inspectionReports.cacheKey, cacheKey)),
    );
  return row ? toView(row) : null;
}

export interface ReportServices {
  db: Db;
  queues: Queues;
  waiter: JobWaiter;
  /** REPORT_WAIT_SECONDS in ms */
  waitMs: number;
  /** REPORTS_MAX_RENDERING_PER_ORG: reports QUEUED or RUNNING at once; unset: no limit. */
  maxRendering?: number;
}

/** Seconds a request refused for too many reports in flight is told to wait (Retry-After): a report renders in seconds. */
const RENDERING_FULL_RETRY_AFTER_SECONDS = 5;

/**
 * A QUEUED row for this cache key, unless the organization already has `max` reports QUEUED or
 * RUNNING (429 with Retry-After). The check and the insert run under a transaction-scoped advisory
 * lock of the organization, so two requests at once cannot both take the last place; a row another
 * request made for the same key meanwhile is simply found (no new work). A row QUEUED or RUNNING
 * for over an hour (its job lost, its rendering never settled: three attempts of at most
 * REPORT_JOB_TIMEOUT_SECONDS are a quarter of an hour) no longer counts, so stuck rows cannot shut
 * an organization out of reports for good.
 */
async function insertReport(db: Db, organizationId: string, inspectionId: string, cacheKey: string, max: number | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    if (max !== undefined) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reports:${organizationId}`}, 0))`);
      const [row] = await tx.execute<{ mine: boolean; active: number }>(sql`
        select exists (select 1 from inspection_reports where organization_id = ${organizationId} and inspection_id = ${inspectionId} and cache_key = ${cacheKey}) as mine,
          (select count(*)::int from inspection_reports where organization_id = ${organizationId} and status in ('QUEUED', 'RUNNING') and created_at > now() - interval '1 hour') as active`);
      if (row?.mine) return;
      const active = Number(row?.active ?? 0);
      if (active >= max) {
        throw tooMany(
          `This organization already has ${active} reports being rendered (at most ${max}: REPORTS_MAX_RENDERING_PER_ORG); ask again in a few seconds`,
          RENDERING_FULL_RETRY_AFTER_SECONDS,
        );
      }
    }
    await tx.insert(inspectionReports).values({ organizationId, inspectionId, cacheKey }).onConflictDoNothing();
  });
}

/** What became of a report request; the route turns it into HTTP (200 with the PDF, 202, 422, 503). */
export type ReportOutcome =
  | { kind: "ready"; report: ReportView; detail: InspectionDetail }
  | { kind: "failed"; report: ReportView; detail: InspectionDetail }
  /** Still queued or rendering after REPORT_WAIT_SECONDS: it goes on; GET /api/reports/{id} follows it. */
  | { kind: "pending"; report: ReportView; detail: InspectionDetail }
  /** Redis refused the job; the row stays QUEUED and the next request enqueues it again. */
  | { kind: "queueUnavailable"; report: ReportView; detail: InspectionDetail };

const settled = (r: ReportView) => r.status === "SUCCEEDED" || r.status === "FAILED";

/**
 * GET /api/inspections/{id}/report.pdf: the report of the inspection as it is now. One row per
 * cache key (concurrent requests insert the same one and share its job; a new one past
 * REPORTS_MAX_RENDERING_PER_ORG is refused, insertReport); a finished one is answered at once,
 * otherwise the job is (re)enqueued, which collapses into a job that still exists, and waited for
 * at most `waitMs`.
 */
export async function requestReport(svc: ReportServices, organizationId: string, inspectionId: string): Promise<ReportOutcome> {
  const detail = await getInspectionDetail(svc.db, organizationId, inspectionId, { images: "url" });
  const cacheKey = await reportCacheKey(svc.db, organizationId, detail);
  let report = await reportByKey(svc.db, organizationId, inspectionId, cacheKey);
  if (!report) {
    await insertReport(svc.db, organizationId, inspectionId, cacheKey, svc.maxRendering);
    report = await reportByKey(svc.db, organizationId, inspectionId, cacheKey);
    if (!report) throw new Error(`Report of inspection ${inspectionId} (${cacheKey}) has disappeared`);
  }
  if (report.status === "SUCCEEDED") return { kind: "ready", report, detail };
  if (report.status === "FAILED") return { kind: "failed", report, detail };
  const reportId = report.id;
  try {
    // Subscribed before the countdown starts, so its signal reaches this process; a count of 1,
    // the report's one job, which the worker ticks once the row is SUCCEEDED or FAILED for good.
    await svc.waiter.prepare();
    await startCountdown(svc.queues, reportSignal(reportId), 1);
    // A job that ended without settling its row (its worker died past maxStalledCount, or Postgres
    // was away when it gave up) still holds the job id, and adding it again would be ignored.
    const ended = await svc.queues.queue("inspection-report").getJob(jobIds.report(reportId));
    if (ended && ((await ended.isFailed()) || (await ended.isCompleted()))) await ended.remove();
    await enqueueReport(svc.queues, organizationId, reportId);
  } catch {
    return { kind: "queueUnavailable", report, detail };
  }
  let latest = report;
  await svc.waiter.wait({
    id: reportSignal(reportId),
    timeoutMs: svc.waitMs,
    pollMs: 500,
    isDone: notYetWhileUnreachable(async () => settled((latest = await getReport(svc.db, organizationId, reportId)))),
  });
  if (latest.status === "SUCCEEDED") return { kind: "ready", report: latest, detail };
  if (latest.status === "FAILED") return { kind: "failed", report: latest, detail };
  return { kind: "pending", report: latest, detail };
}

/** The file name a report is downloaded as: `INS-000042-forklift-check.pdf`. */
export function reportFileName(detail: Pick<InspectionDetail, "inspectionNumber" | "template">): string {
  const slug = detail.template.title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  const number = detail.inspectionNumber.replace(/[^A-Za-z0-9-]/g, "");
  return `${number}${slug ? `-${slug}` : ""}.pdf`;
}
