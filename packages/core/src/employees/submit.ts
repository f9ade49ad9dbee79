import { randomUUID } from "node:crypto";
import { notYetWhileUnreachable, type Db } from "@insp/db";
import { enqueueSyncItems, startCountdown, syncSignal, type JobWaiter, type Queues } from "@insp/queue";
import { AppError } from "../errors.ts";
import { dryRunSync } from "./dry-run.ts";
import { claimKey, noteProgress, recordResponse, releaseKey, requestHash, type IdempotencyRef } from "../idempotency.ts";
import { chainKeys } from "./rules.ts";
import { assertSyncQueueRoom } from "./quota.ts";
import { joinSession } from "./sessions.ts";
import { createSyncRequest, deleteSyncRequest, isSyncRequestDone, loadSyncStatus, toSyncResponse, type NewItem, type SyncResponseBody } from "./sync-requests.ts";
import type { SyncEmployee } from "./types.ts";

export interface SyncServices {
  db: Db;
  queues: Queues;
  waiter: JobWaiter;
  /** SYNC_WAIT_SECONDS in ms. */
  waitMs: number;
  /** SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG (quota.ts); unset (the admin CLI): no limit. */
  maxQueuedEmployees?: number;
}

/**
 * What became of a submitted request: every employee done (the results, possibly replayed from
 * an earlier request with the same Idempotency-Key), or still processing (asked to answer at
 * once, or the wait ran out). The route turns it into 200 or 202.
 */
export type SyncOutcome = { kind: "completed"; response: SyncResponseBody; replayed: boolean } | { kind: "processing"; requestId: string };

/** Each employee of the request after validation (the API validates with the contract's schema). */
export type ValidatedEntry = { ok: true; employee: SyncEmployee } | { ok: false; externalEmployeeId: string | null; message: string };

export interface SyncSubmission {
  organizationId: string;
  clientId: string | null;
  /** The HTTP request id, for the employees' audit entries. */
  httpRequestId?: string | null;
  syncBatchId: string | null;
  entries: ValidatedEntry[];
  /** The request body as sent, for the Idempotency-Key comparison. */
  rawBody: unknown;
  dryRun: boolean;
  respondAsync: boolean;
  idempotencyKey?: string;
  /** A snapshot session this batch belongs to (sessions.ts): its employees are recorded as present. */
  sessionId?: string;
}

/** Idempotency-Key scope of POST /api/v1/sync/employees (core/idempotency.ts). */
export const SYNC_IDEMPOTENCY_SCOPE = "employee-sync";

const processing = (requestId: string): SyncOutcome => ({ kind: "processing", requestId });
const completed = (response: SyncResponseBody, replayed = false): SyncOutcome => ({ kind: "completed", response, replayed });

/**
 * POST /api/v1/sync/employees: refuses it whole when the organization's queue is full
 * (quota.ts), else records the request and one item per employee,
 * enqueues one job per valid employee (only the first of each chain of employees
 * sharing an externalEmployeeId or an e-mail: a worker enqueues the next one when it
 * finishes, so duplicates and e-mail conflicts apply in request order), then waits. Completed
 * with every result, or processing when asked to answer at once (Prefer: respond-async) or
 * when the wait runs out. Nothing accepted is lost: the jobs finish without the API.
 */
export async function submitSync(svc: SyncServices, s: SyncSubmission): Promise<SyncOutcome> {
  const items: NewItem[] = s.entries.map((e, idx) =>
    e.ok ? { idx, externalEmployeeId: e.employee.externalEmployeeId, input: e.employee } : { idx, externalEmployeeId: e.externalEmployeeId, outcome: { error: e.message } },
  );
  const valid = items.filter((i) => i.input);
  chainKeys(valid.map((i) => i.input!)).forEach((key, n) => (valid[n]!.chainKey = key));
  if (s.dryRun && s.sessionId) throw new AppError("invalid", "A dry run writes nothing and cannot be part of a sync session; preview the session's deactivations with ?dryRun=true on its commit");
  if (s.dryRun) return dryRun(svc, s, items);

  const key: IdempotencyRef | null = s.idempotencyKey ? { organizationId: s.organizationId, scope: SYNC_IDEMPOTENCY_SCOPE, key: s.idempotencyKey } : null;
  // The key is claimed in the transaction that records the request, together with the request
  // id: of two concurrent requests with one key, the second waits for that commit and attaches.
  const recorded = await svc.db.transaction(async (tx) => {
    if (key) {
      const claim = await claimKey(tx, key, requestHash(s.rawBody));
      if (claim.kind !== "new") return claim;
    }
    if (svc.maxQueuedEmployees !== undefined && valid.length) await assertSyncQueueRoom(tx, s.organizationId, valid.length, svc.maxQueuedEmployees);
    if (s.sessionId) await joinSession(tx, s.organizationId, s.sessionId, items.map((i) => i.externalEmployeeId));
    const r = await createSyncRequest(tx, { organizationId: s.organizationId, clientId: s.clientId, syncBatchId: s.syncBatchId, dryRun: false, items, httpRequestId: s.httpRequestId });
    if (key) await noteProgress(tx, key, { requestId: r.requestId });
    return { kind: "created" as const, ...r };
  });
  if (recorded.kind === "replay") return completed(toSyncResponse(recorded.body as SyncResponseBody), true);
  if (recorded.kind === "pending") {
    const requestId = (recorded.ref as { requestId?: unknown } | null)?.requestId;
    // Unreachable in practice: the request id is noted in the claiming transaction.
    if (typeof requestId !== "string") throw new AppError("conflict", "A request with this Idempotency-Key is still being recorded; retry shortly");
    return attach(svc, s, requestId, key);
  }

  const { requestId } = recorded;
  try {
    await startItems(svc, s.organizationId, requestId, items, recorded.items);
  } catch {
    await deleteSyncRequest(svc.db, s.organizationId, requestId);
    if (key) await releaseKey(svc.db, key);
    throw new AppError("unavailable", "The sync queue is unavailable; nothing was processed, retry the request");
  }
  if (s.respondAsync) return processing(requestId);
  return waitFor(svc, s.organizationId, requestId, key);
}

/**
 * Enqueues a recorded request's pending items: only the first of each chain (each worker
 * enqueues the next one), after starting the request's countdown of every pending item, which
 * the workers tick and whose end wakes awaitSyncRequest (@insp/queue countdown.ts). Throws when
 * the queue is unreachable (nothing was enqueued then, or the sweep finds what was).
 */
export async function startItems(svc: Pick<SyncServices, "queues" | "waiter">, organizationId: string, requestId: string, items: NewItem[], recorded: { id: string; idx: number }[]): Promise<void> {
  const pending = recorded.filter((i) => items[i.idx]?.input).sort((a, b) => a.idx - b.idx);
  const firstOfChain = new Map<string, { id: string; idx: number }>();
  for (const i of pending) {
    const chain = items[i.idx]!.chainKey!;
    if (!firstOfChain.has(chain)) firstOfChain.set(chain, i);
  }
  await svc.waiter.prepare(); // subscribe before the countdown starts so its end is not missed
  await startCountdown(svc.queues, syncSignal(requestId), pending.length);
  await enqueueSyncItems(svc.queues, organizationId, requestId, [...firstOfChain.values()]);
}

/** Waits for a request's items (its countdown's signal wakes us, Postgres decides) at most `waitMs`; true when every one is done. */
export async function awaitSyncRequest(svc: SyncServices, organizationId: string, requestId: string): Promise<boolean> {
  const isDone = notYetWhileUnreachable(() => isSyncRequestDone(svc.db, organizationId, requestId));
  return svc.waiter.wait({ id: syncSignal(requestId), timeoutMs: svc.waitMs, pollMs: 500, isDone });
}

/** Waits for the request (awaitSyncRequest), then answers with its results, or processing when the wait runs out. */
async function waitFor(svc: SyncServices, organizationId: string, requestId: string, key: IdempotencyRef | null): Promise<SyncOutcome> {
  if (!(await awaitSyncRequest(svc, organizationId, requestId))) return processing(requestId);
  const status = await loadSyncStatus(svc.db, organizationId, requestId);
  if (!status) throw new Error(`Sync request ${requestId} has disappeared`);
  const response = toSyncResponse(status);
  if (key) await recordResponse(svc.db, key, 200, response);
  return completed(response);
}

/** A repeated Idempotency-Key whose request is still running: answer as that request would (woken by the same countdown). */
async function attach(svc: SyncServices, s: SyncSubmission, requestId: string, key: IdempotencyRef | null): Promise<SyncOutcome> {
  if (s.respondAsync) return processing(requestId);
  await svc.waiter.prepare();
  return waitFor(svc, s.organizationId, requestId, key);
}

/**
 * `?dryRun=true`: runs in this process, in a transaction that is rolled back (see
 * dry-run.ts), then records the request with its outcomes so its status URL works.
 * Always answered synchronously; Idempotency-Key and Prefer are ignored.
 */
async function dryRun(svc: SyncServices, s: SyncSubmission, items: NewItem[]): Promise<SyncOutcome> {
  const requestId = randomUUID();
  const valid = items.filter((i) => i.input).map((i) => ({ idx: i.idx, employee: i.input! }));
  const outcomes = await dryRunSync(svc.db, s.organizationId, requestId, valid);
  for (const o of outcomes) items[o.idx]!.outcome = "result" in o ? { result: o.result } : { error: o.error };
  await createSyncRequest(svc.db, { id: requestId, organizationId: s.organizationId, clientId: s.clientId, syncBatchId: s.syncBatchId, dryRun: true, items, httpRequestId: s.httpRequestId });
  const status = await loadSyncStatus(svc.db, s.organizationId, requestId);
  return completed(toSyncResponse(status!));
}
