import { Router } from "express";
import { EmployeeListQuery, IdParam } from "@insp/contracts";
import { SYNC_SCOPE, getEmployee, listEmployees } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { authenticate, principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

/** Reading employees back (extension): the sync's OAuth token and scope, or an API key with employees:read. */
export function employeeRoutes(deps: Deps): Router {
  const router = Router();
  const auth = authenticate(deps, { allow: ["client", "apiKey"], scope: SYNC_SCOPE, keyScopes: ["employees:read"] });
  router.get(
    "/api/v1/employees",
    auth,
    handle({ query: EmployeeListQuery }, async ({ query }, req, res) => {
      res.json(await listEmployees(deps.db, principalOf(req).organizationId, query));
    }),
  );
  router.get(
    "/api/v1/employees/:id",
    auth,
    handle({ params: IdParam }, async ({ params }, req, res) => {
      res.json(await getEmployee(deps.db, principalOf(req).organizationId, params.id));
    }),
  );
  return router;
}
