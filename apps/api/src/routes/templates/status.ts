import { IdParam } from "@insp/contracts";
import { changeTemplateStatus, forbidden, type TemplateAction } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

/** POST /api/templates/:id/publish|archive (extensions): API key or admin user; answers the detail. */
export const templateStatusRoute = (deps: Deps, action: TemplateAction) =>
  handle({ params: IdParam }, async ({ params }, req, res) => {
    const p = principalOf(req);
    if (p.kind === "user" && !p.isAdmin) throw forbidden(`Only admin users can ${action} templates`);
    res.json(await changeTemplateStatus(deps.db, p.organizationId, params.id, action, auditOf(req)));
  });
