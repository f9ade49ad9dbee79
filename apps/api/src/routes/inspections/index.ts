import { Router } from "express";
import { FsMediaStore } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { inspectionDetailRoute } from "./detail.ts";
import { importInspectionRoute } from "./import.ts";
import { inspectionListRoute } from "./list.ts";
import { mediaRoute } from "./media.ts";
import { uploadMediaRoute } from "./upload.ts";

/** GET /api/inspections, GET /api/inspections/:id, POST /api/inspections (import through the queue), GET /api/media/:id. */
export function inspectionRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["apiKey", "user"] });
  const store = new FsMediaStore(deps.env.MEDIA_DIR);
  router.get("/api/inspections", auth, inspectionListRoute(deps));
  router.get("/api/inspections/:id", auth, inspectionDetailRoute(deps, store));
  router.post("/api/inspections", auth, importInspectionRoute(deps, store));
  router.get("/api/media/:id", auth, mediaRoute(deps, store));
  router.post("/api/media", auth, uploadMediaRoute(deps, store));
  return router;
}
