import { UnrecoverableError, importSignal, isLastAttempt, parseJobData, tickCountdown } from "@insp/queue";
import { classifyImportFailure, failImport, runImport } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * inspection-import: creates the inspection of one validated import (core runImport, one
 * transaction). Transient failures are retried per the queue policy; a permanent one, or the
 * last attempt, records FAILED on the import. Either outcome, once committed, ticks the import's
 * countdown (a count of 1), which wakes the API waiting for it.
 */
export const inspectionImportProcessor: ProcessorFactory = (deps) => async (job) => {
  const { organizationId, importId } = parseJobData("inspection-import", job.data);
  // A tick that fails only costs the waiting API its next poll of Postgres: never the job.
  const signalDone = () =>
    tickCountdown(deps.queues, importSignal(importId)).catch((err: unknown) => deps.logger.debug({ err, importId }, "import countdown tick failed"));
  let result: Awaited<ReturnType<typeof runImport>>;
  try {
    result = await runImport(deps.db, organizationId, importId);
  } catch (err) {
    const { permanent, message } = classifyImportFailure(err);
    const lastAttempt = isLastAttempt(job);
    deps.logger.error({ err, importId, organizationId, attempt: job.attemptsMade + 1, permanent }, "inspection import failed");
    if (!permanent && !lastAttempt) throw err;
    await failImport(deps.db, organizationId, importId, message);
    await signalDone();
    throw new UnrecoverableError(message);
  }
  // DONE now or by an earlier run, FAILED, or gone: final in every case.
  await signalDone();
  return result;
};
