import { createAssetOp, deleteAssetOp, getAssetOp, listAssetInspectionsOp, listAssetsOp, patchAssetOp } from "@insp/contracts";
import { createAsset, deleteAsset, getAsset, listAssetInspections, listAssets, patchAsset } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf } from "../../http/auth.ts";
import { ifMatchRevisions, requireIfMatch } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { adminOnly, org, sendView } from "./shared.ts";

/** Assets: /api/assets and their history (core directory/assets.ts; docs/assets.md). */
export const assetRoutes = (deps: Deps) => [
  route(deps, listAssetsOp, async ({ query }, req, res) => {
    res.json(await listAssets(deps.db, org(req), query));
  }),
  route(deps, getAssetOp, async ({ params }, req, res) => sendView(req, res, await getAsset(deps.db, org(req), params.id))),
  route(deps, listAssetInspectionsOp, async ({ params, query }, req, res) => {
    res.json(await listAssetInspections(deps.db, org(req), params.id, query));
  }),
  route(deps, createAssetOp, [adminOnly], async ({ body }, req, res) =>
    sendView(req, res, await createAsset(deps.db, org(req), auditOf(req), body, deps.env.DIRECTORY_MAX_PER_ORG), 201),
  ),
  route(deps, patchAssetOp, [adminOnly, requireIfMatch(getAssetOp.path)], async ({ params, body }, req, res) =>
    sendView(req, res, await patchAsset(deps.db, org(req), params.id, ifMatchRevisions(req.header("if-match")!), body, auditOf(req))),
  ),
  route(deps, deleteAssetOp, [adminOnly], async ({ params }, req, res) => {
    await deleteAsset(deps.db, org(req), params.id, auditOf(req));
    res.status(204).end();
  }),
];
