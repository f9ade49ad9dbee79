import type { Request } from "express";
import { createOAuthClientOp, getOAuthClientOp, listOAuthClientsOp, revokeOAuthClientOp, rotateOAuthClientOp } from "@insp/contracts";
import { getOAuthClient, issueOAuthClient, listOAuthClients, revokeOAuthClient, rotateOAuthClientSecret } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { adminOnly } from "./admin-only.ts";

/** OAuth clients (extension): admin users and keys with credentials:manage. */
export function oauthClientRoutes(deps: Deps) {
  const org = (req: Request) => principalOf(req).organizationId;
  return [
    route(deps, createOAuthClientOp, [adminOnly], async ({ body }, req, res) => {
      const client = await issueOAuthClient(deps.db, org(req), principalOf(req), body, {
        audit: auditOf(req),
        pepper: deps.env.SECRET_PEPPER,
        maxActive: deps.env.CREDENTIALS_MAX_ACTIVE_PER_ORG,
      });
      res.setHeader("Cache-Control", "no-store");
      res.status(201).json(client);
    }),
    route(deps, listOAuthClientsOp, [adminOnly], async ({ query }, req, res) => {
      res.json(await listOAuthClients(deps.db, org(req), principalOf(req), query));
    }),
    route(deps, getOAuthClientOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await getOAuthClient(deps.db, org(req), principalOf(req), params.clientId));
    }),
    route(deps, rotateOAuthClientOp, [adminOnly], async ({ params }, req, res) => {
      const grace = deps.env.OAUTH_CLIENT_SECRET_GRACE_SECONDS;
      const client = await rotateOAuthClientSecret(deps.db, org(req), principalOf(req), params.clientId, grace, {
        audit: auditOf(req),
        pepper: deps.env.SECRET_PEPPER,
      });
      res.setHeader("Cache-Control", "no-store");
      res.json(client);
    }),
    route(deps, revokeOAuthClientOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await revokeOAuthClient(deps.db, org(req), principalOf(req), params.clientId, auditOf(req)));
    }),
  ];
}
