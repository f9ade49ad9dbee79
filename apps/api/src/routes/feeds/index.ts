import type { Router } from "express";
import { actionFeedOp, employeeFeedOp, inspectionFeedOp, occurrenceFeedOp, templateFeedOp } from "@insp/contracts";
import { readFeed, type ResourceType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { mount, route, type OperationHandler } from "../../http/route.ts";

const feed =
  (deps: Deps, resourceType: ResourceType): OperationHandler<typeof templateFeedOp> =>
  async ({ query }, req, res) => {
    res.json(await readFeed(deps.db, principalOf(req).organizationId, resourceType, query));
  };

/** Change feeds (extension): templates, inspections and corrective actions with the same credentials as their lists, employees with the sync's OAuth scope. */
export function feedRoutes(deps: Deps): Router {
  return mount([
    route(deps, templateFeedOp, feed(deps, "template")),
    route(deps, inspectionFeedOp, feed(deps, "inspection")),
    route(deps, actionFeedOp, feed(deps, "action")),
    route(deps, occurrenceFeedOp, feed(deps, "occurrence")),
    route(deps, employeeFeedOp, feed(deps, "employee")),
  ]);
}
