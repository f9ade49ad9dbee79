import { createSiteOp, deleteSiteOp, getSiteOp, listSitesOp, patchSiteOp } from "@insp/contracts";
import { createSite, deleteSite, getSite, listSites, patchSite } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Sites: /api/sites (core directory/sites.ts). */
export const siteRoutes = (deps: Deps) => [
  route(deps, listSitesOp, async ({ query }, req, res) => {
    res.json(await listSites(deps.db, org(req), query));
  }),
  route(deps, getSiteOp, async ({ params }, req, res) => sendView(req, res, await getSite(deps.db, org(req), params.id))),
  route(deps, createSiteOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createSite(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchSiteOp, [adminOnly, requireIfMatch(getSiteOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchSite(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteSiteOp, [adminOnly], async ({ params }, req, res) => {
    await deleteSite(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
