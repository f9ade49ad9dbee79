import type { Router } from "express";
import type { Deps } from "../../deps.ts";
import { mount } from "../../http/route.ts";
import { postSyncRoute, syncStatusRoute } from "./requests.ts";
import { approveSessionRoute, cancelSessionRoute, commitSessionRoute, getSessionRoute, openSessionRoute } from "./sessions.ts";

/**
 * Employee sync: OAuth client-credentials tokens with scope employees:sync only (spec,
 * Authentication). Sync sessions may also be read, approved and cancelled by administrators
 * (an API key or an admin user): the deletion guard needs someone other than the HR system.
 */
export function employeeSyncRoutes(deps: Deps): Router {
  return mount([
    postSyncRoute(deps),
    syncStatusRoute(deps),
    openSessionRoute(deps),
    getSessionRoute(deps),
    commitSessionRoute(deps),
    approveSessionRoute(deps),
    cancelSessionRoute(deps),
  ]);
}
