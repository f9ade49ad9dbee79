import { Router } from "express";
import { FeedQuery } from "@insp/contracts";
import { SYNC_SCOPE, readFeed, type ResourceType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

const feed = (deps: Deps, resourceType: ResourceType) =>
  handle({ query: FeedQuery }, async ({ query }, req, res) => {
    res.json(await readFeed(deps.db, principalOf(req).organizationId, resourceType, query));
  });

/** Change feeds (extension): templates and inspections with the same credentials as their lists, employees with the sync's OAuth scope. */
export function feedRoutes(deps: Deps): Router {
  const router = Router();
  const apiAuth = authenticate(deps, { allow: ["apiKey", "user"] });
  const syncAuth = authenticate(deps, { allow: ["client"], scope: SYNC_SCOPE });
  router.get("/api/feed/templates", apiAuth, feed(deps, "template"));
  router.get("/api/feed/inspections", apiAuth, feed(deps, "inspection"));
  router.get("/api/v1/feed/employees", syncAuth, feed(deps, "employee"));
  return router;
}
