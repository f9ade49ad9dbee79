import { getInspectionOp, getRevisionOp } from "@insp/contracts";
import { currentValidator, getInspectionDetail, detailValidator } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { noneMatchHits, revisionETag } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { sendWithInlineImages } from "../../http/inline-json.ts";

/** GET /api/inspections/:id with its revision's ETag; If-None-Match with it: 304 without reading the answers. */
export const inspectionDetailRoute = (deps: Deps) =>
  route(deps, getInspectionOp, async ({ params, query }, req, res) => {
    const organizationId = principalOf(req).organizationId;
    const inm = req.header("if-none-match");
    if (inm) {
      const etag = revisionETag(await currentValidator(deps.db, organizationId, params.id), query.images);
      if (noneMatchHits(inm, etag)) {
        res.setHeader("ETag", etag);
        res.status(304).end();
        return;
      }
    }
    const detail = await getInspectionDetail(deps.db, organizationId, params.id, { images: query.images });
    res.setHeader("ETag", revisionETag(await detailValidator(deps.db, organizationId, detail), query.images));
    await sendWithInlineImages(req, res, deps.media, detail);
  });

/** GET /api/inspections/:id/revisions/:revision (extension): as it was then. */
export const inspectionRevisionRoute = (deps: Deps) =>
  route(deps, getRevisionOp, async ({ params, query }, req, res) => {
    await sendWithInlineImages(req, res, deps.media, await getInspectionDetail(deps.db, principalOf(req).organizationId, params.id, { images: query.images, revision: params.revision }));
  });
