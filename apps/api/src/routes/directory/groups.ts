import { createGroupOp, deleteGroupOp, getGroupOp, listGroupsOp, patchGroupOp } from "@insp/contracts";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Groups: /api/groups (core directory/groups.ts). */
export const groupRoutes = (deps: Deps) => [
  route(deps, listGroupsOp, async ({ query }, req, res) => {
    res.json(await listGroups(deps.db, org(req), query));
  }),
  route(deps, getGroupOp, async ({ params }, req, res) => sendView(req, res, await getGroup(deps.db, org(req), params.id))),
  route(deps, createGroupOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createGroup(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchGroupOp, [adminOnly, requireIfMatch(getGroupOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchGroup(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteGroupOp, [adminOnly], async ({ params }, req, res) => {
    await deleteGroup(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
