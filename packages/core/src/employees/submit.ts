import { randomUUID } from "node:crypto";
import { notYetWhileUnreachable, type Db } from "@insp/db";
import { enqueueSyncItems, startCountdown, syncSignal, type JobWaiter, type Queues } from "@insp/queue";
import { AppError } from "../errors.ts";
import { dryRunSync } from "./dry-run.ts";
import { withIdempotency, type Idempotent, type IdempotencyRef } from "../idempotency.ts";
import { chainKeys } from "./rules.ts";
import { assertSyncQueueRoom } from "./quota.ts";
import { joinSession } from "./sessions.ts";
import { createSyncRequest, deleteSyncRequest, isSyncRequestDone, loadSyncStatus, toSyncResponse, type NewItem, type SyncResponseBody } from "./requests.ts";
import type { SyncEmployee } from "./types.ts";

/**
 * The API half of POST /api/v1/sync/employees: record the request and its items, enqueue the
 * first item of each chain, wait for the workers (run.ts) or answer at once.
 */

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
 * What became of a submitted request: every employee done (the results), or still processing
 * (asked to answer at once, or the wait ran out). The route turns it into 200 or 202, the same
 * whether this request ran it or an earlier one with its Idempotency-Key did.
 */
export type SyncOutcome = { kind: "completed"; response: SyncResponseBody } | { kind: "processing"; requestId: string };

/** Each employee of the request after validation (the API validates with the contract's schema). */
type ValidatedEntry = { ok: true; employee: SyncEmployee } | { ok: false; externalEmployeeId: string | null; message: string };

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
const SYNC_IDEMPOTENCY_SCOPE = "employee-sync";

const processing = (requestId: string): SyncOutcome => ({ kind: "processing", requestId });
const completed = (response: SyncResponseBody): SyncOutcome => ({ kind: "completed", response });

/**
 * POST /api/v1/sync/employees: refuses it whole when the organization's queue is full
 * (quota.ts), else records the request and one item per employee,
 * enqueues one job per valid employee (only the first of each chain of employees
 * sharing an externalEmployeeId or an e-mail: a worker enqueues the next one when it
 * finishes, so duplicates and e-mail conflicts apply in request order), then waits. Completed
 * with every result, or processing when asked to answer at once (Prefer: respond-async) or
 * when the wait runs out. Nothing accepted is lost: the jobs finish without the API.
 * With an Idempotency-Key (withIdempotency) a completed request is replayed for 24 hours, and a
 * repeat while it runs attaches to it.
 */
export async function submitSync(svc: SyncServices, s: SyncSubmission): Promise<Idempotent<SyncOutcome>> {
  const items: NewItem[] = s.entries.map((e, idx) =>
    e.ok
      ? { idx, externalEmployeeId: e.employee.externalEmployeeId, input: e.employee }
      : { idx, externalEmployeeId: e.externalEmployeeId, outcome: { error: e.message } },
  );
  const valid = items.filter((i) => i.input);
  chainKeys(valid.map((i) => i.input!)).forEach((key, n) => (valid[n]!.chainKey = key));
  if (s.dryRun && s.sessionId)
    throw new AppError(
      "invalid",
      "A dry run writes nothing and cannot be part of a sync session; preview the session's deactivations with ?dryRun=true on its commit",
    );
  if (s.dryRun) return { outcome: await dryRun(svc, s, items), replayed: false };

  const key: IdempotencyRef | null = s.idempotencyKey ? { organizationId: s.organizationId, scope: SYNC_IDEMPOTENCY_SCOPE, key: s.idempotencyKey } : null;
  return withIdempotency(svc.db, key, s.rawBody, {
    // The request is recorded in the transaction that claims the key, with its id noted: of two
    // concurrent requests with one key, the second waits for that commit and attaches.
    begin: async (tx, note) => {
      if (svc.maxQueuedEmployees !== undefined && valid.length) await assertSyncQueueRoom(tx, s.organizationId, valid.length, svc.maxQueuedEmployees);
      if (s.sessionId)
        await joinSession(
          tx,
          s.organizationId,
          s.sessionId,
          items.map((i) => i.externalEmployeeId),
        );
      const r = await createSyncRequest(tx, {
        organizationId: s.organizationId,
        clientId: s.clientId,
        syncBatchId: s.syncBatchId,
        dryRun: false,
        items,
        httpRequestId: s.httpRequestId,
      });
      await note({ requestId: r.requestId });
      return r;
    },
    run: async ({ requestId, items: recorded }) => {
      try {
        await startItems(svc, s.organizationId, requestId, items, recorded);
      } catch {
        await deleteSyncRequest(svc.db, s.organizationId, requestId);
        throw new AppError("unavailable", "The sync queue is unavailable; nothing was processed, retry the request");
      }
      if (s.respondAsync) return processing(requestId);
      return waitFor(svc, s.organizationId, requestId);
    },
    attach: async (progress) => {
      const requestId = (progress as { requestId?: unknown } | null)?.requestId;
      // Unreachable in practice: the request id is noted in the claiming transaction.
      if (typeof requestId !== "string") throw new AppError("conflict", "A request with this Idempotency-Key is still being recorded; retry shortly");
      return attach(svc, s, requestId);
    },
    fate: (o) => (o.kind === "completed" ? "record" : "keep"),
    revive: (recorded) => completed(toSyncResponse((recorded as Extract<SyncOutcome, { kind: "completed" }>).response)),
    // A key recorded before outcomes were: a 200 with the response.
    fromResponse: (_status, body) => completed(toSyncResponse(body as SyncResponseBody)),
  });
}

/**
 * Enqueues a recorded request's pending items: only the first of each chain (each worker
 * enqueues the next one), after starting the request's countdown of every pending item, which
 * the workers tick and whose end wakes awaitSyncRequest (@insp/queue countdown.ts). Throws when
 * the queue is unreachable (nothing was enqueued then, or the sweep finds what was).
 */
export async function startItems(
  svc: Pick<SyncServices, "queues" | "waiter">,
  organizationId: string,
  requestId: string,
  items: NewItem[],
  recorded: { id: string; idx: number }[],
): Promise<void> {
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
async function waitFor(svc: SyncServices, organizationId: string, requestId: string): Promise<SyncOutcome> {
  if (!(await awaitSyncRequest(svc, organizationId, requestId))) return processing(requestId);
  const status = await loadSyncStatus(svc.db, organizationId, requestId);
  if (!status) throw new Error(`Sync request ${requestId} has disappeared`);
  return completed(toSyncResponse(status));
}

/** A repeated Idempotency-Key whose request is still running: answer as that request would (woken by the same countdown). */
async function attach(svc: SyncServices, s: SyncSubmission, requestId: string): Promise<SyncOutcome> {
  if (s.respondAsync) return processing(requestId);
  await svc.waiter.prepare();
  return waitFor(svc, s.organizationId, requestId);
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
  await createSyncRequest(svc.db, {
    id: requestId,
    organizationId: s.organizationId,
    clientId: s.clientId,
    syncBatchId: s.syncBatchId,
    dryRun: true,
    items,
    httpRequestId: s.httpRequestId,
  });
  const status = await loadSyncStatus(svc.db, s.organizationId, requestId);
  return completed(toSyncResponse(status!));
}
