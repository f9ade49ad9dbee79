import { ACTION_CHANGES, ActionView } from "./actions.ts";
import { errorResponses, isoTimestamp, wholeNumber } from "./common.ts";
import { AssetTypeView, AssetView, GroupView, ResponseTypeView, RoleView, SiteView } from "./directory.ts";
import { EmployeeView } from "./employees.ts";
import { InspectionSummary } from "./inspections.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser, type Callers } from "./operation.ts";
import { OccurrenceView } from "./schedules.ts";
import { TemplateListItem } from "./templates.ts";
import { UserView } from "./users.ts";

/**
 * Change feeds (GET /api/feed/templates, /api/feed/inspections, /api/feed/actions, /api/v1/feed/employees,
 * and one per directory noun and for users: /api/feed/sites, groups, roles, response-types, asset-types, users).
 */

export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 500;

export const FeedQuery = z.object({
  cursor: z
    .string()
    .max(200, "cursor is not a cursor this feed returned")
    .optional()
    .openapi({ description: "nextCursor of the previous page; none: from the first change." }),
  limit: wholeNumber("limit")
    .transform((s) => Math.min(Number(s), FEED_LIMIT_MAX))
    .pipe(z.number().int().min(1, "limit must be at least 1"))
    .default(FEED_LIMIT_DEFAULT)
    .openapi({
      type: "integer",
      description: `Changes per page, default ${FEED_LIMIT_DEFAULT}; values above ${FEED_LIMIT_MAX} are capped at ${FEED_LIMIT_MAX}.`,
    }),
});

const CHANGES = ["created", "updated", "published", "archived", "deactivated"] as const;

const feedPage = (name: string, resource: z.ZodType, changes: readonly string[], kinds: readonly [string, ...string[]] = CHANGES) =>
  registry.register(
    name,
    z.object({
      items: z.array(
        z.object({
          change: z.enum(kinds).openapi({ description: `One of: ${changes.join(", ")}.` }),
          at: isoTimestamp.openapi({ description: "When the change was made (its transaction's start)." }),
          id: z.uuid(),
          resource: resource.nullable().openapi({ description: "The resource as it is now, in the shape its own endpoints answer." }),
        }),
      ),
      nextCursor: z.string().openapi({ description: "Pass as cursor to read on; also when hasMore is false (changes made later appear after it)." }),
      hasMore: z.boolean(),
    }),
  );

const TEMPLATE_CHANGES = ["created", "published", "archived", "draft_created"] as const;
const INSPECTION_CHANGES = ["created", "updated", "completed", "reviewed"] as const;
export const TemplateFeed = feedPage("TemplateFeed", TemplateListItem, TEMPLATE_CHANGES, TEMPLATE_CHANGES);
export const InspectionFeed = feedPage("InspectionFeed", InspectionSummary, INSPECTION_CHANGES, INSPECTION_CHANGES);
const EMPLOYEE_CHANGES = ["created", "updated", "deactivated", "erased"] as const;
export const EmployeeFeed = feedPage("EmployeeFeed", EmployeeView, EMPLOYEE_CHANGES, EMPLOYEE_CHANGES);
export const ActionFeed = feedPage("CorrectiveActionFeed", ActionView, ACTION_CHANGES, ACTION_CHANGES);
/** A directory row's changes (docs/organization-administration.md); a deleted row's items carry resource null. */
const DIRECTORY_CHANGES = ["created", "updated", "archived", "deleted"] as const;
const USER_CHANGES = ["created", "updated", "disabled", "enabled"] as const;
const directoryFeed = (name: string, view: z.ZodType) => feedPage(name, view, DIRECTORY_CHANGES, DIRECTORY_CHANGES);
const SiteFeed = directoryFeed("SiteFeed", SiteView);
const GroupFeed = directoryFeed("GroupFeed", GroupView);
const RoleFeed = directoryFeed("RoleFeed", RoleView);
const ResponseTypeFeed = directoryFeed("ResponseTypeFeed", ResponseTypeView);
const AssetTypeFeed = directoryFeed("AssetTypeFeed", AssetTypeView);
const AssetFeed = directoryFeed("AssetFeed", AssetView);
const UserFeed = feedPage("UserFeed", UserView, USER_CHANGES, USER_CHANGES);
const OCCURRENCE_CHANGES = ["opened", "due_soon", "missed", "started", "completed", "reassigned"] as const;
export const OccurrenceFeed = feedPage("OccurrenceFeed", OccurrenceView, OCCURRENCE_CHANGES, OCCURRENCE_CHANGES);

const description =
  "Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.";

const feedOp = (path: string, schema: z.ZodType, auth: Callers, what: string) =>
  defineOperation({
    method: "get",
    path,
    summary: `Change feed of ${what}; extension`,
    description,
    auth,
    request: { query: FeedQuery },
    responses: { 200: { description: `A page of changes of ${what}`, content: { "application/json": { schema } } }, ...errorResponses(400, 401, 403, 429) },
  });
export const templateFeedOp = feedOp("/api/feed/templates", TemplateFeed, keyOrUser("feeds:read", "templates:read"), "templates");
export const inspectionFeedOp = feedOp("/api/feed/inspections", InspectionFeed, keyOrUser("feeds:read", "inspections:read"), "inspections");
export const occurrenceFeedOp = feedOp("/api/feed/occurrences", OccurrenceFeed, keyOrUser("feeds:read", "schedules:read"), "occurrences of schedules");
export const actionFeedOp = feedOp("/api/feed/actions", ActionFeed, keyOrUser("feeds:read", "actions:read"), "corrective actions");
// Employee records: the sync's OAuth clients, or an API key that may read employees.
export const employeeFeedOp = feedOp(
  "/api/v1/feed/employees",
  EmployeeFeed,
  { allow: ["client", "apiKey"], scope: "employees:sync", keyScopes: ["feeds:read", "employees:read"] },
  "employees",
);

// The directory: every user of the organization (as its lists) and API keys with directory:read.
const directory = keyOrUser("feeds:read", "directory:read");
export const siteFeedOp = feedOp("/api/feed/sites", SiteFeed, directory, "sites");
export const groupFeedOp = feedOp("/api/feed/groups", GroupFeed, directory, "groups");
export const roleFeedOp = feedOp("/api/feed/roles", RoleFeed, directory, "roles");
export const responseTypeFeedOp = feedOp("/api/feed/response-types", ResponseTypeFeed, directory, "response types");
export const assetTypeFeedOp = feedOp("/api/feed/asset-types", AssetTypeFeed, directory, "asset types");
export const assetFeedOp = feedOp("/api/feed/assets", AssetFeed, directory, "assets");
// Users: admin users (another user: 403, as GET /api/users) and API keys with users:manage.
export const userFeedOp = feedOp("/api/feed/users", UserFeed, keyOrUser("feeds:read", "users:manage"), "users");
