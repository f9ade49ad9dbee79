import { AuthError, HttpError, RetriesExhaustedError } from "../errors.ts";
import { InputError } from "../input/types.ts";

/** insp-sync's exit codes (packages/client/README.md, Exit codes; also in --help). */
export const EXIT = {
  /** Every row synced without an error (warnings allowed). */
  ok: 0,
  /** Finished, but some rows had errors: see the errors CSV. */
  rowErrors: 1,
  /** Bad arguments, unreadable input or mapping, a state file of another input. */
  usage: 2,
  /** The snapshot commit was quarantined by the deletion guard: an administrator must approve it. */
  quarantined: 3,
  /** Client credentials refused, or the client lacks the employees:sync scope. */
  auth: 4,
  /** The service kept failing (retries exhausted, unreachable, 5xx). */
  service: 5,
  /** Stopped by SIGINT or SIGTERM; the state is saved, run the same command again to resume. */
  interrupted: 130,
} as const;

export class UsageError extends Error {
  override name = "UsageError";
}

/** Errors of reading the input while the run goes on (the file was checked at the start). */
const FILE_ERRORS = new Set(["ENOENT", "EACCES", "EISDIR", "ENOTDIR", "EPERM", "EMFILE", "EIO"]);

/** The exit code for an error that ended a run, and what to tell the user. */
export function exitFor(err: unknown, interrupted: boolean): { code: number; message: string } {
  if (interrupted) return { code: EXIT.interrupted, message: "interrupted: the state is saved; run the same command again to resume" };
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof UsageError || err instanceof InputError) return { code: EXIT.usage, message: msg };
  if (err instanceof AuthError) return { code: EXIT.auth, message: `authentication failed: ${msg}` };
  if (err instanceof RetriesExhaustedError) return { code: EXIT.service, message: `${msg}; the state is saved, run again to resume` };
  if (err instanceof HttpError) {
    if (err.status === 422)
      return {
        code: EXIT.usage,
        message: `${msg} (a batch was re-sent with other rows than before under the same Idempotency-Key: did the input or mapping change? --restart starts over)`,
      };
    return { code: err.status >= 500 ? EXIT.service : EXIT.usage, message: msg };
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (code.startsWith("CSV_") || FILE_ERRORS.has(code))) return { code: EXIT.usage, message: `cannot read the input: ${msg}` };
  return { code: EXIT.service, message: `unexpected error: ${err instanceof Error ? (err.stack ?? msg) : msg}` };
}
