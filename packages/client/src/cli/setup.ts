import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatFromPath, type InputFormat } from "../input/types.ts";
import { parseMapping, type Mapping } from "../mapping/schema.ts";
import { StateFileError, fileIdentity, newRunId, readState, resumeMismatch, zeroCounts, type Reading, type SyncState } from "../state/state-file.ts";
import type { CliOptions } from "./args.ts";
import type { CliEnv } from "./env.ts";
import { UsageError } from "./exit-codes.ts";

export interface RunConfig {
  input: string;
  format: InputFormat;
  inputSize: number;
  mapping: Mapping | null;
  credentials: { url: string; clientId: string; clientSecret: string };
  /** null for a dry run, which keeps no state (it writes nothing, so there is nothing to resume). */
  statePath: string | null;
  state: SyncState;
  resumed: boolean;
  /** What a resumed run should say first (changed input accepted with --force, ...). */
  notes: string[];
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read the ${what} ${file}: ${(err as Error).message}`);
  }
}

async function loadMapping(file: string | undefined): Promise<{ mapping: Mapping | null; hash: string }> {
  if (!file) return { mapping: null, hash: "" };
  const text = await readText(file, "mapping file");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the mapping file ${file} is not JSON: ${(err as Error).message}`);
  }
  const parsed = parseMapping(json);
  if (!parsed.ok) throw new UsageError(`the mapping file ${file} has problems:\n  ${parsed.problems.join("\n  ")}`);
  return { mapping: parsed.mapping, hash: createHash("sha256").update(text).digest("hex") };
}

async function credentials(opts: CliOptions, env: CliEnv): Promise<RunConfig["credentials"]> {
  const url = opts.url ?? env.url;
  const clientId = opts.clientId ?? env.clientId;
  const clientSecret = opts.clientSecretFile ? (await readText(opts.clientSecretFile, "client secret file")).trim() : env.clientSecret;
  const missing = [
    !url && "INSP_URL (or --url)",
    !clientId && "INSP_CLIENT_ID (or --client-id)",
    !clientSecret && "INSP_CLIENT_SECRET (or --client-secret-file)",
  ].filter(Boolean);
  if (missing.length) throw new UsageError(`missing ${missing.join(", ")}`);
  if (!/^https?:\/\//i.test(url!)) throw new UsageError(`the service URL must start with http:// or https:// (got '${url}')`);
  return { url: url!, clientId: clientId!, clientSecret: clientSecret! };
}

/** Everything a run needs, checked before anything is sent: each problem here is a usage error (exit 2). */
export async function setupRun(opts: CliOptions, env: CliEnv): Promise<RunConfig> {
  const input = path.resolve(opts.input);
  const format = opts.format ?? formatFromPath(input);
  if (!format) throw new UsageError(`cannot tell the format of ${opts.input} from its name: pass --format csv, json or jsonl`);
  let identity;
  try {
    identity = await fileIdentity(input);
  } catch (err) {
    throw new UsageError(`cannot read the input ${opts.input}: ${(err as Error).message}`);
  }
  const { mapping, hash } = await loadMapping(opts.mapping);
  const reading: Reading = {
    format,
    batchSize: opts.batchSize,
    ...(opts.delimiter !== undefined && { delimiter: opts.delimiter }),
    ...(opts.jsonKey !== undefined && { jsonKey: opts.jsonKey }),
  };
  const creds = await credentials(opts, env);
  const notes: string[] = [];
  const statePath = opts.dryRun ? null : path.resolve(opts.state ?? `${input}.insp-sync-state.json`);
  // A dry run has its own default errors CSV, so it never overwrites the one of a real run that may still be resumed.
  const errorsPath = path.resolve(opts.errors ?? `${input}${opts.dryRun ? ".dry-run" : ""}.errors.csv`);

  let prior: SyncState | null = null;
  if (statePath && !opts.restart) {
    try {
      prior = await readState(statePath);
    } catch (err) {
      if (err instanceof StateFileError) throw new UsageError(err.message);
      throw new UsageError(`cannot read the state file ${statePath}: ${(err as Error).message}`);
    }
  }
  if (prior?.done) {
    notes.push(`the previous run (${prior.runId}) completed; starting a new run`);
    prior = null;
  }
  if (prior) {
    if (path.resolve(prior.input.path) !== input)
      throw new UsageError(`the state file ${statePath} belongs to ${prior.input.path}; pass another --state, or --restart to start over`);
    const mismatch = resumeMismatch(prior, identity, hash, reading);
    if (mismatch && prior.nextRow === 1 && !prior.session) {
      // Nothing was acknowledged (e.g. the credentials were wrong): there is nothing to resume, only a fresh start.
      notes.push(`${mismatch}; the interrupted run had not synced any row, so a new run starts`);
      prior = null;
    }
  }
  if (prior) {
    const mismatch = resumeMismatch(prior, identity, hash, reading);
    if (mismatch && !opts.force)
      throw new UsageError(`cannot resume: ${mismatch}. Run again with --force to resume from row ${prior.nextRow} anyway, or --restart to start over`);
    if (mismatch) {
      // Batches from here hold other rows than before, so they must not reuse the old keys (the server would refuse them as a different body).
      notes.push(`${mismatch}; resuming from row ${prior.nextRow} anyway (--force) under a new run id`);
      prior = { ...prior, runId: newRunId(), input: identity, mappingHash: hash, reading };
    }
    if (prior.session && !opts.snapshot)
      throw new UsageError("the interrupted run used a snapshot session: add --snapshot to resume it, or --restart to start over");
    if (!prior.session && opts.snapshot && prior.nextRow > 1)
      throw new UsageError("the interrupted run did not use a snapshot session: --restart to start a snapshot run");
    if (opts.errors && path.resolve(opts.errors) !== prior.errorsCsv.path)
      notes.push(`continuing the errors CSV of the interrupted run, ${prior.errorsCsv.path}`);
  }
  const now = new Date().toISOString();
  const state: SyncState = prior ?? {
    version: 1,
    runId: newRunId(),
    input: identity,
    mappingHash: hash,
    reading,
    nextRow: 1,
    batches: 0,
    offset: 0,
    counts: zeroCounts(),
    errorsCsv: { path: errorsPath, bytes: 0 },
    done: false,
    startedAt: now,
    updatedAt: now,
  };
  return { input, format, inputSize: identity.size, mapping, credentials: creds, statePath, state, resumed: prior !== null, notes };
}
