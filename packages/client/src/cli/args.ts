import { parseArgs } from "node:util";
import type { InputFormat } from "../input/types.ts";
import type { SessionScope } from "../sessions/types.ts";
import { MAX_BATCH_SIZE } from "../sync/batches.ts";
import { UsageError } from "./exit-codes.ts";

export interface CliOptions {
  input: string;
  mapping?: string;
  format?: InputFormat;
  delimiter?: string;
  jsonKey?: string;
  url?: string;
  clientId?: string;
  clientSecretFile?: string;
  state?: string;
  errors?: string;
  restart: boolean;
  force: boolean;
  dryRun: boolean;
  async: boolean;
  concurrency: number;
  batchSize: number;
  maxAttempts: number;
  snapshot: boolean;
  scope: SessionScope;
  commitDryRun: boolean;
  progressIntervalSeconds: number;
}

const spec = {
  mapping: { type: "string", short: "m" },
  format: { type: "string" },
  delimiter: { type: "string" },
  "json-key": { type: "string" },
  url: { type: "string" },
  "client-id": { type: "string" },
  "client-secret-file": { type: "string" },
  state: { type: "string" },
  errors: { type: "string" },
  restart: { type: "boolean", default: false },
  force: { type: "boolean", default: false },
  "dry-run": { type: "boolean", default: false },
  async: { type: "boolean", default: false },
  concurrency: { type: "string" },
  "batch-size": { type: "string" },
  "max-attempts": { type: "string" },
  snapshot: { type: "boolean", default: false },
  "scope-department": { type: "string" },
  "scope-site": { type: "string" },
  "scope-metadata": { type: "string" },
  "commit-dry-run": { type: "boolean", default: false },
  "progress-interval": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

function int(name: string, v: string | undefined, def: number, min: number, max: number): number {
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${v}')`);
  return n;
}

/** Parses the command line; null means --help. Throws UsageError with a message for the user. */
export function parseCli(argv: string[]): CliOptions | null {
  if (argv.some((a) => a === "--client-secret" || a.startsWith("--client-secret="))) {
    throw new UsageError(
      "--client-secret is not accepted: a secret on the command line shows in the process list and shell history; set INSP_CLIENT_SECRET or use --client-secret-file",
    );
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return null;
  if (parsed.positionals.length !== 1)
    throw new UsageError(parsed.positionals.length ? `one input file expected, got ${parsed.positionals.length}` : "the input file is missing");
  if (v.format !== undefined && !["csv", "json", "jsonl"].includes(v.format)) throw new UsageError(`--format must be csv, json or jsonl (got '${v.format}')`);
  const scope: SessionScope = {};
  if (v["scope-department"]) scope.department = v["scope-department"];
  if (v["scope-site"]) scope.siteId = v["scope-site"];
  if (v["scope-metadata"]) {
    const i = v["scope-metadata"].indexOf("=");
    if (i <= 0) throw new UsageError(`--scope-metadata must be key=value (got '${v["scope-metadata"]}')`);
    scope.metadata = { key: v["scope-metadata"].slice(0, i), value: v["scope-metadata"].slice(i + 1) };
  }
  const snapshotOnly = Object.keys(scope).length > 0 || v["commit-dry-run"];
  if (snapshotOnly && !v.snapshot) throw new UsageError("--scope-* and --commit-dry-run need --snapshot");
  if (v.snapshot && v["dry-run"])
    throw new UsageError(
      "--dry-run cannot be combined with --snapshot (a dry run records nothing in the session); use --commit-dry-run to preview the deactivations",
    );
  if (v.restart && v.force) throw new UsageError("--restart and --force contradict each other: --restart ignores the state file, --force resumes from it");
  return {
    input: parsed.positionals[0]!,
    ...(v.mapping !== undefined && { mapping: v.mapping }),
    ...(v.format !== undefined && { format: v.format as InputFormat }),
    ...(v.delimiter !== undefined && { delimiter: v.delimiter === "\\t" ? "\t" : v.delimiter }),
    ...(v["json-key"] !== undefined && { jsonKey: v["json-key"] }),
    ...(v.url !== undefined && { url: v.url }),
    ...(v["client-id"] !== undefined && { clientId: v["client-id"] }),
    ...(v["client-secret-file"] !== undefined && { clientSecretFile: v["client-secret-file"] }),
    ...(v.state !== undefined && { state: v.state }),
    ...(v.errors !== undefined && { errors: v.errors }),
    restart: v.restart,
    force: v.force,
    dryRun: v["dry-run"],
    async: v.async,
    concurrency: int("concurrency", v.concurrency, 2, 1, 16),
    batchSize: int("batch-size", v["batch-size"], MAX_BATCH_SIZE, 1, MAX_BATCH_SIZE),
    maxAttempts: int("max-attempts", v["max-attempts"], 8, 1, 100),
    snapshot: v.snapshot,
    scope,
    commitDryRun: v["commit-dry-run"],
    progressIntervalSeconds: int("progress-interval", v["progress-interval"], 5, 1, 3600),
  };
}
