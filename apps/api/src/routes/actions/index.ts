import type { Request, Router } from "express";
import { createActionOp, getActionOp, listActionsOp, patchActionOp } from "@insp/contracts";
import { actionFingerprint, createAction, getAction, listActions, patchAction, type ActionView } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { ifMatchRevisions, noneMatchHits, requireIfMatch, revisionETag } from "../../http/etag.ts";
import { mount, route } from "../../http/route.ts";

/** `"r3-1a2b3c4d"`: the revision, and a fingerprint of the assignee shown and of `overdue` (core actionFingerprint). */
const etagOf = (v: ActionView) => revisionETag({ revision: v.revision, fingerprint: actionFingerprint(v) }, "base64");

/**
 * Corrective actions (extension, docs/actions.md): API keys with actions:read / actions:write, and
 * every user of the organization. Any user may list, read and raise actions; PATCH is for API
 * keys, admin users, the action's assignee and the user who created it (core patchAction).
 */
export function actionRoutes(deps: Deps): Router {
  const org = (req: Request) => principalOf(req).organizationId;
  return mount([
    route(deps, createActionOp, async ({ body }, req, res) => {
      const action = await createAction(deps.db, org(req), auditOf(req), body);
      res.setHeader("ETag", etagOf(action));
      res.status(201).json(action);
    }),
    route(deps, listActionsOp, async ({ query }, req, res) => {
      res.json(await listActions(deps.db, org(req), query));
    }),
    route(deps, getActionOp, async ({ params }, req, res) => {
      const action = await getAction(deps.db, org(req), params.id);
      const etag = etagOf(action);
      res.setHeader("ETag", etag);
      if (noneMatchHits(req.header("if-none-match"), etag)) {
        res.status(304).end();
        return;
      }
      res.json(action);
    }),
    route(deps, patchActionOp, [requireIfMatch(getActionOp.path)], async ({ params, body }, req, res) => {
      const p = principalOf(req);
      const editor = { audit: auditOf(req), mayChangeAny: p.kind === "apiKey" || (p.kind === "user" && p.isAdmin) };
      const { action } = await patchAction(deps.db, p.organizationId, params.id, ifMatchRevisions(req.header("if-match")!), body, editor);
      res.setHeader("ETag", etagOf(action));
      res.json(action);
    }),
  ]);
}
