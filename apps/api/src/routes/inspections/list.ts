import { InspectionListQuery } from "@insp/contracts";
import { listInspections } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

export const inspectionListRoute = (deps: Deps) =>
  handle({ query: InspectionListQuery }, async ({ query }, req, res) => {
    res.json(await listInspections(deps.db, principalOf(req).organizationId, query));
  });
