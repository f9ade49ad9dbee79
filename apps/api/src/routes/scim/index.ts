import { Router, type RequestHandler } from "express";
import {
  BULK_MAX_PAYLOAD,
  SCIM_SCOPE,
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
import { authenticate } from "../../http/auth.ts";
import { inflatedBodySize } from "../../http/body.ts";
import { addressLimiterFor } from "../../http/rate-limit.ts";
import { baseUrlOf, contextOf, filterOf, pageOf, scimErrors, send, sendList, sendResource } from "./respond.ts";

/**
 * SCIM 2.0 for identity providers (Okta, Microsoft Entra ID): /scim/v2/Users, /Groups, /Bulk
 * with the token of an OAuth client that has scope `scim`; the discovery endpoints are the same
 * for everyone and need no token. core/scim/ does the work; these routes speak HTTP.
 */
export function scimRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["client"], scope: SCIM_SCOPE });
  const route =
    (fn: (...args: Parameters<RequestHandler>) => Promise<void>): RequestHandler =>
    (req, res, next) =>
      fn(req, res, next).catch(next);
  const id = (p: unknown) => String(p);

  // Discovery does not authenticate: counted per client address, with a credential or without.
  const discovery = addressLimiterFor(deps).thisRoute;
  router.get("/scim/v2/ServiceProviderConfig", discovery, route(async (req, res) => send(res, 200, await serviceProviderConfig(baseUrlOf(req)))));
  router.get("/scim/v2/ResourceTypes", discovery, route(async (req, res) => send(res, 200, await resourceTypes(baseUrlOf(req)))));
  router.get("/scim/v2/ResourceTypes/:name", discovery, route(async (req, res) => send(res, 200, await resourceTypes(baseUrlOf(req), id(req.params.name)))));
  router.get("/scim/v2/Schemas", discovery, route(async (req, res) => send(res, 200, await schemas(baseUrlOf(req)))));
  router.get("/scim/v2/Schemas/:id", discovery, route(async (req, res) => send(res, 200, await schemas(baseUrlOf(req), id(req.params.id)))));

  router.get("/scim/v2/Users", auth, route(async (req, res) => {
    const page = pageOf(req);
    sendList(req, res, page, await listScimUsers(contextOf(deps, req), filterOf(req), page));
  }));
  router.post("/scim/v2/Users", auth, route(async (req, res) => sendResource(req, res, 201, await createScimUser(contextOf(deps, req), req.body))));
  router.get("/scim/v2/Users/:id", auth, route(async (req, res) => sendResource(req, res, 200, await getScimUser(contextOf(deps, req), id(req.params.id)))));
  router.put("/scim/v2/Users/:id", auth, route(async (req, res) => sendResource(req, res, 200, await replaceScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))));
  router.patch("/scim/v2/Users/:id", auth, route(async (req, res) => sendResource(req, res, 200, await patchScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))));
  router.delete("/scim/v2/Users/:id", auth, route(async (req, res) => {
    await deleteScimUser(contextOf(deps, req), id(req.params.id), req.header("if-match"));
    send(res, 204);
  }));

  router.get("/scim/v2/Groups", auth, route(async (req, res) => {
    const page = pageOf(req);
    sendList(req, res, page, await listScimGroups(contextOf(deps, req), filterOf(req), page));
  }));
  router.post("/scim/v2/Groups", auth, route(async (req, res) => sendResource(req, res, 201, await createScimGroup(contextOf(deps, req), req.body))));
  router.get("/scim/v2/Groups/:id", auth, route(async (req, res) => sendResource(req, res, 200, await getScimGroup(contextOf(deps, req), id(req.params.id)))));
  router.put("/scim/v2/Groups/:id", auth, route(async (req, res) => sendResource(req, res, 200, await replaceScimGroup(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match")))));
  // A group's PATCH answers 204 (members can be many; RFC 7644 section 3.5.2 allows it), or the group when attributes are asked for.
  router.patch("/scim/v2/Groups/:id", auth, route(async (req, res) => {
    const group = await patchScimGroup(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match"));
    if (req.query.attributes === undefined) {
      res.setHeader("ETag", (group.meta as { version: string }).version);
      send(res, 204);
    } else sendResource(req, res, 200, group);
  }));
  router.delete("/scim/v2/Groups/:id", auth, route(async (req, res) => {
    await deleteScimGroup(contextOf(deps, req), id(req.params.id), req.header("if-match"));
    send(res, 204);
  }));

  router.post("/scim/v2/Bulk", auth, route(async (req, res) => {
    // As the service reads it, inflated: a compressed body's Content-Length counts the bytes on the wire.
    const size = inflatedBodySize(req);
    if (size > BULK_MAX_PAYLOAD) throw new ScimError(413, undefined, `The bulk request is ${size} bytes, more than maxPayloadSize (${BULK_MAX_PAYLOAD})`);
    // An operation that fails for a reason of the service's own answers a 500 in its place; its cause is logged here.
    send(res, 200, await runBulk(contextOf(deps, req), req.body, (err) => req.log.error({ err, requestId: req.id }, "bulk operation failed")));
  }));

  router.use("/scim/v2", discovery, (req, res) => send(res, 404, errorBody(404, `No SCIM endpoint for ${req.method} ${req.path}`)));
  router.use("/scim/v2", scimErrors);
  return router;
}
