import { and, eq } from "drizzle-orm";
import { notYetWhileUnreachable, type Db, type Tx } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { enqueueImport, importSignal, startCountdown, type JobWaiter, type Queues } from "@insp/queue";
import { AppError } from "../errors.ts";
import { withIdempotency, type Idempotent, type IdempotencyRef, type KeyFate } from "../idempotency.ts";
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
 * What became of an import request; the route turns it into HTTP (201, 400/404, 409, 500, 503),
 * the same whether this request ran it or an earlier one with its Idempotency-Key did.
 */
export type ImportOutcome =
  | { kind: "imported"; id: string; inspectionNumber: string }
  /** Refused as sent (validation 400, unknown reference 404): the same request always is. */
  | { kind: "rejected"; error: ImportRejection }
  /** The worker gave up on it (the error says why). */
  | { kind: "failed"; importId: string; error: string }
  /** Still being processed after IMPORT_WAIT_SECONDS: it keeps going; the same request with the same key collects it. */
  | { kind: "running"; importId: string }
  /** Redis refused the job: nothing was created. */
  | { kind: "queueUnavailable" }
  /** An earlier request with this key is still validating (it has no import yet to wait on). */
  | { kind: "validating" };

/** Why a request was refused: the AppError it raised, as data. */
interface ImportRejection {
  kind: "invalid" | "not_found";
  message: string;
  details?: string[];
}

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
    return { kind: "imported", id: r.id, inspectionNumber: r.inspectionNumber };
  }
  if (row.status === "FAILED") return { kind: "failed", importId, error: row.error ?? "unknown error" };
  return null;
}

/**
 * Waits for the worker (the import's countdown wakes us up; Postgres is the truth) at most
 * `waitMs`; past it the import is still running (it keeps going and can be collected with the same Idempotency-Key).
 * Never hangs.
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

/** A refusal of the request as sent, as an outcome (recorded under its key); anything else is thrown. */
async function prepareOrReject(
  svc: SubmitServices,
  organizationId: string,
  input: ImportInput,
  audit: AuditContext,
  recorded: (tx: Tx, importId: string) => Promise<void>,
): Promise<{ importId: string } | Extract<ImportOutcome, { kind: "rejected" }>> {
  try {
    return { importId: await prepareImport(svc, organizationId, input, audit, recorded) };
  } catch (err) {
    if (err instanceof AppError && (err.kind === "invalid" || err.kind === "not_found")) {
      return { kind: "rejected", error: { kind: err.kind, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    }
    throw err;
  }
}

/** What an outcome does to its Idempotency-Key: an import and a refusal are final, a failure can be retried. */
const FATE: Record<ImportOutcome["kind"], KeyFate> = {
  imported: "record",
  rejected: "record",
  failed: "release",
  queueUnavailable: "release",
  running: "keep",
  validating: "keep",
};

/**
 * POST /api/inspections end to end. With an Idempotency-Key (withIdempotency): the same key and
 * body within 24 hours get the first outcome (an import or a refusal); an earlier request still
 * running is waited for; another body is a 422. A failure or an unavailable queue releases the
 * key so the same request can be retried.
 */
export async function submitImport(
  svc: SubmitServices,
  organizationId: string,
  input: ImportInput,
  audit: AuditContext,
  idempotencyKey?: string,
): Promise<Idempotent<ImportOutcome>> {
  const key: IdempotencyRef | null = idempotencyKey === undefined ? null : { organizationId, scope: IMPORT_IDEMPOTENCY_SCOPE, key: idempotencyKey };
  return withIdempotency<ImportOutcome>(svc.db, key, input, {
    // The import and the key's note of it commit together: a retry after a lost connection
    // finds the import it made (attach), even when the commit's answer was what got lost, and
    // does not make a second one.
    run: async (_, _note, noteIn) => {
      const prepared = await prepareOrReject(svc, organizationId, input, audit, (tx, importId) => noteIn(tx, { importId }));
      if ("kind" in prepared) return prepared;
      return enqueueAndWait(svc, organizationId, prepared.importId);
    },
    keepWhenNoted: true,
    attach: async (progress) => {
      const importId = (progress as { importId?: unknown } | null)?.importId;
      if (typeof importId !== "string") return { kind: "validating" };
      // Woken by the first request's countdown too: its signal reaches every subscribed process.
      // Without a subscription the wait still ends, at a poll of Postgres.
      await svc.waiter.prepare().catch(() => {});
      // The first request may have stopped between the commit and the enqueue: the job is queued
      // again (under the import's job id: no second job while one is queued; one that runs after
      // the import is DONE finds it done and does nothing).
      await enqueueImport(svc.queues, organizationId, importId).catch(() => {});
      return awaitImport(svc, organizationId, importId);
    },
    fate: (o) => FATE[o.kind],
    revive: (recorded) => recorded as ImportOutcome,
    fromResponse,
    staleMs: svc.waitMs + 5 * 60_000,
  });
}

/** A key recorded before outcomes were: 201 `{id, inspectionNumber}` or a refusal `{error, details?}` (400 or 404). */
function fromResponse(status: number, body: unknown): ImportOutcome {
  const b = body as Record<string, unknown>;
  if (status === 201) return { kind: "imported", id: String(b.id), inspectionNumber: String(b.inspectionNumber) };
  const error: ImportRejection = { kind: status === 404 ? "not_found" : "invalid", message: String(b.error) };
  return { kind: "rejected", error: Array.isArray(b.details) ? { ...error, details: b.details.map(String) } : error };
}
