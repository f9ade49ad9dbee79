import { getInspectionOp, listRevisionsOp, patchInspectionOp } from "@insp/contracts";
import { getInspectionDetail, listInspectionRevisions, patchInspection, detailValidator, type PrepareServices } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch, revisionETag } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { sendWithInlineImages } from "../../http/inline-json.ts";

/**
 * PATCH /api/inspections/:id (extension): behind requireIfMatch (428). Answers the detail after
 * the change, with its new ETag.
 */
export function patchInspectionRoute(deps: Deps) {
  const svc: PrepareServices = { db: deps.db, store: deps.media, maxImageBytes: deps.env.MEDIA_MAX_IMAGE_MB * 1024 * 1024, maxStoredBytes: deps.env.MEDIA_MAX_STORED_MB_PER_ORG * 1024 * 1024 };
  return route(deps, patchInspectionOp, [requireIfMatch(getInspectionOp.path)], async ({ params, query, body }, req, res) => {
    const organizationId = principalOf(req).organizationId;
    await patchInspection(svc, organizationId, params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req));
    const detail = await getInspectionDetail(deps.db, organizationId, params.id, { images: query.images });
    res.setHeader("ETag", revisionETag(await detailValidator(deps.db, organizationId, detail), query.images));
    await sendWithInlineImages(req, res, deps.media, detail);
  });
}

/** GET /api/inspections/:id/revisions (extension). */
export const inspectionRevisionsRoute = (deps: Deps) =>
  route(deps, listRevisionsOp, async ({ params }, req, res) => {
    res.json({ revisions: await listInspectionRevisions(deps.db, principalOf(req).organizationId, params.id) });
  });
