import type { Router } from "express";
import { scimBulkOp, scimDiscoveryOps, scimGroupOps, scimUserOps } from "@insp/contracts";
import {
  BULK_MAX_PAYLOAD,
  ScimError,
  createScimGroup,
  createScimUser,
  deleteScimGroup,
  deleteScimUser,
  errorBody,
  getScimGroup,
  getScimUser,
  listScimGroups,
  listScimUsers,
  patchScimGroup,
  patchScimUser,
  replaceScimGroup,
  replaceScimUser,
  resourceTypes,
  runBulk,
  schemas,
  serviceProviderConfig,
} from "@insp/core";
import type { Deps } from "../../deps.ts";
import { inflatedBodySize } from "../../http/body.ts";
import { addressLimiterFor } from "../../http/rate-limit.ts";
import { mount, route } from "../../http/route.ts";
import { baseUrlOf, contextOf, filterOf, pageOf, scimErrors, send, sendList, sendResource } from "./respond.ts";

/**
 * SCIM 2.0 for identity providers (Okta, Microsoft Entra ID): /scim/v2/Users, /Groups, /Bulk
 * with the token of an OAuth client that has scope `scim`; the discovery endpoints are the same
 * for everyone and need no token. core/scim/ does the work; these routes speak HTTP.
 */
export function scimRoutes(deps: Deps): Router {
  const id = (p: unknown) => String(p);
  // Discovery does not authenticate (auth "address"): counted per client address, with a credential or without.
  const discovery = addressLimiterFor(deps).thisRoute;
  const router = mount([
    route(deps, scimDiscoveryOps.serviceProviderConfig, async (_input, req, res) => send(res, 200, await serviceProviderConfig(baseUrlOf(req)))),
    route(deps, scimDiscoveryOps.resourceTypes, async (_input, req, res) => send(res, 200, await resourceTypes(baseUrlOf(req)))),
    route(deps, scimDiscoveryOps.resourceType, async (_input, req, res) => send(res, 200, await resourceTypes(baseUrlOf(req), id(req.params.name)))),
    route(deps, scimDiscoveryOps.schemas, async (_input, req, res) => send(res, 200, await schemas(baseUrlOf(req)))),
    route(deps, scimDiscoveryOps.schema, async (_input, req, res) => send(res, 200, await schemas(baseUrlOf(req), id(req.params.id)))),

    route(deps, scimUserOps.list, async (_input, req, res) => {
      const page = pageOf(req);
      sendList(req, res, page, await listScimUsers(contextOf(deps, req), filterOf(req), page));
    }),
    route(deps, scimUserOps.create, async (_input, req, res) => sendResource(req, res, 201, await createScimUser(contextOf(deps, req), req.body))),
    route(deps, scimUserOps.read, async (_input, req, res) => sendResource(req, res, 200, await getScimUser(contextOf(deps, req), id(req.params.id)))),
    route(deps, scimUserOps.replace, async (_input, req, res) => sendResource(req, res, 200, await replaceScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))),
    route(deps, scimUserOps.patch, async (_input, req, res) => sendResource(req, res, 200, await patchScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))),
    route(deps, scimUserOps.delete, async (_input, req, res) => {
      await deleteScimUser(contextOf(deps, req), id(req.params.id), req.header("if-match"));
      send(res, 204);
    }),

    route(deps, scimGroupOps.list, async (_input, req, res) => {
      const page = pageOf(req);
      sendList(req, res, page, await listScimGroups(contextOf(deps, req), filterOf(req), page));
    }),
    route(deps, scimGroupOps.create, async (_input, req, res) => sendResource(req, res, 201, await createScimGroup(contextOf(deps, req), req.body))),
    route(deps, scimGroupOps.read, async (_input, req, res) => sendResource(req, res, 200, await getScimGroup(contextOf(deps, req), id(req.params.id)))),
    route(deps, scimGroupOps.replace, async (_input, req, res) => sendResource(req, res, 200, await replaceScimGroup(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))),
    // A group's PATCH answers 204 (members can be many; RFC 7644 section 3.5.2 allows it), or the group when attributes are asked for.
    route(deps, scimGroupOps.patch, async (_input, req, res) => {
      const group = await patchScimGroup(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match"));
      if (req.query.attributes === undefined) {
        res.setHeader("ETag", (group.meta as { version: string }).version);
        send(res, 204);
      } else sendResource(req, res, 200, group);
    }),
    route(deps, scimGroupOps.delete, async (_input, req, res) => {
      await deleteScimGroup(contextOf(deps, req), id(req.params.id), req.header("if-match"));
      send(res, 204);
    }),

    route(deps, scimBulkOp, async (_input, req, res) => {
      // As the service reads it, inflated: a compressed body's Content-Length counts the bytes on the wire.
      const size = inflatedBodySize(req);
      if (size > BULK_MAX_PAYLOAD) throw new ScimError(413, undefined, `The bulk request is ${size} bytes, more than maxPayloadSize (${BULK_MAX_PAYLOAD})`);
      // An operation that fails for a reason of the service's own answers a 500 in its place; its cause is logged here.
      send(res, 200, await runBulk(contextOf(deps, req), req.body, (err) => req.log.error({ err, requestId: req.id }, "bulk operation failed")));
    }),
  ]);
  // Not operations: an unknown path under /scim/v2 is a SCIM 404, and every error a SCIM error body.
  router.use("/scim/v2", discovery, (req, res) => send(res, 404, errorBody(404, `No SCIM endpoint for ${req.method} ${req.path}`)));
  router.use("/scim/v2", scimErrors);
  return router;
}
