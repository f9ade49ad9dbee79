import type { InspClient, SyncBatchResult } from "../client.ts";
import type { InputRecord } from "../input/types.ts";
import type { MappedRecord } from "../mapping/apply.ts";
import { idempotencyKey, newRunId } from "../state/state-file.ts";
import { MAX_BATCH_SIZE, makeBatches, type Batch } from "./batches.ts";
import { batchOutcome, type BatchOutcome } from "./outcome.ts";
import { inOrder } from "./pipeline.ts";

export interface SyncAllOptions {
  /** Prefix of the batches' Idempotency-Keys; give the same one to re-send a run safely (default: a new id). */
  runId?: string;
  /** Skip rows before this one (1-based), e.g. to resume. */
  startRow?: number;
  /** Number of the first batch (keys are `<runId>-<batchNo>`). */
  startBatchNo?: number;
  /** Employees per request, at most 500. */
  batchSize?: number;
  /** Requests in flight at once (default 2). */
  concurrency?: number;
  dryRun?: boolean;
  async?: boolean;
  sessionId?: string;
  signal?: AbortSignal;
  /** From an input record to an employee (default: the record is the employee). */
  map?: (data: Record<string, unknown>) => MappedRecord;
  /** Called for each batch in input order once its answer is in (or at once for a batch with nothing valid to send). */
  onBatch?: (batch: Batch, outcome: BatchOutcome, answer: SyncBatchResult | null) => Promise<void> | void;
}

export interface SyncSummary {
  runId: string;
  batches: number;
  rows: number;
  created: number;
  updated: number;
  errors: number;
  warnings: number;
  replayedBatches: number;
}

async function* asRecords(input: AsyncIterable<InputRecord> | Iterable<Record<string, unknown>>): AsyncGenerator<InputRecord> {
  if (Symbol.asyncIterator in input) return yield* input;
  let row = 0;
  for (const data of input) yield { row: ++row, data, offset: 0 };
}

/**
 * Syncs any number of employees: validated locally, sent in batches of at most 500 with an
 * Idempotency-Key each, several batches in flight, outcomes delivered in input order.
 */
export async function syncAll(
  client: Pick<InspClient, "syncEmployees">,
  input: AsyncIterable<InputRecord> | Iterable<Record<string, unknown>>,
  opts: SyncAllOptions = {},
): Promise<SyncSummary> {
  const runId = opts.runId ?? newRunId();
  const summary: SyncSummary = { runId, batches: 0, rows: 0, created: 0, updated: 0, errors: 0, warnings: 0, replayedBatches: 0 };
  const batches = makeBatches(asRecords(input), {
    startRow: opts.startRow ?? 1,
    startBatchNo: opts.startBatchNo ?? 1,
    batchSize: opts.batchSize ?? MAX_BATCH_SIZE,
    map: opts.map ?? ((data) => ({ employee: data, warnings: [] })),
  });
  await inOrder(batches, {
    concurrency: opts.concurrency ?? 2,
    ...(opts.signal ? { signal: opts.signal } : {}),
    send: async (batch, signal): Promise<SyncBatchResult | null> => {
      if (batch.employees.length === 0) return null;
      const key = idempotencyKey(runId, batch.no);
      return client.syncEmployees(batch.employees, {
        idempotencyKey: key,
        syncBatchId: key,
        dryRun: !!opts.dryRun,
        async: !!opts.async,
        signal,
        ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
      });
    },
    ack: async (batch, answer) => {
      const outcome = batchOutcome(batch, answer);
      summary.batches++;
      summary.rows += batch.lastRow - batch.firstRow + 1;
      summary.created += outcome.created;
      summary.updated += outcome.updated;
      summary.errors += outcome.errors;
      summary.warnings += outcome.warnings;
      if (answer?.replayed) summary.replayedBatches++;
      await opts.onBatch?.(batch, outcome, answer);
    },
  });
  return summary;
}
