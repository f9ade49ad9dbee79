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
  const read = authenticate(deps, { allow: ["apiKey", "user"], keyScopes: ["templates:read"] });
  const write = authenticate(deps, { allow: ["apiKey", "user"], keyScopes: ["templates:write"] });
  router.get("/api/templates", read, templateListRoute(deps));
  router.post("/api/templates", write, createTemplateRoute(deps));
  router.get("/api/templates/:id", read, templateDetailRoute(deps));
  router.get("/api/templates/:id/versions", read, listVersionsRoute(deps));
  router.post("/api/templates/:id/versions", write, createVersionRoute(deps));
  router.post("/api/templates/:id/publish", write, templateStatusRoute(deps, "publish"));
  router.post("/api/templates/:id/archive", write, templateStatusRoute(deps, "archive"));
  return router;
}
