/**
 * What an API key may do (docs/authentication.md, API key scopes). A key carries a list of these;
 * each operation that takes API keys names the scopes it needs, and a key without one of them is
 * answered 403 naming it. Users (admin or not) and OAuth clients are not limited by these: users by
 * their role, clients by their OAuth scopes (employees:sync, scim).
 */
export const API_KEY_SCOPES = {
  "templates:read": "list and read templates and their versions",
  "templates:write": "create templates and versions, publish and archive them",
  "inspections:read": "list and read inspections (their images included) and their revisions",
  "inspections:write": "import inspections and continue or correct them (PATCH)",
  "actions:read": "list and read corrective actions and follow their feed (with feeds:read)",
  "actions:write": "create, change, complete and reopen corrective actions",
  "media:read": "read images by id (GET /api/media/{id})",
  "media:write": "upload images (POST /api/media)",
  "webhooks:manage": "register, change, delete and replay webhook endpoints and read their deliveries",
  "audit:read": "read the audit log",
  "feeds:read": "follow change feeds, together with the read scope of the feed's resource",
  "employees:read": "employee records: the employees feed (with feeds:read) and employee.* webhook events",
  "directory:read":
    "list and read sites, groups (with their members), roles, response types and asset types, follow their feeds (with feeds:read), and receive their webhook events (site.*, group.*, role.*, response_type.*, asset_type.*)",
  "directory:write": "create, change, archive and delete sites, groups (and their members) and roles",
  "employees:erase":
    "erase a former (INACTIVE or TERMINATED) employee's personal data: names, e-mail, phone and account identity become a pseudonym (POST /api/v1/employees/{id}/erase)",
  "schedules:read": "list and read schedules, preview their upcoming times, list every occurrence; schedule.* and occurrence.* webhook events",
  "schedules:write": "create, change, pause, resume and delete schedules",
  "sync-sessions:manage": "read, approve and cancel snapshot sync sessions (the deletion guard's second pair of eyes)",
  "users:manage":
    "list, read and invite the organization's users (an invitation sends the welcome mail with a temporary password), change them (name, admin, disabled), mail them a new temporary password; the users feed (with feeds:read); user.* webhook events",
  "credentials:manage":
    "create, list, revoke API keys (with at most the scopes of the key that creates them) and create, list, rotate and revoke OAuth clients (employees:sync, scim); api_key.* and oauth_client.* webhook events",
} as const;

export type ApiKeyScope = keyof typeof API_KEY_SCOPES;
export const ALL_API_KEY_SCOPES = Object.keys(API_KEY_SCOPES) as ApiKeyScope[];
export const isApiKeyScope = (s: string): s is ApiKeyScope => Object.hasOwn(API_KEY_SCOPES, s);

/** The OAuth scope of employee sync: POST /api/v1/sync/employees, its sessions and the employees feed. */
export const SYNC_SCOPE = "employees:sync";
/** The OAuth scope of the SCIM 2.0 endpoints (/scim/v2): identity providers provisioning users and groups. */
export const SCIM_SCOPE = "scim";
/** The OAuth scopes a client token may carry; `scim` has a security scheme of its own in the document. */
export type ClientScope = typeof SYNC_SCOPE | typeof SCIM_SCOPE;
