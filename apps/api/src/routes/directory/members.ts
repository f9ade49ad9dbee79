import { addGroupMemberOp, listGroupMembersOp, removeGroupMemberOp } from "@insp/contracts";
import { addGroupMember, listGroupMembers, removeGroupMember } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org } from "./shared.ts";

/** A group's members: /api/groups/{id}/members (core directory/members.ts). */
export const memberRoutes = (deps: Deps) => [
  route(deps, listGroupMembersOp, async ({ params, query }, req, res) => {
    res.json(await listGroupMembers(deps.db, org(req), params.id, query));
  }),
  route(deps, addGroupMemberOp, [adminOnly], async ({ params, body }, req, res) => {
    res.json(await addGroupMember(deps.db, org(req), params.id, params.employeeId, body.memberRole ?? null, auditOf(req)));
  }),
  route(deps, removeGroupMemberOp, [adminOnly], async ({ params }, req, res) => {
    await removeGroupMember(deps.db, org(req), params.id, params.employeeId, auditOf(req));
    res.status(204).end();
  }),
];
