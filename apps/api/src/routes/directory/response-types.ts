import { createResponseTypeOp, deleteResponseTypeOp, getResponseTypeOp, listResponseTypesOp, patchResponseTypeOp } from "@insp/contracts";
import { createResponseType, deleteResponseType, getResponseType, listResponseTypes, patchResponseType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Response types: /api/response-types (core directory/response-types.ts). */
export const responseTypeRoutes = (deps: Deps) => [
  route(deps, listResponseTypesOp, async ({ query }, req, res) => {
    res.json(await listResponseTypes(deps.db, org(req), query));
  }),
  route(deps, getResponseTypeOp, async ({ params }, req, res) => sendView(req, res, await getResponseType(deps.db, org(req), params.id))),
  route(deps, createResponseTypeOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createResponseType(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchResponseTypeOp, [adminOnly, requireIfMatch(getResponseTypeOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchResponseType(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteResponseTypeOp, [adminOnly], async ({ params }, req, res) => {
    await deleteResponseType(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
