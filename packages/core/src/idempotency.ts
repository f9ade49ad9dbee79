import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { retryWhileUnreachable, type DbOrTx } from "@insp/db";
import { idempotencyKeys } from "@insp/db/schema";
import { AppError, badRequest } from "./errors.ts";

/**
 * `Idempotency-Key` (extension) for POST /api/inspections and POST /api/v1/sync/employees,
 * one table, one scope per endpoint. A key names one request of an organization for 24 hours
 * (docs/inspections.md, Idempotency-Key): the same key with the same body gets the first answer, or waits for the first
 * request while it runs; another body is a 422 (the caller's wording).
 *
 * A key row is pending (no response status) while its request runs. The request can note
 * its progress in it (`{importId}`, `{requestId}`), so a repeat knows what to wait for, then
 * records its final answer or releases the key so the same request can be retried.
 */

/** The one answer to a key sent again with another body, whichever endpoint it names. */
export const IDEMPOTENCY_MISMATCH = "Idempotency-Key was already used with a different request body";

/** How long a key answers with its first result. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface IdempotencyRef {
  organizationId: string;
  /** The endpoint, e.g. "inspections" or "employee-sync". */
  scope: string;
  key: string;
}

export type IdempotencyClaim =
  /** This request owns the key: run it, then record or release. */
  | { kind: "new" }
  /** A finished earlier request with the same body: answer with its result. */
  | { kind: "replay"; status: number; body: unknown }
  /** An earlier request with the same body is still running; `ref` is the progress it noted (null before any). */
  | { kind: "pending"; ref: unknown };

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

const where = (r: IdempotencyRef) => and(eq(idempotencyKeys.organizationId, r.organizationId), eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key));

/**
 * Claims a key for a request: one insert that also takes over a key past its 24 hours, or a
 * pending one with no progress noted for `staleMs` (its request died before doing anything),
 * then, when someone else holds the key, one select of what they left. Of concurrent requests
 * with one key exactly one gets "new". Inside a transaction (the sync claims the key in the
 * transaction that records its request) a concurrent claim waits for that transaction and
 * then sees its committed row. The same key with another body throws a 422 (IDEMPOTENCY_MISMATCH).
 */
export async function claimKey(db: DbOrTx, r: IdempotencyRef, hash: string, opts: { staleMs?: number } = {}): Promise<IdempotencyClaim> {
  const expired = sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`;
  const takeable =
    opts.staleMs === undefined
      ? expired
      : sql`(${expired} or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.responseBody} is null
            and ${idempotencyKeys.createdAt} < now() - ${opts.staleMs} * interval '1 millisecond'))`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ organizationId: r.organizationId, scope: r.scope, key: r.key, requestHash: hash })
      .onConflictDoUpdate({
        target: [idempotencyKeys.organizationId, idempotencyKeys.scope, idempotencyKeys.key],
        set: { requestHash: hash, responseStatus: null, responseBody: null, createdAt: sql`now()` },
        setWhere: takeable,
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) return { kind: "new" };
    const [row] = await db.select().from(idempotencyKeys).where(where(r)).limit(1);
    if (!row) continue; // released or expired in between: claim again
    if (row.requestHash !== hash) throw new AppError("idempotency_mismatch", IDEMPOTENCY_MISMATCH);
    if (row.responseStatus !== null) return { kind: "replay", status: row.responseStatus, body: row.responseBody };
    return { kind: "pending", ref: row.responseBody };
  }
  throw new Error("could not claim the idempotency key");
}

/** Progress of the owning request (the key stays pending), e.g. {importId} once the work is queued. */
export async function noteProgress(db: DbOrTx, r: IdempotencyRef, ref: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ responseBody: ref }).where(and(where(r), isNull(idempotencyKeys.responseStatus)));
}

/** The final answer, replayed to every later request with the same key and body for 24 hours. */
export async function recordResponse(db: DbOrTx, r: IdempotencyRef, status: number, body: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(where(r));
}

/**
 * Gives a pending key up so the same request can be retried (e.g. after a server-side failure).
 * A recorded answer stays. Tried again through a dropped connection: a key left pending would
 * answer the client's retries with 409 until it goes stale.
 */
export async function releaseKey(db: DbOrTx, r: IdempotencyRef): Promise<void> {
  await retryWhileUnreachable(() => db.delete(idempotencyKeys).where(and(where(r), isNull(idempotencyKeys.responseStatus))));
}

/** Housekeeping: keys of every scope past their 24 hours. */
export async function expireKeys(db: DbOrTx): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'`)
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
