import type { RequestHandler, Router } from "express";
import {
  actionFeedOp,
  assetFeedOp,
  assetTypeFeedOp,
  employeeFeedOp,
  groupFeedOp,
  inspectionFeedOp,
  occurrenceFeedOp,
  responseTypeFeedOp,
  roleFeedOp,
  siteFeedOp,
  templateFeedOp,
  userFeedOp,
} from "@insp/contracts";
import { forbidden, readFeed, type ResourceType } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { mount, route, type OperationHandler } from "../../http/route.ts";

const feed =
  (deps: Deps, resourceType: ResourceType): OperationHandler<typeof templateFeedOp> =>
  async ({ query }, req, res) => {
    res.json(await readFeed(deps.db, principalOf(req).organizationId, resourceType, query));
  };

/** The users feed carries what GET /api/users answers: a user who is not an admin is refused, as there. */
const adminOnly: RequestHandler = (req, _res, next) => {
  const p = principalOf(req);
  next(p.kind === "user" && !p.isAdmin ? forbidden("Only admin users can follow the users feed") : undefined);
};

/**
 * Change feeds (extension), each with the credentials of its resource's list: templates,
 * inspections, corrective actions and the directory's nouns (every user; keys with the list's read
 * scope and feeds:read), users (admin users; keys with users:manage and feeds:read), employees
 * with the sync's OAuth scope.
 */
export function feedRoutes(deps: Deps): Router {
  return mount([
    route(deps, templateFeedOp, feed(deps, "template")),
    route(deps, inspectionFeedOp, feed(deps, "inspection")),
    route(deps, actionFeedOp, feed(deps, "action")),
    route(deps, occurrenceFeedOp, feed(deps, "occurrence")),
    route(deps, employeeFeedOp, feed(deps, "employee")),
    route(deps, siteFeedOp, feed(deps, "site")),
    route(deps, groupFeedOp, feed(deps, "group")),
    route(deps, roleFeedOp, feed(deps, "role")),
    route(deps, responseTypeFeedOp, feed(deps, "response_type")),
    route(deps, assetTypeFeedOp, feed(deps, "asset_type")),
    route(deps, assetFeedOp, feed(deps, "asset")),
    route(deps, userFeedOp, [adminOnly], feed(deps, "user")),
  ]);
}
