import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { createTemplateRoute, templateDetailRoute, templateListRoute, templateStatusRoute } from "./templates.ts";
import { createVersionRoute, listVersionsRoute } from "./versions.ts";

/** Templates (templates.ts: list, read, create, publish, archive) and their versions (versions.ts). */
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
