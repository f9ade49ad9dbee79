import type { Router } from "express";
import { listAuditOp } from "@insp/contracts";
import { forbidden, listAudit } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";

/** GET /api/audit (extension): an API key or an admin user. */
export function auditRoutes(deps: Deps): Router {
  return mount([
    route(deps, listAuditOp, async ({ query }, req, res) => {
      const p = principalOf(req);
      if (p.kind === "user" && !p.isAdmin) throw forbidden("Only admin users can read the audit log");
      res.json(await listAudit(deps.db, p.organizationId, query));
    }),
  ]);
}
