import type { SessionsApi } from "../sessions/client.ts";
import type { CommitResult, DeactivatedEmployee, SessionScope } from "../sessions/types.ts";
import type { SyncState } from "../state/state-file.ts";
import { EXIT, UsageError } from "./exit-codes.ts";

/**
 * The snapshot-session steps of a run: open a session before the first batch (or take the
 * interrupted run's one back, if it is still open) and commit it after the last.
 */
export async function ensureSession(
  sessions: SessionsApi,
  state: SyncState,
  scope: SessionScope,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  if (state.session) {
    const key = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
    if (key(state.session.scope ?? {}) !== key(scope)) {
      throw new UsageError(
        `the interrupted run's session ${state.session.id} has another scope (${key(state.session.scope ?? {})}): resume with the same --scope-* options, or --restart to start a new snapshot`,
      );
    }
    const s = await sessions.get(state.session.id, signal);
    if (s.status !== "open") throw new UsageError(`the interrupted run's session ${s.sessionId} is ${s.status}, not open: --restart to start a new snapshot`);
    say(`continuing snapshot session ${s.sessionId}${s.expiresAt ? ` (expires ${s.expiresAt})` : ""}`);
    return s.sessionId;
  }
  const s = await sessions.create(scope, { idempotencyKey: `${state.runId}-session`, ...(signal ? { signal } : {}) });
  state.session = { id: s.sessionId, ...(Object.keys(scope).length ? { scope: { ...scope } } : {}) };
  say(`opened snapshot session ${s.sessionId}${s.expiresAt ? ` (expires ${s.expiresAt})` : ""}`);
  return s.sessionId;
}

/** At most `max` employees as lines, then how many more. */
function listEmployees(list: DeactivatedEmployee[], max = 50): string[] {
  const lines = list.slice(0, max).map((e) => `  ${e.externalEmployeeId} (${e.employeeId})`);
  if (list.length > max) lines.push(`  ... and ${list.length - max} more`);
  return lines;
}

export interface CommitReport {
  /** EXIT.quarantined, or null when the commit went through (or was a dry run). */
  exitCode: number | null;
  lines: string[];
  /** The run is finished (false after a commit dry run: a rerun without --commit-dry-run commits). */
  done: boolean;
}

/** What a commit answer means for the user and the exit code. Pure, so it is unit-tested. */
export function describeCommit(result: CommitResult): CommitReport {
  if ("dryRun" in result && result.dryRun) {
    return {
      exitCode: null,
      done: false,
      lines: [
        `commit dry run of session ${result.sessionId}: ${result.wouldDeactivate.length} employees would be deactivated; the session stays open (run again without --commit-dry-run to commit)`,
        ...listEmployees(result.wouldDeactivate),
      ],
    };
  }
  if (result.status === "committed") {
    const gone = result.deactivated ?? [];
    return { exitCode: null, done: true, lines: [`session ${result.sessionId} committed: ${gone.length} employees deactivated`, ...listEmployees(gone)] };
  }
  if (result.status === "quarantined") {
    const held = result.wouldDeactivate ?? [];
    const t = result.threshold
      ? ` (guard: more than ${result.threshold.percent}% and more than ${result.threshold.min} of ${result.activeInScope ?? "?"} active in scope)`
      : "";
    return {
      exitCode: EXIT.quarantined,
      done: true,
      lines: [
        `session ${result.sessionId} quarantined: the commit would deactivate ${held.length} employees${t}; nothing changed until an administrator approves it`,
        ...listEmployees(held),
      ],
    };
  }
  throw new Error(`session ${result.sessionId} is ${result.status} after its commit`);
}
