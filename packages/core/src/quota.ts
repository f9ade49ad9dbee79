import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { AppError } from "./errors.ts";

/**
 * Quotas of rows per organization (docs/operations.md "Quotas per organization"): webhook
 * endpoints, credentials, directory rows, schedules and template versions. Only deleting makes
 * room, so a create past one is a 409 saying which setting and how to make room. Callers leave
 * `max` undefined where nothing is limited (the operator's admin CLI).
 */
export interface RowQuota {
  /** Names the transaction-scoped advisory lock with the organization: one per counted kind. */
  key: string;
  /** How many the organization has now; counted under the lock, so two creates at once cannot both take the last place. */
  count: SQL | SQLWrapper;
  max: number | undefined;
  /** The message's words: "webhook endpoints", "active API keys", "sites". */
  what: string;
  setting: string;
  /** What makes room: "delete one it no longer needs first (DELETE /api/webhooks/{id})". */
  room: string;
}

/** The 409 message of a quota that is full: shared with SCIM, which answers in its own error shape. */
export const quotaMessage = (q: Pick<RowQuota, "what" | "setting" | "room">, n: number, max: number) =>
  `This organization already has ${n} ${q.what} (at most ${max}: ${q.setting}); ${q.room}`;

/** Refuses (409) one more row past the quota; call it in the transaction that inserts the row. */
export async function assertRoom(tx: DbOrTx, organizationId: string, q: RowQuota): Promise<void> {
  if (q.max === undefined) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${q.key}:${organizationId}`}, 0))`);
  const [row] = await tx.execute<{ n: number }>(sql`select (${q.count})::int as n`);
  const n = Number(row?.n ?? 0);
  if (n >= q.max) throw new AppError("conflict", quotaMessage(q, n, q.max));
}
