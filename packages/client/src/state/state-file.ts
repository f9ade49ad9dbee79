import { randomBytes } from "node:crypto";
import { open, readFile, rename, stat, unlink } from "node:fs/promises";
import { z } from "zod";

const Counts = z.object({
  /** Rows read and settled (sent and answered, or refused locally). */
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Rows with an error: refused locally or by the server. */
  errors: z.number().int(),
  warnings: z.number().int(),
});
export type Counts = z.infer<typeof Counts>;
export const zeroCounts = (): Counts => ({ rows: 0, created: 0, updated: 0, errors: 0, warnings: 0 });

export const SyncState = z.object({
  version: z.literal(1),
  /** Prefix of every batch's Idempotency-Key: the same run re-sends a batch under the same key. */
  runId: z.string().min(1),
  input: z.object({ path: z.string(), size: z.number(), mtimeMs: z.number() }),
  /** SHA-256 of the mapping file's bytes ("" without one): another mapping makes other batches. */
  mappingHash: z.string(),
  /** How the input is read and cut into batches: other values make other batches (absent in states of earlier versions). */
  reading: z.object({ format: z.string(), batchSize: z.number().int(), delimiter: z.string().optional(), jsonKey: z.string().optional() }).optional(),
  /** Rows before this one (1-based) are settled: a resumed run starts reading here. */
  nextRow: z.number().int().min(1),
  /** Batches acknowledged so far: the next one is number batches + 1. */
  batches: z.number().int().min(0),
  /** Bytes of the input up to the last settled row (progress on resume). */
  offset: z.number().int().min(0).default(0),
  counts: Counts,
  /** The errors CSV and its length when this state was written: a resumed run cuts anything after it (rows written for batches that were not acknowledged). */
  errorsCsv: z.object({ path: z.string(), bytes: z.number().int().min(0) }),
  session: z.object({ id: z.string(), scope: z.record(z.string(), z.unknown()).optional() }).optional(),
  commit: z.object({ status: z.string(), at: z.string() }).optional(),
  done: z.boolean(),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export type SyncState = z.infer<typeof SyncState>;

/** A run id: short, URL- and header-safe, unique enough to never meet another run's keys. */
export const newRunId = () => `r${Date.now().toString(36)}${randomBytes(6).toString("hex")}`;

/** Idempotency-Key (and syncBatchId) of batch `batchNo` (1-based) of a run. */
export const idempotencyKey = (runId: string, batchNo: number) => `${runId}-${batchNo}`;

export class StateFileError extends Error {
  override name = "StateFileError";
}

/** The state, or null when there is no file. A file that is not a state (or of another version) is an error, never silently replaced. */
export async function readState(path: string): Promise<SyncState | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(`${path} is not a JSON state file; remove it or pass --state with another path`);
  }
  const parsed = SyncState.safeParse(json);
  if (!parsed.success)
    throw new StateFileError(
      `${path} is not an insp-sync state file (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}); remove it or pass --restart`,
    );
  return parsed.data;
}

/**
 * Writes the state so that a crash at any moment leaves either the old or the new file:
 * a temporary file beside it, flushed to disk, then renamed over it (rename is atomic
 * within a file system).
 */
export async function writeState(path: string, state: SyncState): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  const fh = await open(tmp, "w");
  try {
    await fh.writeFile(JSON.stringify(state, null, 2) + "\n");
    await fh.datasync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** What identifies an input's content cheaply: its size and modification time. */
export async function fileIdentity(path: string): Promise<{ path: string; size: number; mtimeMs: number }> {
  const s = await stat(path);
  return { path, size: s.size, mtimeMs: Math.floor(s.mtimeMs) };
}

/** Why a state cannot continue with this input and mapping, or null when it can. */
export type Reading = NonNullable<SyncState["reading"]>;

export function resumeMismatch(state: SyncState, input: { size: number; mtimeMs: number }, mappingHash: string, reading?: Reading): string | null {
  if (state.input.size !== input.size || state.input.mtimeMs !== input.mtimeMs) {
    return `the input changed since the interrupted run (size ${state.input.size} -> ${input.size}, modified ${new Date(state.input.mtimeMs).toISOString()} -> ${new Date(input.mtimeMs).toISOString()})`;
  }
  if (state.mappingHash !== mappingHash) return "the mapping file changed since the interrupted run";
  if (state.reading && reading) {
    const was = state.reading;
    const changed = (["format", "batchSize", "delimiter", "jsonKey"] as const)
      .filter((k) => was[k] !== reading[k])
      .map((k) => `${k} ${String(was[k] ?? "(default)")} -> ${String(reading[k] ?? "(default)")}`);
    if (changed.length) return `the options that cut the input into batches changed since the interrupted run (${changed.join(", ")})`;
  }
  return null;
}
