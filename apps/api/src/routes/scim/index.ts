import type { Router } from "express";
import { errorBody } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { addressLimiterFor } from "../../http/rate-limit.ts";
import { mount } from "../../http/route.ts";
import { bulkRoutes } from "./bulk.ts";
import { discoveryRoutes } from "./discovery.ts";
import { groupRoutes } from "./groups.ts";
import { scimErrors, send } from "./respond.ts";
import { userRoutes } from "./users.ts";

/**
 * SCIM 2.0 for identity providers (Okta, Microsoft Entra ID): /scim/v2/Users, /Groups, /Bulk
 * with the token of an OAuth client that has scope `scim`; the discovery endpoints are the same
 * for everyone and need no token. core/scim/ does the work; these routes speak HTTP.
 */
export function scimRoutes(deps: Deps): Router {
  const router = mount([...discoveryRoutes(deps), ...userRoutes(deps), ...groupRoutes(deps), ...bulkRoutes(deps)]);
  // Unknown paths do not authenticate either: counted per client address, with a credential or without.
  const discovery = addressLimiterFor(deps).thisRoute;
  // Not operations: an unknown path under /scim/v2 is a SCIM 404, and every error a SCIM error body.
  router.use("/scim/v2", discovery, (req, res) => send(res, 404, errorBody(404, `No SCIM endpoint for ${req.method} ${req.path}`)));
  router.use("/scim/v2", scimErrors);
  return router;
}
