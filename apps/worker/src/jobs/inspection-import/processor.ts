import { UnrecoverableError, isLastAttempt, parseJobData } from "@insp/queue";
import { classifyImportFailure, failImport, runImport } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * inspection-import: creates the inspection of one validated import (core runImport, one
 * transaction). Transient failures are retried per the queue policy; a permanent one, or the
 * last attempt, records FAILED on the import so the waiting API answers at once.
 */
export const inspectionImportProcessor: ProcessorFactory = (deps) => async (job) => {
  const { organizationId, importId } = parseJobData("inspection-import", job.data);
  try {
    return await runImport(deps.db, organizationId, importId);
  } catch (err) {
    const { permanent, message } = classifyImportFailure(err);
    const lastAttempt = isLastAttempt(job);
    deps.logger.error({ err, importId, organizationId, attempt: job.attemptsMade + 1, permanent }, "inspection import failed");
    if (!permanent && !lastAttempt) throw err;
    await failImport(deps.db, organizationId, importId, message);
    throw new UnrecoverableError(message);
  }
};
