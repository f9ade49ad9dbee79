import { listInspectionsOp } from "@insp/contracts";
import { listInspections } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

export const inspectionListRoute = (deps: Deps) =>
  route(deps, listInspectionsOp, async ({ query }, req, res) => {
    res.json(await listInspections(deps.db, principalOf(req).organizationId, query));
  });
