import { addCommentOp, listCommentsOp, reviewInspectionOp } from "@insp/contracts";
import { addComment, listComments, reviewInspection, type Reviewer } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/** POST /api/inspections/:id/review (extension): API keys with inspections:write and admin users, never of an inspection they conducted. */
export const reviewInspectionRoute = (deps: Deps) =>
  route(deps, reviewInspectionOp, async ({ params, body }, req, res) => {
    const p = principalOf(req);
    const reviewer: Reviewer = p.kind === "user" ? { kind: "user", userId: p.userId, isAdmin: p.isAdmin } : { kind: "apiKey" };
    res.json(await reviewInspection(deps.db, p.organizationId, params.id, body, reviewer, auditOf(req)));
  });

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
