import { and, eq } from "drizzle-orm";
import { ERROR_STATUS } from "@insp/contracts/errors";
import { notYetWhileUnreachable, type Db } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { enqueueImport, importSignal, startCountdown, type JobWaiter, type Queues } from "@insp/queue";
import { AppError } from "../errors.ts";
import { claimKey, noteProgress, recordResponse, releaseKey, requestHash, type IdempotencyRef } from "../idempotency.ts";
import { failImport } from "./run.ts";
import { prepareImport, type PrepareServices } from "./prepare.ts";
import type { ImportInput } from "./validate.ts";
import type { AuditContext } from "../audit/index.ts";

export interface SubmitServices extends PrepareServices {
  db: Db;
  queues: Queues;
  waiter: JobWaiter;
  /** IMPORT_WAIT_SECONDS in ms */
  waitMs: number;
}

/**
 * What became of an import request; the route turns it into HTTP (201, 400/404 replayed, 409,
 * 500, 503). `replayed`: answered from an earlier request with the same Idempotency-Key.
 */
export type ImportOutcome =
  | { kind: "imported"; id: string; inspectionNumber: string; replayed: boolean }
  /** An earlier request with this key and body was refused (validation 400, unknown reference 404). */
  | { kind: "refused"; status: number; error: string; details?: string[]; replayed: true }
  /** The worker gave up on it (the error says why). */
  | { kind: "failed"; importId: string; error: string }
  /** Still being processed after IMPORT_WAIT_SECONDS: it keeps going; the same request with the same key collects it. */
  | { kind: "running"; importId: string }
  /** Redis refused the job: nothing was created. */
  | { kind: "queueUnavailable" }
  /** An earlier request with this key is still validating (it has no import yet to wait on). */
  | { kind: "validating" };

/** Idempotency-Key scope of POST /api/inspections (core/idempotency.ts). */
const IMPORT_IDEMPOTENCY_SCOPE = "inspections";
/** Reads the import row: imported or failed; null while it is still pending. */
async function outcomeOf(db: Db, organizationId: string, importId: string): Promise<ImportOutcome | null> {
  const [row] = await db
    .select({ status: inspectionImports.status, result: inspectionImports.result, error: inspectionImports.error })
    .from(inspectionImports)
    .where(and(eq(inspectionImports.organizationId, organizationId), eq(inspectionImports.id, importId)));
  if (!row) throw new Error(`Inspection import ${importId} has disappeared`);
  if (row.status === "DONE") {
    const r = row.result as { id: string; inspectionNumber: string };
    return { kind: "imported", id: r.id, inspectionNumber: r.inspectionNumber, replayed: false };
  }
  if (row.status === "FAILED") return { kind: "failed", importId, error: row.error ?? "unknown error" };
  return null;
}

/**
 * Waits for the worker (the import's countdown wakes us up; Postgres is the truth) at most
 * `waitMs`; past it the import is still running (it keeps going and can be collected with the
 * same Idempotency-Key). Never hangs.
 */
async function awaitImport(svc: SubmitServices, organizationId: string, importId: string): Promise<ImportOutcome> {
  let outcome: ImportOutcome | null = null;
  await svc.waiter.wait({
    id: importSignal(importId),
    timeoutMs: svc.waitMs,
    pollMs: 500,
    isDone: notYetWhileUnreachable(async () => (outcome = await outcomeOf(svc.db, organizationId, importId)) !== null),
  });
  return outcome ?? { kind: "running", importId };
}

async function enqueueAndWait(svc: SubmitServices, organizationId: string, importId: string): Promise<ImportOutcome> {
  try {
    // Subscribed before the countdown starts, so its signal reaches this process; a count of 1,
    // the import's one job, which the worker ticks once the import is DONE or FAILED for good.
    await svc.waiter.prepare();
    await startCountdown(svc.queues, importSignal(importId), 1);
    await enqueueImport(svc.queues, organizationId, importId);
  } catch {
    await failImport(svc.db, organizationId, importId, "the import queue is unavailable");
    return { kind: "queueUnavailable" };
  }
  return awaitImport(svc, organizationId, importId);
}

async function run(svc: SubmitServices, organizationId: string, input: ImportInput, key: IdempotencyRef | null, audit: AuditContext): Promise<ImportOutcome> {
  const importId = await prepareImport(svc, organizationId, input, audit);
  if (key) await noteProgress(svc.db, key, { importId });
  return enqueueAndWait(svc, organizationId, importId);
}

/**
 * POST /api/inspections end to end. With an Idempotency-Key: the same key and body within 24
 * hours answer with the first result (an import and a validation 400/404 are recorded); an
 * earlier request still running is waited for; another body is a 422. A failure or an
 * unavailable queue releases the key so the same request can be retried.
 */
export async function submitImport(svc: SubmitServices, organizationId: string, input: ImportInput, audit: AuditContext, idempotencyKey?: string): Promise<ImportOutcome> {
  if (idempotencyKey === undefined) return run(svc, organizationId, input, null, audit);

  const key: IdempotencyRef = { organizationId, scope: IMPORT_IDEMPOTENCY_SCOPE, key: idempotencyKey };
  const claim = await claimKey(svc.db, key, requestHash(input), { staleMs: svc.waitMs + 5 * 60_000 });
  switch (claim.kind) {
    case "replay":
      return replayed(claim.status, claim.body as Record<string, unknown>);
    case "pending": {
      const importId = (claim.ref as { importId?: unknown } | null)?.importId;
      if (typeof importId !== "string") return { kind: "validating" };
      // Woken by the first request's countdown too: its signal reaches every subscribed process.
      // Without a subscription the wait still ends, at a poll of Postgres.
      await svc.waiter.prepare().catch(() => {});
      return settle(svc, key, await awaitImport(svc, organizationId, importId));
    }
    case "new":
      break;
  }
  let outcome: ImportOutcome;
  try {
    outcome = await run(svc, organizationId, input, key, audit);
  } catch (err) {
    if (err instanceof AppError && (err.kind === "invalid" || err.kind === "not_found")) {
      await recordResponse(svc.db, key, ERROR_STATUS[err.kind], { error: err.message, ...(err.details ? { details: err.details } : {}) });
    } else {
      await releaseKey(svc.db, key).catch(() => {}); // the error thrown below says what went wrong
    }
    throw err;
  }
  return settle(svc, key, outcome);
}

/** Records an import for replay, keeps a still-running one pending, releases the key after a failure. */
async function settle(svc: SubmitServices, key: IdempotencyRef, outcome: ImportOutcome): Promise<ImportOutcome> {
  if (outcome.kind === "imported") await recordResponse(svc.db, key, 201, { id: outcome.id, inspectionNumber: outcome.inspectionNumber });
  else if (outcome.kind === "failed" || outcome.kind === "queueUnavailable") await releaseKey(svc.db, key);
  return outcome;
}

/** A recorded answer: 201 `{id, inspectionNumber}` or a refusal `{error, details?}`. */
function replayed(status: number, body: Record<string, unknown>): ImportOutcome {
  if (status === 201) return { kind: "imported", id: String(body.id), inspectionNumber: String(body.inspectionNumber), replayed: true };
  return { kind: "refused", status, error: String(body.error), ...(Array.isArray(body.details) ? { details: body.details.map(String) } : {}), replayed: true };
}
