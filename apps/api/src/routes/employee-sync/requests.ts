import { syncEmployeesOp, syncRequestStatusOp, validateEmployee } from "@insp/contracts";
import type { Response } from "express";
import { idempotencyKeyOf, isUuid, loadSyncStatus, notFound, submitSync, type SyncOutcome, type SyncServices } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

const wantsAsync = (prefer: string | undefined) => !!prefer && /(^|[\s,;])respond-async([\s,;=]|$)/i.test(prefer);

const syncStatusPath = (requestId: string) => `/api/v1/sync/requests/${requestId}`;

/**
 * POST /api/v1/sync/employees. The request as a whole is checked first (400 for the whole
 * request); then each employee is validated on its own and an invalid one becomes
 * an entry of errors[] without stopping the others (core/employees/submit.ts).
 * 200 with every result, or 202 with the status URL while it is still processing.
 */
export function postSyncRoute(deps: Deps) {
  const svc: SyncServices = {
    db: deps.db,
    queues: deps.queues,
    waiter: deps.waiter,
    waitMs: deps.env.SYNC_WAIT_SECONDS * 1000,
    maxQueuedEmployees: deps.env.SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG,
  };
  return route(deps, syncEmployeesOp, async ({ query, body }, req, res) => {
    const principal = principalOf(req);
    const respondAsync = wantsAsync(req.header("prefer"));
    const { outcome, replayed } = await submitSync(svc, {
      organizationId: principal.organizationId,
      clientId: principal.kind === "client" ? principal.clientId : null,
      httpRequestId: String(req.id),
      syncBatchId: body.syncBatchId ?? null,
      entries: body.employees.map(validateEmployee),
      rawBody: req.body,
      dryRun: query.dryRun,
      respondAsync,
      idempotencyKey: idempotencyKeyOf(req.header("idempotency-key")),
      ...(query.sessionId !== undefined ? { sessionId: query.sessionId } : {}),
    });
    answer(res, outcome, { replayed, respondAsync });
  });
}

/** The one mapping of a sync outcome to HTTP, for this request's own outcome and for one replayed from an earlier request with the same Idempotency-Key alike. */
function answer(res: Response, o: SyncOutcome, how: { replayed: boolean; respondAsync: boolean }): void {
  if (how.replayed) res.setHeader("Idempotent-Replayed", "true");
  if (o.kind === "processing") {
    if (how.respondAsync) res.setHeader("Preference-Applied", "respond-async");
    res
      .status(202)
      .set({ Location: syncStatusPath(o.requestId), "Retry-After": "2" })
      .json({ requestId: o.requestId, status: "processing" });
    return;
  }
  res.status(200).json(o.response);
}

/** GET /api/v1/sync/requests/:requestId: progress, and the full answer once completed. Other organizations' requests are 404. */
export function syncStatusRoute(deps: Deps) {
  return route(deps, syncRequestStatusOp, async ({ params }, req, res) => {
    const missing = () => notFound(`Sync request ${params.requestId} not found`);
    if (!isUuid(params.requestId)) throw missing();
    const status = await loadSyncStatus(deps.db, principalOf(req).organizationId, params.requestId);
    if (!status) throw missing();
    res.setHeader("Cache-Control", "no-store");
    res.json(status);
  });
}
