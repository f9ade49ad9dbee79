import { Router } from "express";
import { AuditQuery } from "@insp/contracts";
import { forbidden, listAudit } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

/** GET /api/audit (extension): an API key or an admin user. */
export function auditRoutes(deps: Deps): Router {
  const router = Router();
  router.get(
    "/api/audit",
    authenticate(deps, { allow: ["apiKey", "user"], keyScopes: ["audit:read"] }),
    handle({ query: AuditQuery }, async ({ query }, req, res) => {
      const p = principalOf(req);
      if (p.kind === "user" && !p.isAdmin) throw forbidden("Only admin users can read the audit log");
      res.json(await listAudit(deps.db, p.organizationId, query));
    }),
  );
  return router;
}
