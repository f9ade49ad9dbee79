import type { Request } from "express";
import type { Router } from "express";
import { eraseEmployeeOp, getEmployeeOp, listEmployeesOp } from "@insp/contracts";
import { eraseEmployee, forbidden, getEmployee, listEmployees } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { auditOf, principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";

/** Before anything else: a user who is not an admin is refused (core checks it again). */
const adminOnly = (req: Request, _res: unknown, next: (err?: unknown) => void) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can erase employees") : undefined);
};

/**
 * Reading employees back (extension): the sync's OAuth token and scope, or an API key with
 * employees:read. Erasing a former employee: admin users, or an API key with employees:erase.
 */
export function employeeRoutes(deps: Deps): Router {
  return mount([
    route(deps, listEmployeesOp, async ({ query }, req, res) => {
      res.json(await listEmployees(deps.db, principalOf(req).organizationId, query));
    }),
    route(deps, getEmployeeOp, async ({ params }, req, res) => {
      res.json(await getEmployee(deps.db, principalOf(req).organizationId, params.id));
    }),
    route(deps, eraseEmployeeOp, [adminOnly], async ({ params }, req, res) => {
      // 200 both times: a repeat finds the employee erased and answers the same body.
      res.json(await eraseEmployee(deps.db, principalOf(req).organizationId, principalOf(req), params.id, auditOf(req)));
    }),
  ]);
}
