import { getTemplateOp, listTemplatesOp } from "@insp/contracts";
import { getTemplateDetail, listTemplates } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/** GET /api/templates: a plain array (spec), PUBLISHED only unless publishedOnly=false. */
export const templateListRoute = (deps: Deps) =>
  route(deps, listTemplatesOp, async ({ query }, req, res) => {
    res.json(await listTemplates(deps.db, principalOf(req).organizationId, { publishedOnly: query.publishedOnly }));
  });

/** GET /api/templates/:id[?version=n]: 404 unknown or malformed id, 403 another organization's template (spec). */
export const templateDetailRoute = (deps: Deps) =>
  route(deps, getTemplateOp, async ({ params, query }, req, res) => {
    res.json(await getTemplateDetail(deps.db, principalOf(req).organizationId, params.id, query.version));
  });
