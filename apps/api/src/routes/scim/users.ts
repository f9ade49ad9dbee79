import { scimUserOps } from "@insp/contracts";
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { route, type BoundRoute } from "../../http/route.ts";
import { contextOf, filterOf, pageOf, send, sendList, sendResource } from "./respond.ts";

const id = (p: unknown) => String(p);

/** /scim/v2/Users: the organization's employees as SCIM Users. */
export const userRoutes = (deps: Deps): BoundRoute[] => [
  route(deps, scimUserOps.list, async (_input, req, res) => {
    const page = pageOf(req);
    sendList(req, res, page, await listScimUsers(contextOf(deps, req), filterOf(req), page));
  }),
  route(deps, scimUserOps.create, async (_input, req, res) => sendResource(req, res, 201, await createScimUser(contextOf(deps, req), req.body))),
  route(deps, scimUserOps.read, async (_input, req, res) => sendResource(req, res, 200, await getScimUser(contextOf(deps, req), id(req.params.id)))),
  route(deps, scimUserOps.replace, async (_input, req, res) =>
    sendResource(req, res, 200, await replaceScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match"))),
  ),
  route(deps, scimUserOps.patch, async (_input, req, res) =>
    sendResource(req, res, 200, await patchScimUser(contextOf(deps, req), id(req.params.id), req.body, req.header("if-match"))),
  ),
  route(deps, scimUserOps.delete, async (_input, req, res) => {
    await deleteScimUser(contextOf(deps, req), id(req.params.id), req.header("if-match"));
    send(res, 204);
  }),
];
