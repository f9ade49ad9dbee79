import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { idempotencyKeys } from "@insp/db/schema";
import { stableJson } from "../stable-json.ts";

/**
 * `Idempotency-Key` on POST /api/v1/sync/employees (extension). A key names one sync
 * request of an organization for 24 hours: the same key with the same body is
 * answered from that request (its stored 200 body, or its progress while it runs);
 * with another body, 422. The key is claimed in the transaction that records the
 * request, so of two concurrent requests with one key only one does the work; the
 * other waits for that commit and attaches to the same request.
 */

export const SYNC_IDEMPOTENCY_SCOPE = "employee-sync";
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface SyncKey {
  organizationId: string;
  key: string;
}

export type SyncClaim = { kind: "new" } | { kind: "replay"; body: unknown } | { kind: "attach"; requestId: string } | { kind: "mismatch" };

/** What makes two sync requests "the same": the body, key order in objects aside. */
export const syncRequestHash = (body: unknown) => createHash("sha256").update(stableJson(body)).digest("hex");

const where = (k: SyncKey) => and(eq(idempotencyKeys.organizationId, k.organizationId), eq(idempotencyKeys.scope, SYNC_IDEMPOTENCY_SCOPE), eq(idempotencyKeys.key, k.key));

/** Claims the key (new, or expired and taken over), or says what the earlier request left. */
export async function claimSyncKey(tx: DbOrTx, k: SyncKey, hash: string): Promise<SyncClaim> {
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ organizationId: k.organizationId, scope: SYNC_IDEMPOTENCY_SCOPE, key: k.key, requestHash: hash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.organizationId, idempotencyKeys.scope, idempotencyKeys.key],
      set: { requestHash: hash, responseStatus: null, responseBody: null, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
    })
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return { kind: "new" };
  const [row] = await tx.select().from(idempotencyKeys).where(where(k)).limit(1);
  if (!row) return { kind: "new" };
  if (row.requestHash !== hash) return { kind: "mismatch" };
  if (row.responseStatus === 200) return { kind: "replay", body: row.responseBody };
  const requestId = (row.responseBody as { requestId?: string } | null)?.requestId;
  return requestId ? { kind: "attach", requestId } : { kind: "new" };
}

/** The request the key belongs to, noted in the same transaction that records it. */
export async function noteSyncKeyRequest(tx: DbOrTx, k: SyncKey, requestId: string): Promise<void> {
  await tx.update(idempotencyKeys).set({ responseBody: { requestId } }).where(where(k));
}

/** The final answer, replayed for later requests with the same key and body. */
export async function storeSyncKeyResponse(db: DbOrTx, k: SyncKey, body: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ responseStatus: 200, responseBody: body }).where(where(k));
}

export async function releaseSyncKey(db: DbOrTx, k: SyncKey): Promise<void> {
  await db.delete(idempotencyKeys).where(where(k));
}

/** Housekeeping: sync keys past their 24 hours. */
export async function expireSyncKeys(db: DbOrTx): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, SYNC_IDEMPOTENCY_SCOPE), sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
