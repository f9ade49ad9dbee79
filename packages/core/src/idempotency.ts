import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { retryWhileUnreachable, type Db, type DbOrTx, type Tx } from "@insp/db";
import { idempotencyKeys } from "@insp/db/schema";
import { AppError, badRequest } from "./errors.ts";

/**
 * `Idempotency-Key` (extension) for POST /api/inspections and POST /api/v1/sync/employees,
 * one table, one scope per endpoint, one flow (`withIdempotency`). A key names one request of an
 * organization for 24 hours (docs/inspections.md, Idempotency-Key): the same key with the same
 * body gets the first request's outcome, or waits for the first request while it runs; another
 * body is a 422 (the caller's wording).
 *
 * A key row is pending while its request runs. The request can note its progress in it
 * (`{importId}`, `{requestId}`), so a repeat knows what to wait for, then records its final
 * domain outcome or releases the key so the same request can be retried. What is stored is the
 * outcome, never an HTTP answer: the route turns a fresh and a replayed outcome into HTTP with
 * the same function, so a replay cannot drift from the first answer.
 */

/** The one answer to a key sent again with another body, whichever endpoint it names. */
const IDEMPOTENCY_MISMATCH = "Idempotency-Key was already used with a different request body";

/** How long a key answers with its first result. */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface IdempotencyRef {
  organizationId: string;
  /** The endpoint, e.g. "inspections" or "employee-sync". */
  scope: string;
  key: string;
}

/** An outcome and whether it was recorded by an earlier request with the same key and body. */
export interface Idempotent<O> {
  outcome: O;
  replayed: boolean;
}

/** Records progress of the request that owns the key, e.g. {importId} once its work is queued. */
type NoteProgress = (progress: unknown) => Promise<void>;

/** What an outcome does to its key. */
export type KeyFate =
  /** Final: replayed to every repeat for 24 hours. */
  | "record"
  /** The work goes on (or the repeat could not tell yet): the key stays pending. */
  | "keep"
  /** Nothing stays that a retry would repeat: the key is given up so the same request can be sent again. */
  | "release";

/**
 * One endpoint's idempotent work. `S` is what `begin` hands to `run`. Without an
 * Idempotency-Key the same work runs, minus everything about the key.
 */
export interface IdempotentWork<O, S = void> {
  /**
   * The first part of the work, in the transaction that claims the key: what it writes commits
   * with the claim, and a concurrent request with the same key waits for that commit and then
   * sees the progress noted here. Optional; a throw rolls the claim back with the rest.
   */
  begin?: (tx: Tx, note: NoteProgress) => Promise<S>;
  /**
   * The work of the request that owns the key. A throw releases the key (and is rethrown), but
   * with `keepWhenNoted` only while no progress was noted. `noteIn` notes progress inside a
   * transaction of the work, so the note commits, or not, with what it refers to.
   */
  run: (started: S, note: NoteProgress, noteIn: (tx: Tx, progress: unknown) => Promise<void>) => Promise<O>;
  /**
   * A throw from `run` after it noted progress keeps the key pending: what the progress refers to
   * may have committed (a lost connection can hide a commit that happened), so a retry attaches
   * to it instead of doing the work a second time.
   */
  keepWhenNoted?: boolean;
  /** A repeat while the first request is running: what to answer, given the progress it noted (null before any). */
  attach: (progress: unknown) => Promise<O>;
  /** What each outcome, of `run` or of `attach`, does to the key. */
  fate: (outcome: O) => KeyFate;
  /** A recorded outcome as read back from jsonb (which keeps no key order). */
  revive: (recorded: unknown) => O;
  /**
   * A row recorded before outcomes were (an HTTP status and body): the outcome that gave that
   * answer. Remove with the response_status column, a release after migration 0012.
   */
  fromResponse: (status: number, body: unknown) => O;
  /** A pending key with no progress noted for this long is taken over (its request died before doing anything). */
  staleMs?: number;
}

/**
 * Runs one request's work under its Idempotency-Key (`ref`; null without one): claims the key
 * (a 422 when it was used with another body), then runs the work, attaches to the first request
 * still running, or replays its recorded outcome. Every outcome then records the key, keeps it
 * pending or releases it, as `work.fate` says.
 */
export async function withIdempotency<O, S = void>(db: Db, ref: IdempotencyRef | null, body: unknown, work: IdempotentWork<O, S>): Promise<Idempotent<O>> {
  const fresh = (outcome: O): Idempotent<O> => ({ outcome, replayed: false });
  if (!ref) {
    const started = work.begin ? await db.transaction((tx) => work.begin!(tx, noNote)) : (undefined as S);
    return fresh(await work.run(started, noNote, noNoteIn));
  }

  const hash = requestHash(body);
  const opts = { staleMs: work.staleMs };
  const claimed = work.begin
    ? await db.transaction(async (tx) => {
        const claim = await claimKey(tx, ref, hash, opts);
        return claim.kind === "new" ? { kind: "begun" as const, started: await work.begin!(tx, (p) => noteProgress(tx, ref, p)) } : claim;
      })
    : await claimKey(db, ref, hash, opts);
  switch (claimed.kind) {
    case "outcome":
      return { outcome: work.revive(claimed.outcome), replayed: true };
    case "response":
      return { outcome: work.fromResponse(claimed.status, claimed.body), replayed: true };
    case "pending":
      return fresh(await settle(db, ref, work.fate, await work.attach(claimed.progress)));
  }
  const started = claimed.kind === "begun" ? claimed.started : (undefined as S);
  let outcome: O;
  try {
    outcome = await work.run(
      started,
      (p) => noteProgress(db, ref, p),
      (tx, p) => noteProgress(tx, ref, p),
    );
  } catch (err) {
    // The error rethrown says what went wrong.
    await (work.keepWhenNoted ? releaseKeyUnnoted(db, ref) : releaseKey(db, ref)).catch(() => {});
    throw err;
  }
  return fresh(await settle(db, ref, work.fate, outcome));
}

const noNote: NoteProgress = async () => {};
const noNoteIn = async () => {};

async function settle<O>(db: Db, ref: IdempotencyRef, fateOf: (outcome: O) => KeyFate, outcome: O): Promise<O> {
  const fate = fateOf(outcome);
  if (fate === "record") await recordOutcome(db, ref, outcome);
  else if (fate === "release") await releaseKey(db, ref);
  return outcome;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header value, checked (400 when malformed); undefined when absent. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_RE.test(header)) throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters");
  return header;
}

/** A piece of the canonical form, as opposed to a value still to walk. */
class Piece {
  constructor(readonly text: string) {}
}

/**
 * What makes two requests "the same": SHA-256 of the JSON value in canonical form (object
 * keys sorted, undefined members dropped). Fed piece by piece, so a body with megabytes of
 * base64 is not serialized into a second copy, and walked without recursion, so a deeply
 * nested body cannot overflow the stack.
 */
export function requestHash(value: unknown): string {
  const h = createHash("sha256");
  const todo: unknown[] = [value];
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Piece) h.update(v.text);
    else if (v === null || v === undefined) h.update("n");
    else if (typeof v === "string") h.update(`s${v.length}:`).update(v);
    else if (typeof v === "number" || typeof v === "boolean") h.update(`${typeof v}:${String(v)};`);
    else if (Array.isArray(v)) {
      h.update(`a${v.length}[`);
      todo.push(new Piece("]"));
      for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
    } else if (typeof v === "object") {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      h.update(`o${keys.length}{`);
      todo.push(new Piece("}"));
      for (let i = keys.length - 1; i >= 0; i--) todo.push(o[keys[i]!], new Piece(`k${keys[i]!.length}:${keys[i]}`));
    } else h.update("?");
  }
  return h.digest("hex");
}

const where = (r: IdempotencyRef) =>
  and(eq(idempotencyKeys.organizationId, r.organizationId), eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key));
/** Not recorded yet, in either shape. */
const pending = and(isNull(idempotencyKeys.outcome), isNull(idempotencyKeys.responseStatus));

type Claim =
  /** This request owns the key: run it, then record or release. */
  | { kind: "new" }
  /** A finished earlier request with the same body: its outcome. */
  | { kind: "outcome"; outcome: unknown }
  /** The same, recorded before outcomes were: its HTTP answer. */
  | { kind: "response"; status: number; body: unknown }
  /** An earlier request with the same body is still running; `progress` is what it noted (null before any). */
  | { kind: "pending"; progress: unknown };

/**
 * Claims a key for a request: one insert that also takes over a key past its 24 hours, or a
 * pending one with no progress noted for `staleMs` (its request died before doing anything),
 * then, when someone else holds the key, one select of what they left. Of concurrent requests
 * with one key exactly one gets "new". Inside a transaction (the sync claims the key in the
 * transaction that records its request) a concurrent claim waits for that transaction and
 * then sees its committed row. The same key with another body throws a 422 (IDEMPOTENCY_MISMATCH).
 */
async function claimKey(db: DbOrTx, r: IdempotencyRef, hash: string, opts: { staleMs?: number | undefined }): Promise<Claim> {
  const expired = sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`;
  const takeable =
    opts.staleMs === undefined
      ? expired
      : sql`(${expired} or (${pending} and ${idempotencyKeys.progress} is null
            and ${idempotencyKeys.createdAt} < now() - ${opts.staleMs} * interval '1 millisecond'))`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ organizationId: r.organizationId, scope: r.scope, key: r.key, requestHash: hash })
      .onConflictDoUpdate({
        target: [idempotencyKeys.organizationId, idempotencyKeys.scope, idempotencyKeys.key],
        set: { requestHash: hash, responseStatus: null, progress: null, outcome: null, createdAt: sql`now()` },
        setWhere: takeable,
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) return { kind: "new" };
    const [row] = await db.select().from(idempotencyKeys).where(where(r)).limit(1);
    if (!row) continue; // released or expired in between: claim again
    if (row.requestHash !== hash) throw new AppError("idempotency_mismatch", IDEMPOTENCY_MISMATCH);
    // A status first: this release never writes one and clears it when taking a key over, so a
    // row with both was taken over and recorded by the previous release during a rolling update.
    if (row.responseStatus !== null) return { kind: "response", status: row.responseStatus, body: row.progress };
    if (row.outcome !== null) return { kind: "outcome", outcome: row.outcome };
    return { kind: "pending", progress: row.progress };
  }
  throw new Error("could not claim the idempotency key");
}

/** Progress of the owning request (the key stays pending), e.g. {importId} once the work is queued. */
async function noteProgress(db: DbOrTx, r: IdempotencyRef, progress: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ progress })
    .where(and(where(r), pending));
}

/**
 * The final outcome, replayed to every later request with the same key and body for 24 hours.
 * The noted progress stays: the previous release reads a row without a status as pending, and
 * during a rolling update it then attaches to the same import or sync request.
 */
async function recordOutcome(db: DbOrTx, r: IdempotencyRef, outcome: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ outcome }).where(where(r));
}

/**
 * Gives a pending key up so the same request can be retried (e.g. after a server-side failure).
 * A recorded outcome stays. Tried again through a dropped connection: a key left pending would
 * answer the client's retries with 409 until it goes stale.
 */
async function releaseKey(db: DbOrTx, r: IdempotencyRef): Promise<void> {
  await retryWhileUnreachable(() => db.delete(idempotencyKeys).where(and(where(r), pending)));
}

/** Gives a pending key up only while its request has noted no progress (keepWhenNoted). */
async function releaseKeyUnnoted(db: DbOrTx, r: IdempotencyRef): Promise<void> {
  await retryWhileUnreachable(() => db.delete(idempotencyKeys).where(and(where(r), pending, isNull(idempotencyKeys.progress))));
}

/** Housekeeping: keys of every scope past their 24 hours. */
export async function expireKeys(db: DbOrTx): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`)
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
