import { Router } from "express";
import { SYNC_SCOPE } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate } from "../../http/auth.ts";
import { postSyncRoute } from "./post.ts";
import { syncStatusRoute } from "./status.ts";

/** Employee sync: OAuth client-credentials tokens with scope employees:sync only (spec, Authentication). */
export function employeeSyncRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["client"], scope: SYNC_SCOPE });
  router.post("/api/v1/sync/employees", auth, postSyncRoute(deps));
  router.get("/api/v1/sync/requests/:requestId", auth, syncStatusRoute(deps));
  return router;
}
