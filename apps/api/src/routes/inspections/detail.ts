import { IdParam, InspectionDetailQuery } from "@insp/contracts";
import { getInspectionDetail, type MediaStore } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { handle } from "../../http/handle.ts";

export const inspectionDetailRoute = (deps: Deps, store: MediaStore) =>
  handle({ params: IdParam, query: InspectionDetailQuery }, async ({ params, query }, req, res) => {
    res.json(await getInspectionDetail(deps.db, store, principalOf(req).organizationId, params.id, { images: query.images }));
  });
