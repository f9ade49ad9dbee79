import { syncRequestStatusOp } from "@insp/contracts";
import { isUuid, loadSyncStatus, notFound } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { route } from "../../http/route.ts";

/** GET /api/v1/sync/requests/:requestId: progress, and the full answer once completed. Other organizations' requests are 404. */
export function syncStatusRoute(deps: Deps) {
  return route(deps, syncRequestStatusOp, async ({ params }, req, res) => {
    const missing = () => notFound(`Sync request ${params.requestId} not found`);
    if (!isUuid(params.requestId)) throw missing();
    const status = await loadSyncStatus(deps.db, principalOf(req).organizationId, params.requestId);
    if (!status) throw missing();
    res.setHeader("Cache-Control", "no-store");
    res.json(status);
  });
}
