import { Router } from "express";
import type { ApiKeyScope } from "@insp/contracts";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { requireIfMatch } from "../../http/etag.ts";
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
  const router = Router();
  const auth = (scope: ApiKeyScope) => authenticate(deps, { allow: ["apiKey", "user"], keyScopes: [scope] });
  const [read, write] = [auth("inspections:read"), auth("inspections:write")];
  router.get("/api/inspections", read, inspectionListRoute(deps));
  router.get("/api/inspections/:id", read, inspectionDetailRoute(deps));
  router.patch("/api/inspections/:id", write, requireIfMatch("/api/inspections/{id}"), patchInspectionRoute(deps));
  router.get("/api/inspections/:id/revisions", read, inspectionRevisionsRoute(deps));
  router.get("/api/inspections/:id/revisions/:revision", read, inspectionRevisionRoute(deps));
  router.post("/api/inspections", write, importInspectionRoute(deps));
  router.post("/api/inspections/:id/review", write, reviewInspectionRoute(deps));
  router.get("/api/inspections/:id/comments", read, listCommentsRoute(deps));
  router.post("/api/inspections/:id/comments", write, addCommentRoute(deps));
  router.get("/api/media/:id", auth("media:read"), mediaRoute(deps));
  router.post("/api/media", auth("media:write"), uploadMediaRoute(deps));
  return router;
}
