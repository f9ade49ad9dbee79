import { archiveTemplateOp, publishTemplateOp } from "@insp/contracts";
import { changeTemplateStatus, type TemplateAction } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { assertTemplateWriter } from "./create.ts";

/** POST /api/templates/:id/publish|archive (extensions): API key or admin user; answers the detail. */
export const templateStatusRoute = (deps: Deps, action: TemplateAction) =>
  route(deps, action === "publish" ? publishTemplateOp : archiveTemplateOp, async ({ params }, req, res) => {
    const p = assertTemplateWriter(req, `${action} templates`);
    res.json(await changeTemplateStatus(deps.db, p.organizationId, params.id, action, auditOf(req)));
  });
