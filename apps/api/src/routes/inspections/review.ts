import { CommentBody, CommentListQuery, IdParam, ReviewBody } from "@insp/contracts";
import { addComment, listComments, reviewInspection, type Reviewer } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

/** POST /api/inspections/:id/review (extension): API keys with inspections:write and admin users, never of an inspection they conducted. */
export const reviewInspectionRoute = (deps: Deps) =>
  handle({ params: IdParam, body: ReviewBody }, async ({ params, body }, req, res) => {
    const p = principalOf(req);
    const reviewer: Reviewer = p.kind === "user" ? { kind: "user", userId: p.userId, isAdmin: p.isAdmin } : { kind: "apiKey" };
    res.json(await reviewInspection(deps.db, p.organizationId, params.id, body, reviewer, auditOf(req)));
  });

/** GET /api/inspections/:id/comments (extension): oldest first, paged. */
export const listCommentsRoute = (deps: Deps) =>
  handle({ params: IdParam, query: CommentListQuery }, async ({ params, query }, req, res) => {
    res.json(await listComments(deps.db, principalOf(req).organizationId, params.id, query));
  });

/** POST /api/inspections/:id/comments (extension): 201 with the comment. */
export const addCommentRoute = (deps: Deps) =>
  handle({ params: IdParam, body: CommentBody }, async ({ params, body }, req, res) => {
    res.status(201).json(await addComment(deps.db, principalOf(req).organizationId, params.id, body.body, auditOf(req)));
  });
