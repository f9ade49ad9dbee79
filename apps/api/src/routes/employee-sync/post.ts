import type { RequestHandler } from "express";
import { SyncQuery, checkSyncRequestShape, validateEmployee } from "@insp/contracts";
import { AppError, idempotencyKeyOf, submitSync, type SyncServices, type ValidatedEntry } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { zodDetails } from "../../http/handle.ts";

const wantsAsync = (prefer: string | undefined) => !!prefer && /(^|[\s,;])respond-async([\s,;=]|$)/i.test(prefer);

/**
 * POST /api/v1/sync/employees. The request shape is checked first (400 for the whole
 * request); then each employee is validated on its own and an invalid one becomes
 * an entry of errors[] without stopping the others (core/employees/submit.ts).
 */
export function postSyncRoute(deps: Deps): RequestHandler {
  const svc: SyncServices = { db: deps.db, queues: deps.queues, waiter: deps.waiter, waitMs: deps.env.SYNC_WAIT_SECONDS * 1000 };
  return async (req, res, next) => {
    try {
      const query = SyncQuery.safeParse(req.query);
      if (!query.success) throw new AppError(400, "Invalid query parameters", zodDetails(query.error));
      if (req.body === undefined) throw new AppError(400, "Request body must be JSON (Content-Type: application/json)");
      const shapeError = checkSyncRequestShape(req.body);
      if (shapeError) throw new AppError(400, shapeError);
      const body = req.body as { syncBatchId?: string | null; employees: unknown[] };
      const principal = principalOf(req);
      const respondAsync = wantsAsync(req.header("prefer"));
      const outcome = await submitSync(svc, {
        organizationId: principal.organizationId,
        clientId: principal.kind === "client" ? principal.clientId : null,
        httpRequestId: String(req.id),
        syncBatchId: body.syncBatchId ?? null,
        entries: body.employees.map((e): ValidatedEntry => validateEmployee(e)),
        rawBody: req.body,
        dryRun: query.data.dryRun,
        respondAsync,
        idempotencyKey: idempotencyKeyOf(req.header("idempotency-key")),
        ...(query.data.sessionId !== undefined ? { sessionId: query.data.sessionId } : {}),
      });
      if (outcome.status === 202 && respondAsync) res.setHeader("Preference-Applied", "respond-async");
      res.status(outcome.status).set(outcome.headers ?? {}).json(outcome.body);
    } catch (err) {
      next(err);
    }
  };
}
