import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { sites, syncSessionMembers, syncSessions } from "@insp/db/schema";
import { AppError, badRequest, isUuid, notFound } from "../errors.ts";
import { isSyncRequestDone } from "./requests.ts";

/**
 * Snapshot sessions: an HR system sends its whole population as batches of one session, then
 * commits it; who did not appear is deactivated (commit.ts). This file keeps the session itself:
 * opening it, recording who each batch named, and reading it back.
 */

/** Which employees a session speaks for; empty: all of the organization's. */
export interface SessionScope {
  department?: string;
  siteId?: string;
  metadata?: { key: string; value?: string };
}

type SessionStatus = "open" | "quarantined" | "committing" | "committed" | "cancelled" | "expired";

export interface DeactivationEntry {
  employeeId: string;
  externalEmployeeId: string;
  displayName: string | null;
}

export interface SessionView {
  sessionId: string;
  status: SessionStatus;
  scope: SessionScope;
  batches: number;
  employeesSeen: number;
  createdAt: string;
  expiresAt: string;
  committedAt: string | null;
  /** The sync request that applies the deactivations (its status URL shows the progress). */
  requestId: string | null;
  deactivated?: DeactivationEntry[];
  wouldDeactivate?: DeactivationEntry[];
  activeInScope?: number;
}

type SessionRow = typeof syncSessions.$inferSelect;

/** POST /api/v1/sync/sessions: a new open session of the organization, for `ttlHours`. */
export async function openSession(db: DbOrTx, organizationId: string, clientId: string | null, scope: SessionScope, ttlHours: number): Promise<SessionView> {
  if (scope.siteId !== undefined) {
    const site = isUuid(scope.siteId)
      ? await db
          .select({ id: sites.id })
          .from(sites)
          .where(and(eq(sites.organizationId, organizationId), eq(sites.id, scope.siteId)))
      : [];
    if (!site.length) throw badRequest(`scope.siteId '${scope.siteId}' is not a site of your organization`);
  }
  const [row] = await db
    .insert(syncSessions)
    .values({ organizationId, clientId, scope, expiresAt: sql`now() + make_interval(hours => ${ttlHours})` })
    .returning();
  return toView(row!, 0);
}

/**
 * In the transaction that records a batch: the session must be the organization's and open;
 * every externalEmployeeId the batch names is recorded as present, valid record or not. Counting
 * the batch locks the session row at once (no shared lock to upgrade, which made two batches
 * sent together deadlock): batches of one session are recorded one after the other (their
 * employees are still processed side by side), and a commit waits for those being recorded.
 */
export async function joinSession(tx: DbOrTx, organizationId: string, sessionId: string, externalEmployeeIds: (string | null)[]): Promise<void> {
  if (!isUuid(sessionId)) throw notFound(`Sync session ${sessionId} not found`);
  const [row] = await tx
    .update(syncSessions)
    .set({ batches: sql`${syncSessions.batches} + 1` })
    .where(and(eq(syncSessions.organizationId, organizationId), eq(syncSessions.id, sessionId)))
    .returning();
  if (!row) throw notFound(`Sync session ${sessionId} not found`);
  assertOpen(row); // throwing rolls the count back with the rest
  const ids = [...new Set(externalEmployeeIds.filter((x): x is string => typeof x === "string" && x !== ""))];
  if (ids.length) {
    await tx.execute(sql`
      insert into ${syncSessionMembers} (session_id, external_employee_id)
      select ${sessionId}::uuid, unnest(${sql.param(ids)}::text[]) on conflict do nothing`);
  }
}

/** The session row, locked; 404 for an unknown, malformed or another organization's id. */
export async function lockSession(tx: DbOrTx, organizationId: string, sessionId: string): Promise<SessionRow> {
  if (!isUuid(sessionId)) throw notFound(`Sync session ${sessionId} not found`);
  const [row] = await tx
    .select()
    .from(syncSessions)
    .where(and(eq(syncSessions.organizationId, organizationId), eq(syncSessions.id, sessionId)))
    .for("update");
  if (!row) throw notFound(`Sync session ${sessionId} not found`);
  return row;
}

/** An open session that has not run out its time; anything else is a 409 saying what it is. */
export function assertOpen(row: SessionRow): void {
  if (row.status === "open" && row.expiresAt.getTime() <= Date.now()) {
    throw new AppError("conflict", `Sync session ${row.id} has expired (at ${row.expiresAt.toISOString()}); start a new one`);
  }
  if (row.status !== "open") throw new AppError("conflict", `Sync session ${row.id} is ${row.status}; batches and commits need an open session`);
}

/**
 * GET /api/v1/sync/sessions/{id}. A committing session whose deactivations are all done is
 * committed from then on (no process has to be waiting for them to say so).
 */
export async function getSession(db: DbOrTx, organizationId: string, sessionId: string): Promise<SessionView> {
  if (!isUuid(sessionId)) throw notFound(`Sync session ${sessionId} not found`);
  const [row] = await db
    .select()
    .from(syncSessions)
    .where(and(eq(syncSessions.organizationId, organizationId), eq(syncSessions.id, sessionId)));
  if (!row) throw notFound(`Sync session ${sessionId} not found`);
  const view = toView(row, await membersCount(db, sessionId));
  if (view.status !== "committing" || !view.requestId || !(await isSyncRequestDone(db, organizationId, view.requestId))) return view;
  await db
    .update(syncSessions)
    .set({ status: "committed" })
    .where(and(eq(syncSessions.id, sessionId), eq(syncSessions.status, "committing")));
  return { ...view, status: "committed" };
}

/** The organization's sessions, newest first (the admin CLI's listing). */
export async function listSessions(db: DbOrTx, organizationId: string, limit = 100): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(syncSessions)
    .where(eq(syncSessions.organizationId, organizationId))
    .orderBy(sql`${syncSessions.createdAt} desc`)
    .limit(limit);
  return Promise.all(rows.map(async (r) => toView(r, await membersCount(db, r.id))));
}

export async function membersCount(db: DbOrTx, sessionId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(syncSessionMembers)
    .where(eq(syncSessionMembers.sessionId, sessionId));
  return r?.n ?? 0;
}

/** The API's view of a session row; an open session past its time reads as expired. */
export function toView(row: SessionRow, employeesSeen: number): SessionView {
  const expired = row.status === "open" && row.expiresAt.getTime() <= Date.now();
  const outcome = (row.outcome ?? {}) as { deactivated?: DeactivationEntry[]; wouldDeactivate?: DeactivationEntry[]; activeInScope?: number };
  return {
    sessionId: row.id,
    status: expired ? "expired" : (row.status as SessionStatus),
    scope: row.scope as SessionScope,
    batches: row.batches,
    employeesSeen,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    committedAt: row.committedAt?.toISOString() ?? null,
    requestId: row.deactivationRequestId,
    ...(outcome.deactivated ? { deactivated: outcome.deactivated } : {}),
    ...(outcome.wouldDeactivate ? { wouldDeactivate: outcome.wouldDeactivate, activeInScope: outcome.activeInScope ?? 0 } : {}),
  };
}

/**
 * Housekeeping: open and quarantined sessions past their time become expired (they would read
 * so anyway), and sessions older than `retentionDays` go, with who their batches named.
 */
export async function expireSessions(db: DbOrTx, retentionDays: number): Promise<{ expired: number; deleted: number }> {
  const expired = await db
    .update(syncSessions)
    .set({ status: "expired" })
    .where(and(sql`${syncSessions.status} in ('open', 'quarantined')`, sql`${syncSessions.expiresAt} <= now()`))
    .returning({ id: syncSessions.id });
  const deleted = await db
    .delete(syncSessions)
    .where(sql`${syncSessions.createdAt} < now() - make_interval(days => ${retentionDays})`)
    .returning({ id: syncSessions.id });
  return { expired: expired.length, deleted: deleted.length };
}
