import { startProcess, type RunningProcess } from "@insp/testing/processes";

/**
 * An app entry point as a real Node process, through @insp/testing's startProcess, with
 * extra Node flags (e.g. --cpu-prof) and only the tail of its output kept, so a long run
 * does not grow the bench's memory.
 */
export function startNode(script: string, env: Record<string, string>, nodeArgs: string[] = []): RunningProcess {
  return startProcess(script, env, { nodeArgs, keepOutput: 64_000 });
}
