import { and, eq } from "drizzle-orm";
import { notYetWhileUnreachable, type Db } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { enqueueImport, jobIds, type JobWaiter, type Queues } from "@insp/queue";
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

export interface HttpOutcome {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Idempotency-Key scope of POST /api/inspections (core/idempotency.ts). */
export const IMPORT_IDEMPOTENCY_SCOPE = "inspections";
const RETRY_AFTER_SECONDS = 5;

/** Reads the import row and shapes what the client gets; null while it is still pending. */
async function outcomeOf(db: Db, organizationId: string, importId: string): Promise<HttpOutcome | null> {
  const [row] = await db
    .select({ status: inspectionImports.status, result: inspectionImports.result, error: inspectionImports.error })
    .from(inspectionImports)
    .where(and(eq(inspectionImports.organizationId, organizationId), eq(inspectionImports.id, importId)));
  if (!row) return { status: 500, body: { error: `Inspection import ${importId} has disappeared` } };
  if (row.status === "DONE") {
    const r = row.result as { id: string; inspectionNumber: string };
    return { status: 201, body: { id: r.id, inspectionNumber: r.inspectionNumber, message: `Inspection ${r.inspectionNumber} imported` } };
  }
  if (row.status === "FAILED") return { status: 500, body: { error: `Inspection import ${importId} failed: ${row.error ?? "unknown error"}`, importId } };
  return null;
}

/**
 * Waits for the worker (events wake us up; Postgres is the truth) at most `waitMs`.
 * Past it: 503 naming the import, which keeps going and can be collected with the same
 * Idempotency-Key. Never hangs.
 */
export async function awaitImport(svc: SubmitServices, organizationId: string, importId: string): Promise<HttpOutcome> {
  let outcome: HttpOutcome | null = null;
  await svc.waiter.wait({
    jobIds: [jobIds.import(importId)],
    timeoutMs: svc.waitMs,
    pollMs: 500,
    isDone: notYetWhileUnreachable(async () => (outcome = await outcomeOf(svc.db, organizationId, importId)) !== null),
  });
  return (
    outcome ?? {
      status: 503,
      body: {
        error: `Inspection import ${importId} is still being processed; send the same request with the same Idempotency-Key again to get its result`,
        importId,
      },
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    }
  );
}

async function enqueueAndWait(svc: SubmitServices, organizationId: string, importId: string): Promise<HttpOutcome> {
  try {
    await svc.waiter.prepare("inspection-import"); // subscribe before enqueueing so no event is missed
    await enqueueImport(svc.queues, organizationId, importId);
  } catch {
    await failImport(svc.db, organizationId, importId, "the import queue is unavailable");
    return { status: 503, body: { error: "The import queue is unavailable; nothing was created, retry later" }, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } };
  }
  return awaitImport(svc, organizationId, importId);
}

async function run(svc: SubmitServices, organizationId: string, input: ImportInput, key: IdempotencyRef | null, audit: AuditContext): Promise<HttpOutcome> {
  const importId = await prepareImport(svc, organizationId, input, audit);
  if (key) await noteProgress(svc.db, key, { importId });
  return enqueueAndWait(svc, organizationId, importId);
}

/**
 * POST /api/inspections end to end. With an Idempotency-Key: the same key and body within 24
 * hours answer with the first result (201 and validation 400/404 are recorded); an earlier
 * request still running is waited for; another body is a 422. A server-side failure (500) or an
 * unavailable queue releases the key so the same request can be retried.
 */
export async function submitImport(svc: SubmitServices, organizationId: string, input: ImportInput, audit: AuditContext, idempotencyKey?: string): Promise<HttpOutcome> {
  if (idempotencyKey === undefined) return run(svc, organizationId, input, null, audit);

  const key: IdempotencyRef = { organizationId, scope: IMPORT_IDEMPOTENCY_SCOPE, key: idempotencyKey };
  const claim = await claimKey(svc.db, key, requestHash(input), { staleMs: svc.waitMs + 5 * 60_000 });
  switch (claim.kind) {
    case "mismatch":
      return { status: 422, body: { error: "Idempotency-Key was already used with a different request body" } };
    case "replay":
      return { status: claim.status, body: claim.body as Record<string, unknown>, headers: { "Idempotent-Replayed": "true" } };
    case "pending": {
      const importId = (claim.ref as { importId?: unknown } | null)?.importId;
      if (typeof importId !== "string") {
        return { status: 409, body: { error: "A request with this Idempotency-Key is still being validated; retry shortly" }, headers: { "Retry-After": "1" } };
      }
      return settle(svc, key, await awaitImport(svc, organizationId, importId));
    }
    case "new":
      break;
  }
  let outcome: HttpOutcome;
  try {
    outcome = await run(svc, organizationId, input, key, audit);
  } catch (err) {
    if (err instanceof AppError && (err.status === 400 || err.status === 404)) {
      await recordResponse(svc.db, key, err.status, { error: err.message, ...(err.details ? { details: err.details } : {}) });
    } else {
      await releaseKey(svc.db, key).catch(() => {}); // the error thrown below says what went wrong
    }
    throw err;
  }
  return settle(svc, key, outcome);
}

/** Records a final outcome for replay, keeps a still-running one pending, releases the key after a failure. */
async function settle(svc: SubmitServices, key: IdempotencyRef, outcome: HttpOutcome): Promise<HttpOutcome> {
  if (outcome.status === 201) await recordResponse(svc.db, key, outcome.status, outcome.body);
  else if (outcome.status >= 500 && outcome.status !== 503) await releaseKey(svc.db, key);
  else if (outcome.status === 503 && outcome.body.importId === undefined) await releaseKey(svc.db, key);
  return outcome;
}
