import { scimGroupOps } from "@insp/contracts";
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { route, type BoundRoute } from "../../http/route.ts";
import { contextOf, filterOf, pageOf, send, sendList, sendResource } from "./respond.ts";

const id = (p: unknown) => String(p);

/** /scim/v2/Groups. */
export const groupRoutes = (deps: Deps): BoundRoute[] => [
  route(deps, scimGroupOps.list, async (_input, req, res) => {
    const page = pageOf(req);
    sendList(req, res, page, await listScimGroups(contextOf(deps, req), filterOf(req), page));
  }),
  route(deps, scimGroupOps.create, async (_input, req, res) => sendResource(req, res, 201, await createScimGroup(contextOf(deps, req), req.body))),
  route(deps, scimGroupOps.read, async (_input, req, res) => sendResource(req, res, 200, await getScimGroup(contextOf(deps, req), id(req.params.id)))),
  route(deps, scimGroupOps.replace, async (_input, req, res) =>
    sendResource(req, res, 200, await replaceScimGroup(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match"))),
  ),
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
];
