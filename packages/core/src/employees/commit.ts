import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "@insp/db";
import { syncSessions } from "@insp/db/schema";
import { recordAudit, type AuditContext } from "../audit/index.ts";
import { AppError } from "../errors.ts";
import { assertOpen, getSession, lockSession, membersCount, toView, type DeactivationEntry, type SessionScope, type SessionView } from "./sessions.ts";
import { awaitSyncRequest, startItems, type SyncServices } from "./submit.ts";
import { createSyncRequest, isSyncRequestDone, type NewItem } from "./requests.ts";

/**
 * Committing a snapshot session: every ACTIVE employee in its scope whom none of its batches
 * named becomes INACTIVE (account disabled, assignments removed) through the sync pipeline
 * itself: one sync request of INACTIVE records, one job and one transaction per employee, with
 * the same rules, change log, webhooks and audit as any sync. A deletion guard holds back
 * commits that would deactivate more than usual until an administrator approves them.
 */

export interface DeletionGuard {
  /** DEACTIVATION_THRESHOLD_PERCENT of the ACTIVE employees in scope ... */
  percent: number;
  /** ... and more than DEACTIVATION_THRESHOLD_MIN of them: quarantine. */
  min: number;
}

export type CommitOutcome =
  | { kind: "preview"; session: SessionView; wouldDeactivate: DeactivationEntry[]; activeInScope: number; wouldQuarantine: boolean }
  | { kind: "quarantined" | "committing" | "committed"; session: SessionView };

/** Commits of one organization run one at a time (a transaction-scoped advisory lock). */
const commitLock = (tx: DbOrTx, organizationId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sync-session-commit:${organizationId}`}, 0))`);

/** POST /api/v1/sync/sessions/{id}/commit[?dryRun=true]. */
export async function commitSession(
  svc: SyncServices,
  organizationId: string,
  sessionId: string,
  opts: { dryRun: boolean; guard: DeletionGuard; audit: AuditContext },
): Promise<CommitOutcome> {
  const decided = await svc.db.transaction(async (tx) => {
    await commitLock(tx, organizationId);
    const row = await lockSession(tx, organizationId, sessionId);
    // A commit sent again (its answer was lost, a client retried) gets the first one's outcome.
    if (!opts.dryRun && (row.status === "committed" || row.status === "committing" || row.status === "quarantined")) return { kind: "repeat" as const, row };
    assertOpen(row);
    const scope = row.scope as SessionScope;
    const [candidates, activeInScope] = await Promise.all([unseenActive(tx, organizationId, sessionId, scope), activeCount(tx, organizationId, scope)]);
    const wouldQuarantine = candidates.length > opts.guard.min && candidates.length * 100 > opts.guard.percent * activeInScope;
    if (opts.dryRun) return { kind: "preview" as const, row, candidates, activeInScope, wouldQuarantine };
    if (wouldQuarantine) {
      const [held] = await tx
        .update(syncSessions)
        .set({ status: "quarantined", outcome: { wouldDeactivate: candidates, activeInScope } })
        .where(eq(syncSessions.id, sessionId))
        .returning();
      await recordAudit(tx, opts.audit, { organizationId, action: "sync_session.quarantined", resourceType: "sync_session", resourceId: sessionId });
      return { kind: "quarantined" as const, row: held! };
    }
    return start(tx, organizationId, row.id, candidates, row.clientId, opts.audit, "sync_session.committed");
  });
  return finish(svc, organizationId, decided);
}

/**
 * POST .../approve (an administrator): a quarantined session's deactivations go ahead, limited
 * to the employees it listed who are still ACTIVE and still unnamed by its batches.
 */
export async function approveSession(svc: SyncServices, organizationId: string, sessionId: string, audit: AuditContext): Promise<CommitOutcome> {
  const decided = await svc.db.transaction(async (tx) => {
    await commitLock(tx, organizationId);
    const row = await lockSession(tx, organizationId, sessionId);
    if (row.status !== "quarantined")
      throw new AppError("conflict", `Sync session ${sessionId} is ${toView(row, 0).status}; only a quarantined session can be approved`);
    if (row.expiresAt.getTime() <= Date.now())
      throw new AppError("conflict", `Sync session ${sessionId} has expired (at ${row.expiresAt.toISOString()}); start a new one`);
    const listed = new Set(((row.outcome as { wouldDeactivate?: DeactivationEntry[] } | null)?.wouldDeactivate ?? []).map((e) => e.employeeId));
    const still = (await unseenActive(tx, organizationId, sessionId, row.scope as SessionScope)).filter((e) => listed.has(e.employeeId));
    await tx
      .update(syncSessions)
      .set({ decidedBy: { actorType: audit.actorType, actorId: audit.actorId } })
      .where(eq(syncSessions.id, sessionId));
    return start(tx, organizationId, sessionId, still, row.clientId, audit, "sync_session.approved");
  });
  return finish(svc, organizationId, decided);
}

/** POST .../cancel: an open or quarantined session ends without changing anyone. */
export async function cancelSession(db: Db, organizationId: string, sessionId: string, audit: AuditContext): Promise<SessionView> {
  return db.transaction(async (tx) => {
    const row = await lockSession(tx, organizationId, sessionId);
    const status = toView(row, 0).status;
    if (status !== "open" && status !== "quarantined")
      throw new AppError("conflict", `Sync session ${sessionId} is ${status}; only an open or quarantined session can be cancelled`);
    const [done] = await tx
      .update(syncSessions)
      .set({ status: "cancelled", decidedBy: { actorType: audit.actorType, actorId: audit.actorId } })
      .where(eq(syncSessions.id, sessionId))
      .returning();
    await recordAudit(tx, audit, { organizationId, action: "sync_session.cancelled", resourceType: "sync_session", resourceId: sessionId });
    return toView(done!, await membersCount(tx, sessionId));
  });
}

type Decided =
  | { kind: "preview"; row: typeof syncSessions.$inferSelect; candidates: DeactivationEntry[]; activeInScope: number; wouldQuarantine: boolean }
  | { kind: "quarantined" | "started" | "repeat"; row: typeof syncSessions.$inferSelect; items?: NewItem[]; recorded?: { id: string; idx: number }[] };

/**
 * Inside the commit's transaction: no other session of the organization may be applying its
 * deactivations (409), then one sync request of INACTIVE records for `entries` and the session
 * marked committing (committed at once when there is nobody to deactivate).
 */
async function start(
  tx: DbOrTx,
  organizationId: string,
  sessionId: string,
  entries: DeactivationEntry[],
  clientId: string | null,
  audit: AuditContext,
  action: string,
): Promise<Decided> {
  await settleOthers(tx, organizationId, sessionId);
  // Decided now: a deactivation that runs late (a queue outage) leaves alone whoever changed since.
  const [{ at } = { at: "" }] = await tx.execute<{ at: string }>(sql`select now()::text as at`);
  const items: NewItem[] = entries.map((e, idx) => ({
    idx,
    externalEmployeeId: e.externalEmployeeId,
    chainKey: e.externalEmployeeId,
    input: { externalEmployeeId: e.externalEmployeeId, status: "INACTIVE", updateMode: "replace", onlyIfActiveAndUnchangedSince: at },
  }));
  const request = items.length
    ? await createSyncRequest(tx, { organizationId, clientId, syncBatchId: `session:${sessionId}`, dryRun: false, items, httpRequestId: audit.requestId })
    : null;
  const [row] = await tx
    .update(syncSessions)
    .set({
      status: request ? "committing" : "committed",
      committedAt: sql`now()`,
      deactivationRequestId: request?.requestId ?? null,
      outcome: { deactivated: entries },
    })
    .where(eq(syncSessions.id, sessionId))
    .returning();
  await recordAudit(tx, audit, { organizationId, action, resourceType: "sync_session", resourceId: sessionId });
  return { kind: "started", row: row!, items, recorded: request?.items ?? [] };
}

/** After the commit's transaction: enqueue the deactivations and wait for them (SYNC_WAIT_SECONDS), as a sync does. */
async function finish(svc: SyncServices, organizationId: string, d: Decided): Promise<CommitOutcome> {
  if (d.kind === "repeat") {
    const session = await getSession(svc.db, organizationId, d.row.id);
    return { kind: session.status === "committed" ? "committed" : session.status === "quarantined" ? "quarantined" : "committing", session };
  }
  const seen = await membersCount(svc.db, d.row.id);
  if (d.kind === "preview")
    return { kind: "preview", session: toView(d.row, seen), wouldDeactivate: d.candidates, activeInScope: d.activeInScope, wouldQuarantine: d.wouldQuarantine };
  if (d.kind === "quarantined" || d.row.status === "committed")
    return { kind: d.kind === "quarantined" ? "quarantined" : "committed", session: toView(d.row, seen) };
  const requestId = d.row.deactivationRequestId!;
  try {
    await startItems(svc, organizationId, requestId, d.items!, d.recorded!);
  } catch {
    // Recorded and pending: the sync sweep gives the items their jobs once the queue is back.
    return { kind: "committing", session: toView(d.row, seen) };
  }
  if (!(await awaitSyncRequest(svc, organizationId, requestId))) return { kind: "committing", session: toView(d.row, seen) };
  const [done] = await svc.db
    .update(syncSessions)
    .set({ status: "committed" })
    .where(and(eq(syncSessions.id, d.row.id), eq(syncSessions.status, "committing")))
    .returning();
  return { kind: "committed", session: toView(done ?? d.row, seen) };
}

/**
 * Sessions of the organization still marked committing: those whose deactivations are done
 * become committed; one still applying them makes this commit wait its turn (409).
 */
async function settleOthers(tx: DbOrTx, organizationId: string, sessionId: string): Promise<void> {
  const others = await tx
    .select({ id: syncSessions.id, requestId: syncSessions.deactivationRequestId })
    .from(syncSessions)
    .where(and(eq(syncSessions.organizationId, organizationId), eq(syncSessions.status, "committing"), ne(syncSessions.id, sessionId)));
  for (const o of others) {
    if (o.requestId && !(await isSyncRequestDone(tx, organizationId, o.requestId))) {
      throw new AppError("conflict", `Another sync session of this organization (${o.id}) is still deactivating its employees; commit again when it is done`);
    }
    await tx.update(syncSessions).set({ status: "committed" }).where(eq(syncSessions.id, o.id));
  }
}

/** The scope as a condition on employees `e`. */
function inScope(scope: SessionScope): SQL {
  const parts: SQL[] = [sql`true`];
  if (scope.department !== undefined) parts.push(sql`lower(e.department) = lower(${scope.department})`);
  if (scope.siteId !== undefined) parts.push(sql`exists (select 1 from employee_sites es where es.employee_id = e.id and es.site_id = ${scope.siteId}::uuid)`);
  if (scope.metadata !== undefined) {
    parts.push(
      scope.metadata.value === undefined ? sql`e.metadata ? ${scope.metadata.key}` : sql`e.metadata ->> ${scope.metadata.key} = ${scope.metadata.value}`,
    );
  }
  return sql.join(parts, sql` and `);
}

async function unseenActive(tx: DbOrTx, organizationId: string, sessionId: string, scope: SessionScope): Promise<DeactivationEntry[]> {
  const rows = await tx.execute<{ id: string; external_employee_id: string; display_name: string | null }>(sql`
    select e.id, e.external_employee_id, e.display_name from employees e
    where e.organization_id = ${organizationId} and e.status = 'ACTIVE' and ${inScope(scope)}
      and not exists (select 1 from sync_session_members m where m.session_id = ${sessionId} and m.external_employee_id = e.external_employee_id)
    order by e.external_employee_id`);
  return rows.map((r) => ({ employeeId: r.id, externalEmployeeId: r.external_employee_id, displayName: r.display_name }));
}

async function activeCount(tx: DbOrTx, organizationId: string, scope: SessionScope): Promise<number> {
  const [r] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from employees e where e.organization_id = ${organizationId} and e.status = 'ACTIVE' and ${inScope(scope)}`,
  );
  return Number(r?.n ?? 0);
}
