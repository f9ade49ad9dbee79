import { Router } from "express";
import { SYNC_SCOPE } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { postSyncRoute } from "./post.ts";
import { approveSessionRoute, cancelSessionRoute, commitSessionRoute, getSessionRoute, openSessionRoute } from "./sessions.ts";
import { syncStatusRoute } from "./status.ts";

/**
 * Employee sync: OAuth client-credentials tokens with scope employees:sync only (spec,
 * Authentication). Sync sessions may also be read, approved and cancelled by administrators
 * (an API key or an admin user): the deletion guard needs someone other than the HR system.
 */
export function employeeSyncRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["client"], scope: SYNC_SCOPE });
  router.post("/api/v1/sync/employees", auth, postSyncRoute(deps));
  router.get("/api/v1/sync/requests/:requestId", auth, syncStatusRoute(deps));
  const clientOrAdmin = authenticate(deps, { allow: ["client", "apiKey", "user"], scope: SYNC_SCOPE, keyScopes: ["sync-sessions:manage"] });
  const admin = authenticate(deps, { allow: ["apiKey", "user"], keyScopes: ["sync-sessions:manage"] });
  router.post("/api/v1/sync/sessions", auth, openSessionRoute(deps));
  router.get("/api/v1/sync/sessions/:id", clientOrAdmin, getSessionRoute(deps));
  router.post("/api/v1/sync/sessions/:id/commit", auth, commitSessionRoute(deps));
  router.post("/api/v1/sync/sessions/:id/approve", admin, approveSessionRoute(deps));
  router.post("/api/v1/sync/sessions/:id/cancel", clientOrAdmin, cancelSessionRoute(deps));
  return router;
}
