import { isoText, type Db } from "@insp/db";
import { badRequest } from "../errors.ts";

export interface AuditQuery {
  action?: string;
  actorId?: string;
  resourceType?: string;
  resourceId?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: string; id: string | null };
  action: string;
  resourceType: string;
  resourceId: string | null;
  changedFields: string[];
  requestId: string | null;
}

const encode = (seq: string) => Buffer.from(`a.${seq}`).toString("base64url");
function decode(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === "") return null;
  const m = /^a\.(\d{1,19})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  if (!m || BigInt(m[1]!) > 2n ** 63n - 1n) throw badRequest("cursor is not a cursor this list returned");
  return m[1]!;
}

/**
 * The organization's audit entries, newest first, with filters; `nextCursor` continues with
 * older entries (stable while new ones are written: entries are ordered by their sequence).
 */
export async function listAudit(db: Db, organizationId: string, q: AuditQuery): Promise<{ items: AuditEntry[]; nextCursor: string | null; hasMore: boolean }> {
  const sql = db.$client;
  const before = decode(q.cursor);
  const cond = [sql`organization_id = ${organizationId}`];
  if (q.action !== undefined) cond.push(sql`action = ${q.action}`);
  if (q.actorId !== undefined) cond.push(sql`actor_id = ${q.actorId}`);
  if (q.resourceType !== undefined) cond.push(sql`resource_type = ${q.resourceType}`);
  if (q.resourceId !== undefined) cond.push(sql`resource_id = ${q.resourceId}`);
  if (q.since !== undefined) cond.push(sql`created_at >= ${q.since}::timestamptz`);
  if (q.until !== undefined) cond.push(sql`created_at < ${q.until}::timestamptz`);
  if (before !== null) cond.push(sql`seq < ${before}::bigint`);
  const where = cond.reduce((a, c) => sql`${a} and ${c}`);
  // Ordered by the column, not by the text alias of the same name (as text, '9' sorts after '10').
  const rows = await sql<
    {
      seq: string;
      id: string;
      at: string;
      actor_type: string;
      actor_id: string | null;
      action: string;
      resource_type: string;
      resource_id: string | null;
      changed_fields: string[];
      request_id: string | null;
    }[]
  >`
    select seq::text as seq, id, ${sql.unsafe(isoText("created_at"))} as at, actor_type, actor_id, action, resource_type, resource_id, changed_fields, request_id
    from audit_log where ${where} order by audit_log.seq desc limit ${q.limit + 1}`;
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      at: r.at,
      actor: { type: r.actor_type, id: r.actor_id },
      action: r.action,
      resourceType: r.resource_type,
      resourceId: r.resource_id,
      changedFields: r.changed_fields,
      requestId: r.request_id,
    })),
    nextCursor: rows.length > q.limit ? encode(page.at(-1)!.seq) : null,
    hasMore: rows.length > q.limit,
  };
}

/** Retention: entries older than `days` (AUDIT_RETENTION_DAYS), a batch at a time. Returns how many. */
export async function deleteOldAudit(db: Db, days: number, batch = 10_000): Promise<number> {
  const sql = db.$client;
  let total = 0;
  for (;;) {
    // By row address: the BRIN index finds the old rows, no other index is needed.
    const gone =
      await sql`delete from audit_log where ctid = any(array(select ctid from audit_log where created_at < now() - make_interval(days => ${days}) limit ${batch}))`;
    total += gone.count;
    if (gone.count < batch) return total;
  }
}
