import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { idempotencyKeys } from "@insp/db/schema";
import { badRequest } from "../errors.ts";

/** How long a key answers with its first result (DESIGN.md: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface IdempotencyRef {
  organizationId: string;
  scope: string;
  key: string;
}

export type IdempotencyClaim =
  /** This request owns the key: run it, then record or release. */
  | { kind: "new" }
  /** A finished earlier request with the same body: answer with its result. */
  | { kind: "replay"; status: number; body: unknown }
  /** Same key, different body. */
  | { kind: "mismatch" }
  /** An earlier request with the same body is still running; `ref` is what it recorded so far (e.g. {importId}). */
  | { kind: "pending"; ref: unknown };

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header value, checked; undefined when absent. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_RE.test(header)) throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters");
  return header;
}

/*
 * Idempotency-Key for POST /api/inspections. Unlike a request that finishes in one transaction,
 * an import stays pending while the worker runs, so the key records progress ({importId}) and a
 * repeated request waits for that import instead of starting another.
 */

/**
 * SHA-256 of a JSON value in canonical form (object keys sorted), fed piece by piece so a
 * body with megabytes of base64 is not serialized into a second copy.
 */
export function hashJson(value: unknown): string {
  const h = createHash("sha256");
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) return void h.update("n");
    if (typeof v === "string") return void h.update(`s${v.length}:`).update(v);
    if (typeof v === "number" || typeof v === "boolean") return void h.update(`${typeof v}:${String(v)};`);
    if (Array.isArray(v)) {
      h.update(`a${v.length}[`);
      v.forEach(walk);
      return void h.update("]");
    }
    if (typeof v === "object") {
      const keys = Object.keys(v as object).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
      h.update(`o${keys.length}{`);
      for (const k of keys) {
        h.update(`k${k.length}:${k}`);
        walk((v as Record<string, unknown>)[k]);
      }
      return void h.update("}");
    }
    h.update("?");
  };
  walk(value);
  return h.digest("hex");
}

const where = (r: IdempotencyRef) => and(eq(idempotencyKeys.organizationId, r.organizationId), eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key));

/**
 * Claims a key for a request. Exactly one of concurrent requests with a new key gets "new"
 * (insert ... on conflict do nothing). A key older than 24 hours, or a pending one with no
 * progress recorded for `staleMs` (its request died before it did anything), is taken over.
 */
export async function claimIdempotencyKey(db: DbOrTx, r: IdempotencyRef, requestHash: string, opts: { staleMs: number }): Promise<IdempotencyClaim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ organizationId: r.organizationId, scope: r.scope, key: r.key, requestHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { kind: "new" };
    const [row] = await db.select().from(idempotencyKeys).where(where(r));
    if (!row) continue; // deleted in between: try again
    const age = Date.now() - row.createdAt.getTime();
    const abandoned = row.responseStatus === null && row.responseBody === null && age > opts.staleMs;
    if (age > IDEMPOTENCY_TTL_MS || abandoned) {
      // Re-checked in SQL so only one of concurrent requests takes the key over.
      const takeable = sql`(${idempotencyKeys.createdAt} < now() - ${IDEMPOTENCY_TTL_MS} * interval '1 millisecond'
        or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.responseBody} is null
            and ${idempotencyKeys.createdAt} < now() - ${opts.staleMs} * interval '1 millisecond'))`;
      const taken = await db
        .update(idempotencyKeys)
        .set({ requestHash, responseStatus: null, responseBody: null, createdAt: sql`now()` })
        .where(and(where(r), takeable))
        .returning({ key: idempotencyKeys.key });
      if (taken.length) return { kind: "new" };
      continue;
    }
    if (row.requestHash !== requestHash) return { kind: "mismatch" };
    if (row.responseStatus !== null) return { kind: "replay", status: row.responseStatus, body: row.responseBody };
    return { kind: "pending", ref: row.responseBody };
  }
  throw new Error("could not claim the idempotency key");
}

/** Progress of the owning request (the key stays pending), e.g. {importId} once the work is queued. */
export async function noteIdempotencyProgress(db: DbOrTx, r: IdempotencyRef, ref: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ responseBody: ref }).where(and(where(r), isNull(idempotencyKeys.responseStatus)));
}

/** The final result, replayed to every later request with the same key and body for 24 hours. */
export async function recordIdempotentResponse(db: DbOrTx, r: IdempotencyRef, status: number, body: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(where(r));
}

/** Gives a pending key up so the same request can be retried (e.g. after a server-side failure). */
export async function releaseIdempotencyKey(db: DbOrTx, r: IdempotencyRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(where(r), isNull(idempotencyKeys.responseStatus)));
}

/** Housekeeping: keys of `scope` past their 24 hours. */
export async function deleteExpiredKeys(db: DbOrTx, scope: string): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), sql`${idempotencyKeys.createdAt} < now() - interval '24 hours'`))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
