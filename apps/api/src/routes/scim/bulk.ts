import { scimBulkOp } from "@insp/contracts";
import { BULK_MAX_PAYLOAD, ScimError, runBulk } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { inflatedBodySize } from "../../http/body.ts";
import { route, type BoundRoute } from "../../http/route.ts";
import { contextOf, send } from "./respond.ts";

/** /scim/v2/Bulk: several operations in one request, with bulkId references. */
export const bulkRoutes = (deps: Deps): BoundRoute[] => [
  route(deps, scimBulkOp, async (_input, req, res) => {
    // As the service reads it, inflated: a compressed body's Content-Length counts the bytes on the wire.
    const size = inflatedBodySize(req);
    if (size > BULK_MAX_PAYLOAD) throw new ScimError(413, undefined, `The bulk request is ${size} bytes, more than maxPayloadSize (${BULK_MAX_PAYLOAD})`);
    // An operation that fails for a reason of the service's own answers a 500 in its place; its cause is logged here.
    send(res, 200, await runBulk(contextOf(deps, req), req.body, (err) => req.log.error({ err, requestId: req.id }, "bulk operation failed")));
  }),
];
