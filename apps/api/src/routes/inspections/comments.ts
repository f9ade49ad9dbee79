import { addCommentOp, listCommentsOp } from "@insp/contracts";
import { addComment, listComments } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/** GET /api/inspections/:id/comments (extension): oldest first, paged. */
export const listCommentsRoute = (deps: Deps) =>
  route(deps, listCommentsOp, async ({ params, query }, req, res) => {
    res.json(await listComments(deps.db, principalOf(req).organizationId, params.id, query));
  });

/** POST /api/inspections/:id/comments (extension): 201 with the comment. */
export const addCommentRoute = (deps: Deps) =>
  route(deps, addCommentOp, async ({ params, body }, req, res) => {
    res.status(201).json(await addComment(deps.db, principalOf(req).organizationId, params.id, body.body, auditOf(req)));
  });
