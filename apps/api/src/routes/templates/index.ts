import { Router } from "express";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { createTemplateRoute } from "./create.ts";
import { templateDetailRoute, templateListRoute } from "./read.ts";
import { templateStatusRoute } from "./status.ts";
import { createVersionRoute, listVersionsRoute } from "./versions.ts";

/** GET/POST /api/templates, GET /api/templates/:id, and the extensions: versions, publish, archive. */
export function templateRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["apiKey", "user"] });
  router.get("/api/templates", auth, templateListRoute(deps));
  router.post("/api/templates", auth, createTemplateRoute(deps));
  router.get("/api/templates/:id", auth, templateDetailRoute(deps));
  router.get("/api/templates/:id/versions", auth, listVersionsRoute(deps));
  router.post("/api/templates/:id/versions", auth, createVersionRoute(deps));
  router.post("/api/templates/:id/publish", auth, templateStatusRoute(deps, "publish"));
  router.post("/api/templates/:id/archive", auth, templateStatusRoute(deps, "archive"));
  return router;
}
