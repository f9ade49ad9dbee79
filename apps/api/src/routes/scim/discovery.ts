import { scimDiscoveryOps } from "@insp/contracts";
import { resourceTypes, schemas, serviceProviderConfig } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { route, type BoundRoute } from "../../http/route.ts";
import { baseUrlOf, send } from "./respond.ts";

const id = (p: unknown) => String(p);

/** Discovery (RFC 7644 section 4): the same for everyone, no token (auth "address": counted per client address). */
export const discoveryRoutes = (deps: Deps): BoundRoute[] => [
  route(deps, scimDiscoveryOps.serviceProviderConfig, async (_input, req, res) => send(res, 200, await serviceProviderConfig(baseUrlOf(req)))),
  route(deps, scimDiscoveryOps.resourceTypes, async (_input, req, res) => send(res, 200, await resourceTypes(baseUrlOf(req)))),
  route(deps, scimDiscoveryOps.resourceType, async (_input, req, res) => send(res, 200, await resourceTypes(baseUrlOf(req), id(req.params.name)))),
  route(deps, scimDiscoveryOps.schemas, async (_input, req, res) => send(res, 200, await schemas(baseUrlOf(req)))),
  route(deps, scimDiscoveryOps.schema, async (_input, req, res) => send(res, 200, await schemas(baseUrlOf(req), id(req.params.id)))),
];
