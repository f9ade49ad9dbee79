import type { Processor } from "bullmq";
import { JOB_NAMES, UnrecoverableError, type JobName } from "@insp/queue";
import type { WorkerDeps } from "../deps.ts";
import { inspectionImportProcessor } from "./inspection-import/processor.ts";

export type ProcessorFactory = (deps: WorkerDeps) => Processor;

const notYet = (name: string): ProcessorFactory => () => async () => {
  throw new UnrecoverableError(`${name} jobs are not implemented in this build`);
};

/**
 * Job name -> processor. A Record over every JobName makes a missing handler a type
 * error; `buildProcessors` checks it again at start-up (STYLE.md, Jobs).
 */
export const registry: Record<JobName, ProcessorFactory> = {
  "employee-sync": notYet("employee-sync"),
  mail: notYet("mail"),
  "inspection-import": inspectionImportProcessor,
};

export function buildProcessors(deps: WorkerDeps): Map<JobName, Processor> {
  const missing = JOB_NAMES.filter((n) => typeof registry[n] !== "function");
  const unknown = Object.keys(registry).filter((n) => !JOB_NAMES.includes(n as JobName));
  if (missing.length || unknown.length) {
    throw new Error(`Job registry mismatch: missing handlers [${missing.join(", ")}], unknown handlers [${unknown.join(", ")}]`);
  }
  return new Map(JOB_NAMES.map((n) => [n, registry[n](deps)]));
}
