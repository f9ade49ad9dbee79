import { createRoleOp, deleteRoleOp, getRoleOp, listRolesOp, patchRoleOp } from "@insp/contracts";
import { createRole, deleteRole, getRole, listRoles, patchRole } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Roles: /api/roles (core directory/roles.ts). */
export const roleRoutes = (deps: Deps) => [
  route(deps, listRolesOp, async ({ query }, req, res) => {
    res.json(await listRoles(deps.db, org(req), query));
  }),
  route(deps, getRoleOp, async ({ params }, req, res) => sendView(req, res, await getRole(deps.db, org(req), params.id))),
  route(deps, createRoleOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createRole(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchRoleOp, [adminOnly, requireIfMatch(getRoleOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchRole(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteRoleOp, [adminOnly], async ({ params }, req, res) => {
    await deleteRole(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
