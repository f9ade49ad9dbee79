import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { groupRoutes } from "./groups.ts";
import { memberRoutes } from "./members.ts";
import { assetTypeRoutes } from "./asset-types.ts";
import { assetRoutes } from "./assets.ts";
import { responseTypeRoutes } from "./response-types.ts";
import { roleRoutes } from "./roles.ts";
import { siteRoutes } from "./sites.ts";

/**
 * The organization's directory (docs/organization-administration.md): every user and API keys
 * with directory:read read it; admin users and API keys with directory:write change it.
 */
export function directoryRoutes(deps: Deps): Router {
  return mount([
    ...siteRoutes(deps),
    ...groupRoutes(deps),
    ...memberRoutes(deps),
    ...roleRoutes(deps),
    ...responseTypeRoutes(deps),
    ...assetTypeRoutes(deps),
    ...assetRoutes(deps),
  ]);
}
