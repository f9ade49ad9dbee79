import { Router } from "express";
import { FeedQuery, type ApiKeyScope } from "@insp/contracts";
import { SYNC_SCOPE, readFeed, type ResourceType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

const feed = (deps: Deps, resourceType: ResourceType) =>
  handle({ query: FeedQuery }, async ({ query }, req, res) => {
    res.json(await readFeed(deps.db, principalOf(req).organizationId, resourceType, query));
  });

/** Change feeds (extension): templates, inspections and corrective actions with the same credentials as their lists, employees with the sync's OAuth scope. */
export function feedRoutes(deps: Deps): Router {
  const router = Router();
  const apiAuth = (read: ApiKeyScope) => authenticate(deps, { allow: ["apiKey", "user"], keyScopes: ["feeds:read", read] });
  // Employee records: an OAuth client with employees:sync, or an API key allowed to read employees.
  const employeesAuth = authenticate(deps, { allow: ["client", "apiKey"], scope: SYNC_SCOPE, keyScopes: ["feeds:read", "employees:read"] });
  router.get("/api/feed/templates", apiAuth("templates:read"), feed(deps, "template"));
  router.get("/api/feed/inspections", apiAuth("inspections:read"), feed(deps, "inspection"));
  router.get("/api/feed/actions", apiAuth("actions:read"), feed(deps, "action"));
  router.get("/api/v1/feed/employees", employeesAuth, feed(deps, "employee"));
  return router;
}
