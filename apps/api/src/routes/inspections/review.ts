import { reviewInspectionOp } from "@insp/contracts";
import { reviewInspection, type Reviewer } from "@insp/core";
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
