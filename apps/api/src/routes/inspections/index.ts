import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { addCommentRoute, listCommentsRoute } from "./comments.ts";
import { importInspectionRoute, inspectionDetailRoute, inspectionListRoute, patchInspectionRoute } from "./inspections.ts";
import { mediaRoute, uploadMediaRoute } from "./media.ts";
import { reviewInspectionRoute } from "./review.ts";
import { inspectionRevisionRoute, inspectionRevisionsRoute } from "./revisions.ts";

/**
 * Inspections (inspections.ts: list, read, import through the queue, PATCH), their revisions,
 * review and comments, and images (media.ts: GET and POST /api/media).
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
