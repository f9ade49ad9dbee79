import { getRevisionOp, listRevisionsOp } from "@insp/contracts";
import { getInspectionDetail, listInspectionRevisions } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { sendWithInlineImages } from "../../http/inline-json.ts";

/** GET /api/inspections/:id/revisions (extension). */
export const inspectionRevisionsRoute = (deps: Deps) =>
  route(deps, listRevisionsOp, async ({ params }, req, res) => {
    res.json({ revisions: await listInspectionRevisions(deps.db, principalOf(req).organizationId, params.id) });
  });

/** GET /api/inspections/:id/revisions/:revision (extension): as it was then. */
export const inspectionRevisionRoute = (deps: Deps) =>
  route(deps, getRevisionOp, async ({ params, query }, req, res) => {
    await sendWithInlineImages(
      req,
      res,
      deps.media,
      await getInspectionDetail(deps.db, principalOf(req).organizationId, params.id, { images: query.images, revision: params.revision }),
    );
  });
