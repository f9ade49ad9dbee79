import { createInspClient, type InspClient } from "../client.ts";
import type { RetryInfo } from "../http/retrying-fetch.ts";
import { readRecords } from "../input/index.ts";
import { mapRecord } from "../mapping/apply.ts";
import { mappedColumns, mappingFromHeader, type Mapping } from "../mapping/schema.ts";
import { ErrorsCsv } from "../report/errors-csv.ts";
import { sessionsApi } from "../sessions/client.ts";
import { writeState } from "../state/state-file.ts";
import { syncAll } from "../sync/sync-all.ts";
import type { CliOptions } from "./args.ts";
import { EXIT, UsageError } from "./exit-codes.ts";
import { Progress, formatDuration } from "./progress.ts";
import type { RunConfig } from "./setup.ts";
import { describeCommit, ensureSession } from "./snapshot.ts";

export interface RunIo {
  /** Lines for the user: progress, notes and the summary (stderr). */
  say: (line: string) => void;
  stderrIsTTY: boolean;
  signal: AbortSignal;
}

function retryNote(i: RetryInfo): string {
  const why =
    i.status === null
      ? `could not reach the service (${(i.error as { cause?: { code?: string; message?: string } })?.cause?.code ?? (i.error as { cause?: { message?: string } })?.cause?.message ?? "network error"})`
      : `service answered ${i.status}`;
  return `${why} for ${i.method} ${new URL(i.url).pathname}: retrying in ${(i.delayMs / 1000).toFixed(1)} s${i.fromRetryAfter ? " (Retry-After)" : ""}, attempt ${i.attempt + 1}`;
}

/** What the phases of a run share: its configuration, options, I/O, and how the state is saved. */
interface Run {
  cfg: RunConfig;
  opts: CliOptions;
  io: RunIo;
  save: () => Promise<void>;
}

/**
 * Reads the input and sends it in batches: every answered batch goes into the errors CSV and the
 * state (saved, so an interrupted run resumes after it). Resolves with how many batches were
 * answered from the server's idempotency store.
 */
async function sendRecords(run: Run, client: InspClient, errorsCsv: ErrorsCsv, progress: Progress, sessionId: string | undefined): Promise<number> {
  const { cfg, opts, io } = run;
  const { state } = cfg;
  let mapping: Mapping | null = cfg.mapping;
  let headerProblem: UsageError | undefined;
  let replayed = 0;
  const records = readRecords(cfg.input, cfg.format, {
    signal: io.signal,
    ...(opts.delimiter !== undefined && { delimiter: opts.delimiter }),
    ...(opts.jsonKey !== undefined && { jsonKey: opts.jsonKey }),
    onColumns: (columns) => {
      if (!mapping) mapping = mappingFromHeader(columns);
      const missing = mappedColumns(mapping).filter((c) => !columns.includes(c));
      if (missing.length)
        throw (headerProblem = new UsageError(`the mapping names columns the CSV header does not have: ${missing.join(", ")} (header: ${columns.join(", ")})`));
    },
  });
  try {
    await syncAll(client, records, {
      runId: state.runId,
      startRow: state.nextRow,
      startBatchNo: state.batches + 1,
      batchSize: opts.batchSize,
      concurrency: opts.concurrency,
      dryRun: opts.dryRun,
      async: opts.async,
      signal: io.signal,
      ...(sessionId && { sessionId }),
      map: (data) => (mapping ? mapRecord(data, mapping) : { employee: data, warnings: [] }),
      onBatch: async (batch, outcome, answer) => {
        if (answer?.replayed) replayed++;
        await errorsCsv.append(outcome.entries);
        const c = state.counts;
        c.rows += batch.lastRow - batch.firstRow + 1;
        c.created += outcome.created;
        c.updated += outcome.updated;
        c.errors += outcome.errors;
        c.warnings += outcome.warnings;
        state.nextRow = batch.lastRow + 1;
        state.batches = batch.no;
        state.offset = batch.endOffset;
        state.errorsCsv.bytes = errorsCsv.bytes;
        await run.save();
        progress.update({ rows: c.rows, offset: state.offset, errors: c.errors, warnings: c.warnings });
      },
    });
  } catch (err) {
    throw headerProblem ?? err;
  }
  return replayed;
}

/** Commits a snapshot session once every batch is in: says its report, records the commit in the state. */
async function commitSession(run: Run, client: InspClient, sessionId: string): Promise<{ exitCode: number | null; done: boolean }> {
  const { opts, io, cfg } = run;
  const report = describeCommit(
    await sessionsApi(client).commit(sessionId, {
      dryRun: opts.commitDryRun,
      signal: io.signal,
      ...(opts.commitDryRun ? {} : { idempotencyKey: `${cfg.state.runId}-commit` }),
    }),
  );
  for (const line of report.lines) io.say(line);
  if (!opts.commitDryRun) cfg.state.commit = { status: report.exitCode === EXIT.quarantined ? "quarantined" : "committed", at: new Date().toISOString() };
  return { exitCode: report.exitCode, done: report.done };
}

/** The run's last line: the counts, where the errors are, and the batches replayed after an interruption. */
function summaryLine(run: Run, elapsedMs: number, replayed: number): string {
  const { state } = run.cfg;
  const c = state.counts;
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    `${run.opts.dryRun ? "dry run finished" : "finished"}: ${n(c.rows)} rows in ${formatDuration(elapsedMs)}: ${n(c.created)} created, ${n(c.updated)} updated, ${n(c.errors)} rows with errors, ${n(c.warnings)} warnings` +
    (c.errors || c.warnings ? ` (see ${state.errorsCsv.path})` : "") +
    (replayed ? `; ${replayed} batches sent before the interruption were answered from the server's idempotency store` : "")
  );
}

/** Runs a sync as configured; resolves with the exit code. Errors are thrown (main maps them to exit codes). */
export async function executeRun(cfg: RunConfig, opts: CliOptions, io: RunIo): Promise<number> {
  const { state } = cfg;
  const started = Date.now();
  const run: Run = {
    cfg,
    opts,
    io,
    save: async () => {
      state.updatedAt = new Date().toISOString();
      if (cfg.statePath) await writeState(cfg.statePath, state);
    },
  };
  for (const n of cfg.notes) io.say(n);
  const errorsCsv = await ErrorsCsv.open(state.errorsCsv.path, cfg.resumed ? state.errorsCsv.bytes : null);
  let progress: Progress | undefined;
  try {
    state.errorsCsv.bytes = errorsCsv.bytes;
    await run.save();
    const client = createInspClient({
      baseUrl: cfg.credentials.url,
      clientId: cfg.credentials.clientId,
      clientSecret: cfg.credentials.clientSecret,
      maxAttempts: opts.maxAttempts,
      onRetry: (i) => (progress ? progress.note(retryNote(i)) : io.say(retryNote(i))),
    });
    // Credentials are checked before the first row is read, so a wrong secret fails at once.
    await client.tokens.get();

    let sessionId: string | undefined;
    if (opts.snapshot) {
      sessionId = await ensureSession(sessionsApi(client), state, opts.scope, io.say, io.signal);
      await run.save();
    }

    io.say(
      `${cfg.resumed ? `resuming run ${state.runId} at row ${state.nextRow} (batch ${state.batches + 1})` : `run ${state.runId}`}: ${cfg.input} (${cfg.format}, ${cfg.inputSize.toLocaleString("en-US")} bytes)` +
        `${opts.dryRun ? ", DRY RUN: nothing is written" : ""}; errors CSV ${state.errorsCsv.path}${cfg.statePath ? `; state ${cfg.statePath}` : ""}`,
    );
    progress = new Progress(
      cfg.inputSize,
      { rows: state.counts.rows, offset: state.offset, errors: state.counts.errors, warnings: state.counts.warnings },
      { tty: io.stderrIsTTY, intervalMs: opts.progressIntervalSeconds * 1000, write: io.say },
    );
    const replayed = await sendRecords(run, client, errorsCsv, progress, sessionId);
    // Interrupted between batches (nothing in flight): the input was not read to its end.
    io.signal.throwIfAborted();
    state.offset = cfg.inputSize;
    progress.update({ rows: state.counts.rows, offset: state.offset, errors: state.counts.errors, warnings: state.counts.warnings });
    progress.stop();
    progress = undefined;
    const committed = sessionId ? await commitSession(run, client, sessionId) : null;
    state.done = committed?.done ?? true;
    await run.save();
    io.say(summaryLine(run, Date.now() - started, replayed));
    return committed?.exitCode ?? (state.counts.errors > 0 ? EXIT.rowErrors : EXIT.ok);
  } finally {
    progress?.stop();
    await errorsCsv.close();
  }
}
