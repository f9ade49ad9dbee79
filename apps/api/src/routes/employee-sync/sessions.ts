import type { Request, Response } from "express";
import { approveSessionOp, cancelSessionOp, commitSessionOp, getSessionOp, openSessionOp } from "@insp/contracts";
import {
  approveSession,
  cancelSession,
  commitSession,
  forbidden,
  getSession,
  openSession,
  type CommitOutcome,
  type DeletionGuard,
  type SyncServices,
} from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/** Snapshot sync sessions (extension): open, read, commit, approve, cancel. core/employees/sessions.ts and commit.ts. */

const sessionPath = (id: string) => `/api/v1/sync/sessions/${id}`;

const services = (deps: Deps): SyncServices => ({ db: deps.db, queues: deps.queues, waiter: deps.waiter, waitMs: deps.env.SYNC_WAIT_SECONDS * 1000 });
const guardOf = (deps: Deps): DeletionGuard => ({ percent: deps.env.DEACTIVATION_THRESHOLD_PERCENT, min: deps.env.DEACTIVATION_THRESHOLD_MIN });

/** A user token must be an administrator's (API keys and the session's OAuth clients pass). */
function assertAdminUser(req: Request, what: string): void {
  const p = principalOf(req);
  if (p.kind === "user" && !p.isAdmin) throw forbidden(`Only admin users can ${what} sync sessions`);
}

/** POST /api/v1/sync/sessions. */
export const openSessionRoute = (deps: Deps) =>
  route(deps, openSessionOp, async ({ body }, req, res) => {
    const p = principalOf(req);
    const session = await openSession(deps.db, p.organizationId, p.kind === "client" ? p.clientId : null, body?.scope ?? {}, deps.env.SYNC_SESSION_TTL_HOURS);
    res.status(201).setHeader("Location", sessionPath(session.sessionId)).json(session);
  });

/** GET /api/v1/sync/sessions/:id. */
export const getSessionRoute = (deps: Deps) =>
  route(deps, getSessionOp, async ({ params }, req, res) => {
    assertAdminUser(req, "read");
    res.setHeader("Cache-Control", "no-store");
    res.json({ ...(await getSession(deps.db, principalOf(req).organizationId, params.id)), threshold: guardOf(deps) });
  });

/** The answer of a commit or an approval: 200 when applied (or previewed), 202 while held or still applying. */
function answer(deps: Deps, res: Response, outcome: CommitOutcome): void {
  const threshold = guardOf(deps);
  if (outcome.kind === "preview") {
    res.json({
      ...outcome.session,
      dryRun: true,
      wouldDeactivate: outcome.wouldDeactivate,
      activeInScope: outcome.activeInScope,
      wouldQuarantine: outcome.wouldQuarantine,
      threshold,
    });
    return;
  }
  if (outcome.kind === "committing") res.setHeader("Location", sessionPath(outcome.session.sessionId)).setHeader("Retry-After", "2");
  res.status(outcome.kind === "committed" ? 200 : 202).json({ ...outcome.session, threshold });
}

/** POST /api/v1/sync/sessions/:id/commit[?dryRun=true]. */
export const commitSessionRoute = (deps: Deps) =>
  route(deps, commitSessionOp, async ({ params, query }, req, res) => {
    answer(
      deps,
      res,
      await commitSession(services(deps), principalOf(req).organizationId, params.id, { dryRun: query.dryRun, guard: guardOf(deps), audit: auditOf(req) }),
    );
  });

/** POST /api/v1/sync/sessions/:id/approve: API keys and admin users only. */
export const approveSessionRoute = (deps: Deps) =>
  route(deps, approveSessionOp, async ({ params }, req, res) => {
    assertAdminUser(req, "approve");
    answer(deps, res, await approveSession(services(deps), principalOf(req).organizationId, params.id, auditOf(req)));
  });

/** POST /api/v1/sync/sessions/:id/cancel. */
export const cancelSessionRoute = (deps: Deps) =>
  route(deps, cancelSessionOp, async ({ params }, req, res) => {
    assertAdminUser(req, "cancel");
    res.json({ ...(await cancelSession(deps.db, principalOf(req).organizationId, params.id, auditOf(req))), threshold: guardOf(deps) });
  });
