import type { Request } from "express";
import { createApiKeyOp, getApiKeyOp, listApiKeysOp, revokeApiKeyOp } from "@insp/contracts";
import { getApiKey, issueApiKey, listApiKeys, revokeApiKey } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { adminOnly } from "./admin-only.ts";

/** API keys (extension): admin users and keys with credentials:manage; core checks the admin flag and the scope ceiling. */
export function apiKeyRoutes(deps: Deps) {
  const org = (req: Request) => principalOf(req).organizationId;
  return [
    route(deps, createApiKeyOp, [adminOnly], async ({ body }, req, res) => {
      const key = await issueApiKey(deps.db, org(req), principalOf(req), body, {
        audit: auditOf(req),
        pepper: deps.env.SECRET_PEPPER,
        maxActive: deps.env.CREDENTIALS_MAX_ACTIVE_PER_ORG,
      });
      res.setHeader("Cache-Control", "no-store");
      res.status(201).json(key);
    }),
    route(deps, listApiKeysOp, [adminOnly], async ({ query }, req, res) => {
      res.json(await listApiKeys(deps.db, org(req), principalOf(req), query));
    }),
    route(deps, getApiKeyOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await getApiKey(deps.db, org(req), principalOf(req), params.id));
    }),
    route(deps, revokeApiKeyOp, [adminOnly], async ({ params }, req, res) => {
      res.json(await revokeApiKey(deps.db, org(req), principalOf(req), params.id, auditOf(req)));
    }),
  ];
}
