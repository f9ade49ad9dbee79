import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { createTemplateRoute } from "./create.ts";
import { templateDetailRoute, templateListRoute } from "./read.ts";
import { templateStatusRoute } from "./status.ts";
import { createVersionRoute, listVersionsRoute } from "./versions.ts";

/** GET/POST /api/templates, GET /api/templates/:id, and the extensions: versions, publish, archive. */
export function templateRoutes(deps: Deps): Router {
  return mount([
    templateListRoute(deps),
    createTemplateRoute(deps),
    templateDetailRoute(deps),
    listVersionsRoute(deps),
    createVersionRoute(deps),
    templateStatusRoute(deps, "publish"),
    templateStatusRoute(deps, "archive"),
  ]);
}
