import type { Router } from "express";
import { getEmployeeOp, listEmployeesOp } from "@insp/contracts";
import { getEmployee, listEmployees } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";

/** Reading employees back (extension): the sync's OAuth token and scope, or an API key with employees:read. */
export function employeeRoutes(deps: Deps): Router {
  return mount([
    route(deps, listEmployeesOp, async ({ query }, req, res) => {
      res.json(await listEmployees(deps.db, principalOf(req).organizationId, query));
    }),
    route(deps, getEmployeeOp, async ({ params }, req, res) => {
      res.json(await getEmployee(deps.db, principalOf(req).organizationId, params.id));
    }),
  ]);
}
