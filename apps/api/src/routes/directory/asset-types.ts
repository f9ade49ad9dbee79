import { createAssetTypeOp, deleteAssetTypeOp, getAssetTypeOp, listAssetTypesOp, patchAssetTypeOp } from "@insp/contracts";
import { createAssetType, deleteAssetType, getAssetType, listAssetTypes, patchAssetType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Asset types: /api/asset-types (core directory/asset-types.ts). */
export const assetTypeRoutes = (deps: Deps) => [
  route(deps, listAssetTypesOp, async ({ query }, req, res) => {
    res.json(await listAssetTypes(deps.db, org(req), query));
  }),
  route(deps, getAssetTypeOp, async ({ params }, req, res) => sendView(req, res, await getAssetType(deps.db, org(req), params.id))),
  route(deps, createAssetTypeOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createAssetType(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchAssetTypeOp, [adminOnly, requireIfMatch(getAssetTypeOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchAssetType(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteAssetTypeOp, [adminOnly], async ({ params }, req, res) => {
    await deleteAssetType(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
