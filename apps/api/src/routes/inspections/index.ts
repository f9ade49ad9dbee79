import { Router } from "express";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { requireIfMatch } from "../../http/etag.ts";
import { inspectionDetailRoute, inspectionRevisionRoute } from "./detail.ts";
import { importInspectionRoute } from "./import.ts";
import { inspectionListRoute } from "./list.ts";
import { mediaRoute } from "./media.ts";
import { inspectionRevisionsRoute, patchInspectionRoute } from "./patch.ts";
import { uploadMediaRoute } from "./upload.ts";

/**
 * GET /api/inspections, GET /api/inspections/:id, POST /api/inspections (import through the
 * queue), and the extensions: PATCH and revisions of an inspection, GET and POST /api/media.
 */
export function inspectionRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["apiKey", "user"] });
  router.get("/api/inspections", auth, inspectionListRoute(deps));
  router.get("/api/inspections/:id", auth, inspectionDetailRoute(deps));
  router.patch("/api/inspections/:id", auth, requireIfMatch, patchInspectionRoute(deps));
  router.get("/api/inspections/:id/revisions", auth, inspectionRevisionsRoute(deps));
  router.get("/api/inspections/:id/revisions/:revision", auth, inspectionRevisionRoute(deps));
  router.post("/api/inspections", auth, importInspectionRoute(deps));
  router.get("/api/media/:id", auth, mediaRoute(deps));
  router.post("/api/media", auth, uploadMediaRoute(deps));
  return router;
}
