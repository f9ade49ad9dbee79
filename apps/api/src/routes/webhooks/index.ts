import type { RequestHandler, Router } from "express";
import {
  createWebhookOp,
  deleteWebhookOp,
  getWebhookOp,
  listDeliveriesOp,
  listWebhooksOp,
  replayWebhookOp,
  rotateWebhookSecretOp,
  updateWebhookOp,
} from "@insp/contracts";
import {
  SecretBox,
  assertMayReceive,
  createEndpoint,
  deleteEndpoint,
  forbidden,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  replayEvents,
  rotateEndpointSecret,
  targetPolicy,
  updateEndpoint,
} from "@insp/core";
import { enqueueDeliveries } from "@insp/queue";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";

/**
 * Webhook endpoints (extension): an API key or an admin user's token. Registering needs the right
 * to receive the events registered (assertMayReceive); every operation on an existing endpoint
 * needs the right to receive each of its events, which core checks on the row it acts on.
 */
export function webhookRoutes(deps: Deps): Router {
  const adminOnly: RequestHandler = (req, _res, next) => {
    const p = principalOf(req);
    next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can manage webhooks") : undefined);
  };
  const box = new SecretBox(deps.env.WEBHOOK_SECRET_KEY);
  const policy = targetPolicy(deps.env);
  const org = (req: Parameters<RequestHandler>[0]) => principalOf(req).organizationId;
  return mount([
    route(deps, createWebhookOp, [adminOnly], async ({ body }, req, res) => {
      assertMayReceive(principalOf(req), body.events);
      res.status(201).json(await createEndpoint(deps.db, box, policy, org(req), body, auditOf(req), deps.env.WEBHOOK_MAX_ENDPOINTS_PER_ORG));
    }),
    route(deps, listWebhooksOp, [adminOnly], async (_input, req, res) => {
      res.json(await listEndpoints(deps.db, org(req), principalOf(req)));
    }),
    route(deps, getWebhookOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await getEndpoint(deps.db, org(req), params.id, principalOf(req)));
    }),
    route(deps, updateWebhookOp, [adminOnly], async ({ params, body }, req, res) => {
      res.json(await updateEndpoint(deps.db, policy, org(req), params.id, body, principalOf(req), auditOf(req)));
    }),
    route(deps, deleteWebhookOp, [adminOnly], async ({ params }, req, res) => {
      await deleteEndpoint(deps.db, org(req), params.id, principalOf(req), auditOf(req));
      res.status(204).end();
    }),
    route(deps, rotateWebhookSecretOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await rotateEndpointSecret(deps.db, box, org(req), params.id, principalOf(req), auditOf(req)));
    }),
    route(deps, listDeliveriesOp, [adminOnly], async ({ params, query }, req, res) => {
      res.json(await listDeliveries(deps.db, org(req), params.id, query, principalOf(req)));
    }),
    route(deps, replayWebhookOp, [adminOnly], async ({ params, body }, req, res) => {
      const { deliveries, hasMore } = await replayEvents(deps.db, org(req), params.id, body, principalOf(req), deps.env.WEBHOOK_REPLAY_MAX_DELIVERIES);
      // Committed; a lost enqueue is picked up by the workers' requeue sweep.
      await enqueueDeliveries(deps.queues, deliveries).catch((err) => req.log.warn({ err }, "replay enqueue failed; the sweep will requeue"));
      res.status(202).json({ replayed: deliveries.length, hasMore });
    }),
  ]);
}
