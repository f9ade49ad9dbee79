import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { inspectionDetailRoute, inspectionRevisionRoute } from "./detail.ts";
import { importInspectionRoute } from "./import.ts";
import { inspectionListRoute } from "./list.ts";
import { mediaRoute } from "./media.ts";
import { inspectionRevisionsRoute, patchInspectionRoute } from "./patch.ts";
import { addCommentRoute, listCommentsRoute, reviewInspectionRoute } from "./review.ts";
import { uploadMediaRoute } from "./upload.ts";

/**
 * GET /api/inspections, GET /api/inspections/:id, POST /api/inspections (import through the
 * queue), and the extensions: PATCH and revisions of an inspection, review and comments,
 * GET and POST /api/media.
 */
export function inspectionRoutes(deps: Deps): Router {
  return mount([
    inspectionListRoute(deps),
    inspectionDetailRoute(deps),
    patchInspectionRoute(deps),
    inspectionRevisionsRoute(deps),
    inspectionRevisionRoute(deps),
    importInspectionRoute(deps),
    reviewInspectionRoute(deps),
    listCommentsRoute(deps),
    addCommentRoute(deps),
    mediaRoute(deps),
    uploadMediaRoute(deps),
  ]);
}
