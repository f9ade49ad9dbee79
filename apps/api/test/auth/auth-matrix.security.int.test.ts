import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { ALL_API_KEY_SCOPES, type ApiKeyScope } from "@insp/contracts";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { syncCaller, syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { importBody, importOk, png, publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { scimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * Every authenticated operation against every kind of bad credential, and against another
 * tenant's ids in its path, query and body. Tokens are forged the ways attackers forge them:
 * alg none, HS256 keyed with the published public key, claims edited after signing, an
 * unknown kid, a jku pointing elsewhere; expired and scope-less ones are minted with the
 * service's own key (read from its database) so that only the checked property is wrong.
 */

type Kind = "apiKey" | "client" | "user";
interface Ids {
  template: string;
  inspection: string;
  request: string;
  employee: string;
  webhook: string;
  media: string;
  session: string;
  group: string;
  site: string;
  role: string;
  responseType: string;
  assetType: string;
  asset: string;
  action: string;
  export: string;
  apiKey: string;
  oauthClient: string;
  user: string;
  schedule: string;
  occurrence: string;
}
interface Op {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (ids: Ids) => string;
  body?: (t: DemoSeed, tpl: Tpl) => unknown;
  headers?: Record<string, string>;
  accepts: Kind[];
  /** Needs an administrator when called with a user token. */
  adminOnly?: boolean;
  /** A client token without this scope is refused with 403. */
  scope?: string;
  /** The scopes an API key needs: a key lacking any one of them is refused with 403 naming it. */
  keyScopes?: ApiKeyScope[];
  /** What this op needs beyond keyScopes: a webhook for template.created reads templates, to register it or act on it. */
  bodyScopes?: ApiKeyScope[];
}

const CREDENTIALS = { accepts: ["apiKey", "user"] as Kind[], adminOnly: true, keyScopes: ["credentials:manage"] as ApiKeyScope[] };

const USERS = { accepts: ["apiKey", "user"] as Kind[], adminOnly: true, keyScopes: ["users:manage"] as ApiKeyScope[] };

const OPS: Op[] = [
  { name: "POST /api/users", method: "POST", path: () => "/api/users", body: () => ({ email: `matrix-${randomUUID()}@example.test` }), ...USERS },
  { name: "GET /api/users", method: "GET", path: () => "/api/users", ...USERS },
  { name: "GET /api/users/{id}", method: "GET", path: (i) => `/api/users/${i.user}`, ...USERS },
  {
    name: "PATCH /api/users/{id}",
    method: "PATCH",
    path: (i) => `/api/users/${i.user}`,
    body: () => ({ name: "Matrix" }),
    headers: { "if-match": "*" },
    ...USERS,
  },
  { name: "POST /api/users/{id}/reset-password", method: "POST", path: (i) => `/api/users/${i.user}/reset-password`, ...USERS },
  { name: "POST /api/api-keys", method: "POST", path: () => "/api/api-keys", body: () => ({ name: "matrix", scopes: ["credentials:manage"] }), ...CREDENTIALS },
  { name: "GET /api/api-keys", method: "GET", path: () => "/api/api-keys", ...CREDENTIALS },
  { name: "GET /api/api-keys/{id}", method: "GET", path: (i) => `/api/api-keys/${i.apiKey}`, ...CREDENTIALS },
  { name: "POST /api/api-keys/{id}/revoke", method: "POST", path: (i) => `/api/api-keys/${i.apiKey}/revoke`, ...CREDENTIALS },
  {
    name: "POST /api/oauth-clients",
    method: "POST",
    path: () => "/api/oauth-clients",
    body: () => ({ name: "matrix", scopes: ["employees:sync"] }),
    ...CREDENTIALS,
  },
  { name: "GET /api/oauth-clients", method: "GET", path: () => "/api/oauth-clients", ...CREDENTIALS },
  { name: "GET /api/oauth-clients/{clientId}", method: "GET", path: (i) => `/api/oauth-clients/${i.oauthClient}`, ...CREDENTIALS },
  {
    name: "POST /api/oauth-clients/{clientId}/rotate-secret",
    method: "POST",
    path: (i) => `/api/oauth-clients/${i.oauthClient}/rotate-secret`,
    ...CREDENTIALS,
  },
  { name: "POST /api/oauth-clients/{clientId}/revoke", method: "POST", path: (i) => `/api/oauth-clients/${i.oauthClient}/revoke`, ...CREDENTIALS },
  { name: "GET /api/templates", method: "GET", path: () => "/api/templates", accepts: ["apiKey", "user"], keyScopes: ["templates:read"] },
  { name: "GET /api/templates/{id}", method: "GET", path: (i) => `/api/templates/${i.template}`, accepts: ["apiKey", "user"], keyScopes: ["templates:read"] },
  {
    name: "POST /api/templates",
    method: "POST",
    path: () => "/api/templates",
    body: (t) => ({ createdBy: t.users.admin.id, name: "Matrix", type: "AUDIT", sections: [] }),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["templates:write"],
  },
  {
    name: "GET /api/templates/{id}/versions",
    method: "GET",
    path: (i) => `/api/templates/${i.template}/versions`,
    accepts: ["apiKey", "user"],
    keyScopes: ["templates:read"],
  },
  {
    name: "POST /api/templates/{id}/versions",
    method: "POST",
    path: (i) => `/api/templates/${i.template}/versions`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["templates:write"],
  },
  {
    name: "POST /api/templates/{id}/publish",
    method: "POST",
    path: (i) => `/api/templates/${i.template}/publish`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["templates:write"],
  },
  {
    name: "POST /api/templates/{id}/archive",
    method: "POST",
    path: (i) => `/api/templates/${i.template}/archive`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["templates:write"],
  },
  { name: "GET /api/inspections", method: "GET", path: () => "/api/inspections", accepts: ["apiKey", "user"], keyScopes: ["inspections:read"] },
  {
    name: "GET /api/inspections/{id}",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "PATCH /api/inspections/{id}",
    method: "PATCH",
    path: (i) => `/api/inspections/${i.inspection}`,
    body: (_t, tpl) => ({ answers: [{ questionId: tpl.q.remarks!.id, answerText: "matrix" }] }),
    headers: { "if-match": "*" },
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:write"],
  },
  {
    name: "GET /api/inspections/{id}/revisions",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}/revisions`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "GET /api/inspections/{id}/revisions/{revision}",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}/revisions/1`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "GET /api/inspections/{id}/report.pdf",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}/report.pdf`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "GET /api/inspections/{id}/reports/{reportId}",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}/reports/00000000-0000-4000-8000-000000000000`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "POST /api/exports",
    method: "POST",
    path: () => "/api/exports",
    body: () => ({ format: "csv" }),
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  { name: "GET /api/exports", method: "GET", path: () => "/api/exports", accepts: ["apiKey", "user"], keyScopes: ["inspections:read"] },
  { name: "GET /api/exports/{id}", method: "GET", path: (i) => `/api/exports/${i.export}`, accepts: ["apiKey", "user"], keyScopes: ["inspections:read"] },
  {
    name: "GET /api/exports/{id}/download",
    method: "GET",
    path: (i) => `/api/exports/${i.export}/download`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  { name: "DELETE /api/exports/{id}", method: "DELETE", path: (i) => `/api/exports/${i.export}`, accepts: ["apiKey", "user"], keyScopes: ["inspections:read"] },
  {
    name: "POST /api/inspections",
    method: "POST",
    path: () => "/api/inspections",
    body: (t, tpl) => importBody(t, tpl),
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:write"],
  },
  {
    name: "POST /api/inspections/{id}/review",
    method: "POST",
    path: (i) => `/api/inspections/${i.inspection}/review`,
    body: () => ({ state: "APPROVED" }),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["inspections:write"],
  },
  {
    name: "GET /api/inspections/{id}/comments",
    method: "GET",
    path: (i) => `/api/inspections/${i.inspection}/comments`,
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:read"],
  },
  {
    name: "POST /api/inspections/{id}/comments",
    method: "POST",
    path: (i) => `/api/inspections/${i.inspection}/comments`,
    body: () => ({ body: "matrix" }),
    accepts: ["apiKey", "user"],
    keyScopes: ["inspections:write"],
  },
  {
    name: "POST /api/actions",
    method: "POST",
    path: () => "/api/actions",
    body: (t) => ({ title: "Matrix", assigneeId: t.users.inspector.id }),
    accepts: ["apiKey", "user"],
    keyScopes: ["actions:write"],
  },
  { name: "GET /api/actions", method: "GET", path: () => "/api/actions", accepts: ["apiKey", "user"], keyScopes: ["actions:read"] },
  { name: "GET /api/actions/{id}", method: "GET", path: (i) => `/api/actions/${i.action}`, accepts: ["apiKey", "user"], keyScopes: ["actions:read"] },
  {
    name: "PATCH /api/actions/{id}",
    method: "PATCH",
    path: (i) => `/api/actions/${i.action}`,
    body: () => ({ priority: "HIGH" }),
    headers: { "if-match": "*" },
    accepts: ["apiKey", "user"],
    keyScopes: ["actions:write"],
  },
  {
    name: "POST /api/v1/sync/employees",
    method: "POST",
    path: () => "/api/v1/sync/employees",
    body: () => ({ employees: [{ externalEmployeeId: `M-${randomUUID()}` }] }),
    accepts: ["client"],
    scope: "employees:sync",
  },
  {
    name: "GET /api/v1/sync/requests/{requestId}",
    method: "GET",
    path: (i) => `/api/v1/sync/requests/${i.request}`,
    accepts: ["client"],
    scope: "employees:sync",
  },
  { name: "POST /api/v1/sync/sessions", method: "POST", path: () => "/api/v1/sync/sessions", accepts: ["client"], scope: "employees:sync" },
  {
    name: "GET /api/v1/sync/sessions/{id}",
    method: "GET",
    path: (i) => `/api/v1/sync/sessions/${i.session}`,
    accepts: ["client", "apiKey", "user"],
    scope: "employees:sync",
    adminOnly: true,
    keyScopes: ["sync-sessions:manage"],
  },
  {
    name: "POST /api/v1/sync/sessions/{id}/commit",
    method: "POST",
    path: (i) => `/api/v1/sync/sessions/${i.session}/commit?dryRun=true`,
    accepts: ["client"],
    scope: "employees:sync",
  },
  {
    name: "POST /api/v1/sync/sessions/{id}/approve",
    method: "POST",
    path: (i) => `/api/v1/sync/sessions/${i.session}/approve`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["sync-sessions:manage"],
  },
  {
    name: "POST /api/v1/sync/sessions/{id}/cancel",
    method: "POST",
    path: (i) => `/api/v1/sync/sessions/${i.session}/cancel`,
    accepts: ["client", "apiKey", "user"],
    scope: "employees:sync",
    adminOnly: true,
    keyScopes: ["sync-sessions:manage"],
  },
  {
    name: "GET /api/v1/employees",
    method: "GET",
    path: () => "/api/v1/employees",
    accepts: ["client", "apiKey"],
    scope: "employees:sync",
    keyScopes: ["employees:read"],
  },
  {
    name: "GET /api/v1/employees/{id}",
    method: "GET",
    path: (i) => `/api/v1/employees/${i.employee}`,
    accepts: ["client", "apiKey"],
    scope: "employees:sync",
    keyScopes: ["employees:read"],
  },
  // The matrix's employee is ACTIVE: a caller past authorization is answered 409, and nothing is erased.
  {
    name: "POST /api/v1/employees/{id}/erase",
    method: "POST",
    path: (i) => `/api/v1/employees/${i.employee}/erase`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["employees:erase"],
  },
  {
    name: "GET /api/feed/templates",
    method: "GET",
    path: () => "/api/feed/templates",
    accepts: ["apiKey", "user"],
    keyScopes: ["feeds:read", "templates:read"],
  },
  {
    name: "GET /api/feed/inspections",
    method: "GET",
    path: () => "/api/feed/inspections",
    accepts: ["apiKey", "user"],
    keyScopes: ["feeds:read", "inspections:read"],
  },
  { name: "GET /api/feed/actions", method: "GET", path: () => "/api/feed/actions", accepts: ["apiKey", "user"], keyScopes: ["feeds:read", "actions:read"] },
  ...["sites", "groups", "roles", "response-types", "asset-types", "assets"].map((noun): Op => ({
    name: `GET /api/feed/${noun}`,
    method: "GET",
    path: () => `/api/feed/${noun}`,
    accepts: ["apiKey", "user"],
    keyScopes: ["feeds:read", "directory:read"],
  })),
  { name: "GET /api/feed/users", method: "GET", path: () => "/api/feed/users", ...USERS, keyScopes: ["feeds:read", "users:manage"] },
  {
    name: "GET /api/feed/occurrences",
    method: "GET",
    path: () => "/api/feed/occurrences",
    accepts: ["apiKey", "user"],
    keyScopes: ["feeds:read", "schedules:read"],
  },
  // Scheduled inspections (docs/schedules.md): reading is any user's, changing an admin's.
  { name: "GET /api/schedules", method: "GET", path: () => "/api/schedules", accepts: ["apiKey", "user"], keyScopes: ["schedules:read"] },
  { name: "GET /api/schedules/{id}", method: "GET", path: (i) => `/api/schedules/${i.schedule}`, accepts: ["apiKey", "user"], keyScopes: ["schedules:read"] },
  {
    name: "GET /api/schedules/{id}/upcoming",
    method: "GET",
    path: (i) => `/api/schedules/${i.schedule}/upcoming`,
    accepts: ["apiKey", "user"],
    keyScopes: ["schedules:read"],
  },
  { name: "POST /api/schedules", method: "POST", path: () => "/api/schedules", accepts: ["apiKey", "user"], adminOnly: true, keyScopes: ["schedules:write"] },
  {
    name: "PATCH /api/schedules/{id}",
    method: "PATCH",
    path: (i) => `/api/schedules/${i.schedule}`,
    body: () => ({ name: "Matrix" }),
    headers: { "if-match": "*" },
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["schedules:write"],
  },
  {
    name: "DELETE /api/schedules/{id}",
    method: "DELETE",
    path: () => `/api/schedules/${randomUUID()}`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["schedules:write"],
  },
  { name: "GET /api/occurrences", method: "GET", path: () => "/api/occurrences", accepts: ["apiKey", "user"], keyScopes: ["schedules:read"] },
  {
    name: "GET /api/occurrences/{id}",
    method: "GET",
    path: (i) => `/api/occurrences/${i.occurrence}`,
    accepts: ["apiKey", "user"],
    keyScopes: ["schedules:read"],
  },
  {
    name: "GET /api/v1/feed/employees",
    method: "GET",
    path: () => "/api/v1/feed/employees",
    accepts: ["client", "apiKey"],
    scope: "employees:sync",
    keyScopes: ["feeds:read", "employees:read"],
  },
  {
    name: "POST /api/webhooks",
    method: "POST",
    path: () => "/api/webhooks",
    body: () => ({ url: "https://hooks.example.com/matrix", events: ["template.created"] }),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  { name: "GET /api/webhooks", method: "GET", path: () => "/api/webhooks", accepts: ["apiKey", "user"], adminOnly: true, keyScopes: ["webhooks:manage"] },
  {
    name: "GET /api/webhooks/{id}",
    method: "GET",
    path: (i) => `/api/webhooks/${i.webhook}`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  {
    name: "PATCH /api/webhooks/{id}",
    method: "PATCH",
    path: (i) => `/api/webhooks/${i.webhook}`,
    body: () => ({ description: "matrix" }),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  {
    name: "DELETE /api/webhooks/{id}",
    method: "DELETE",
    path: (i) => `/api/webhooks/${i.webhook}`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  {
    name: "POST /api/webhooks/{id}/rotate-secret",
    method: "POST",
    path: (i) => `/api/webhooks/${i.webhook}/rotate-secret`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  {
    name: "GET /api/webhooks/{id}/deliveries",
    method: "GET",
    path: (i) => `/api/webhooks/${i.webhook}/deliveries`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  {
    name: "POST /api/webhooks/{id}/replay",
    method: "POST",
    path: (i) => `/api/webhooks/${i.webhook}/replay`,
    body: () => ({ since: "2026-01-01T00:00:00Z" }),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["webhooks:manage"],
    bodyScopes: ["templates:read"],
  },
  { name: "POST /api/media", method: "POST", path: () => "/api/media", accepts: ["apiKey", "user"], keyScopes: ["media:write"] },
  { name: "GET /api/media/{id}", method: "GET", path: (i) => `/api/media/${i.media}`, accepts: ["apiKey", "user"], keyScopes: ["media:read"] },
  { name: "GET /api/audit", method: "GET", path: () => "/api/audit", accepts: ["apiKey", "user"], adminOnly: true, keyScopes: ["audit:read"] },
  ...(["Users", "Groups"] as const).flatMap((type): Op[] => {
    const one = (i: Ids) => (type === "Users" ? i.employee : i.group);
    const scim = { accepts: ["client"] as Kind[], scope: "scim" };
    return [
      { name: `GET /scim/v2/${type}`, method: "GET", path: () => `/scim/v2/${type}`, ...scim },
      { name: `POST /scim/v2/${type}`, method: "POST", path: () => `/scim/v2/${type}`, ...scim },
      { name: `GET /scim/v2/${type}/{id}`, method: "GET", path: (i) => `/scim/v2/${type}/${one(i)}`, ...scim },
      { name: `PUT /scim/v2/${type}/{id}`, method: "PUT", path: (i) => `/scim/v2/${type}/${one(i)}`, ...scim },
      {
        name: `PATCH /scim/v2/${type}/{id}`,
        method: "PATCH",
        path: (i) => `/scim/v2/${type}/${one(i)}`,
        body: () => ({ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [{ op: "replace", path: "displayName", value: "Matrix" }] }),
        ...scim,
      },
      { name: `DELETE /scim/v2/${type}/{id}`, method: "DELETE", path: (i) => `/scim/v2/${type}/${one(i)}`, ...scim },
    ];
  }),
  { name: "POST /scim/v2/Bulk", method: "POST", path: () => "/scim/v2/Bulk", accepts: ["client"], scope: "scim" },
  {
    name: "POST /api/auth/password",
    method: "POST",
    path: () => "/api/auth/password",
    body: () => ({ currentPassword: "not-the-password", newPassword: "a long enough new password" }),
    accepts: ["user"],
  },
  { name: "GET /api/auth/whoami", method: "GET", path: () => "/api/auth/whoami", accepts: ["apiKey", "user", "client"] },
  // The directory (docs/organization-administration.md): reading is any user's, changing an admin's. DELETEs name an id nobody has (404 once past authorization).
  ...(["sites", "groups", "roles", "response-types", "asset-types", "assets"] as const).flatMap((noun): Op[] => {
    const ids = { sites: "site", groups: "group", roles: "role", "response-types": "responseType", "asset-types": "assetType", assets: "asset" } as const;
    const one = (i: Ids) => i[ids[noun]];
    const bodies: Partial<Record<typeof noun, Op["body"]>> = {
      sites: () => ({ name: "Matrix", code: `M-${randomUUID()}` }),
      "response-types": () => ({ name: `Matrix ${randomUUID()}`, inputType: "TEXT" }),
      assets: (t) => ({ name: "Matrix", code: `M-${randomUUID()}`, assetTypeId: t.assetTypes.find((a) => a.name === "Fire Extinguisher")!.id }),
    };
    const body = bodies[noun] ?? (() => ({ name: `Matrix ${randomUUID()}` }));
    const read = { accepts: ["apiKey", "user"] as Kind[], keyScopes: ["directory:read"] as ApiKeyScope[] };
    const write = { accepts: ["apiKey", "user"] as Kind[], keyScopes: ["directory:write"] as ApiKeyScope[], adminOnly: true };
    return [
      { name: `GET /api/${noun}`, method: "GET", path: () => `/api/${noun}`, ...read },
      { name: `GET /api/${noun}/{id}`, method: "GET", path: (i) => `/api/${noun}/${one(i)}`, ...read },
      { name: `POST /api/${noun}`, method: "POST", path: () => `/api/${noun}`, body, ...write },
      {
        name: `PATCH /api/${noun}/{id}`,
        method: "PATCH",
        path: (i) => `/api/${noun}/${one(i)}`,
        body: () => ({ archived: false }),
        headers: { "if-match": "*" },
        ...write,
      },
      { name: `DELETE /api/${noun}/{id}`, method: "DELETE", path: () => `/api/${noun}/${randomUUID()}`, ...write },
    ];
  }),
  {
    name: "GET /api/assets/{id}/inspections",
    method: "GET",
    path: (i) => `/api/assets/${i.asset}/inspections`,
    accepts: ["apiKey", "user"],
    keyScopes: ["directory:read", "inspections:read"],
  },
  {
    name: "GET /api/groups/{id}/members",
    method: "GET",
    path: (i) => `/api/groups/${i.group}/members`,
    accepts: ["apiKey", "user"],
    keyScopes: ["directory:read"],
  },
  {
    name: "PUT /api/groups/{id}/members/{employeeId}",
    method: "PUT",
    path: (i) => `/api/groups/${i.group}/members/${i.employee}`,
    body: () => ({}),
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["directory:write"],
  },
  {
    name: "DELETE /api/groups/{id}/members/{employeeId}",
    method: "DELETE",
    path: (i) => `/api/groups/${i.group}/members/${randomUUID()}`,
    accepts: ["apiKey", "user"],
    adminOnly: true,
    keyScopes: ["directory:write"],
  },
];

let stack: Stack;
let a: DemoSeed;
let b: DemoSeed;
let tplA: Tpl;
let idsA: Ids;
let idsB: Ids;
const creds = {} as Record<Kind | "inspectorUser" | "scim", string>;
let signingKey: { kid: string; jwk: JWK };
let publicJwk: JWK;

async function setUp(t: DemoSeed): Promise<{ tpl: Tpl; ids: Ids }> {
  const tpl = await publishedAudit(stack, t);
  const inspection = await importOk(
    stack,
    t,
    importBody(t, tpl, {
      answers: [
        { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
        { questionId: tpl.q.remarks!.id, answerText: "photo", media: [png(2, 2, 7).toString("base64")] },
      ],
    }),
  );
  const [image] = await stack.db.sql<{ id: string }[]>`select id from media where organization_id = ${t.organization.id}`;
  const synced = await (await syncCaller(stack, t)).sync([{ externalEmployeeId: `MX-${randomUUID()}` }]);
  const hook = await stack.http.post(
    "/api/webhooks",
    { url: "https://hooks.example.com/matrix", events: ["template.created"] },
    { auth: { bearer: t.apiKey } },
  );
  const session = await stack.http.post("/api/v1/sync/sessions", {}, { auth: { bearer: await syncToken(stack, t) } });
  const action = await stack.http.post(
    "/api/actions",
    { title: "Matrix", inspectionId: inspection.id, questionId: tpl.q.brakes!.id },
    { auth: { bearer: t.apiKey } },
  );
  const exported = await stack.http.post("/api/exports", { format: "csv" }, { auth: { bearer: t.apiKey } });
  // Throwaway credentials to read, rotate and revoke: never the ones the matrix calls with.
  const apiKey = await stack.http.post("/api/api-keys", { name: "matrix target", scopes: ["media:read"] }, { auth: { bearer: t.apiKey } });
  const client = await stack.http.post("/api/oauth-clients", { name: "matrix target", scopes: ["scim"] }, { auth: { bearer: t.apiKey } });
  const user = await stack.http.post("/api/users", { email: `matrix-${randomUUID()}@example.test` }, { auth: { bearer: t.apiKey } });
  // A paused schedule (the worker makes nothing of it) and an occurrence written beside it.
  const schedule = await stack.http.post(
    "/api/schedules",
    {
      name: "Matrix",
      templateId: tpl.id,
      recurrence: { rrule: "FREQ=DAILY" },
      timeZone: "UTC",
      startDate: "2026-01-01",
      startTime: "09:00",
      dueWithinMinutes: 60,
      paused: true,
    },
    { auth: { bearer: t.apiKey } },
  );
  const [occurrence] = await stack.db.sql<{ id: string }[]>`
    insert into occurrences (organization_id, schedule_id, target_key, template_id, start_at, due_at, time_zone)
    values (${t.organization.id}, ${schedule.body.id}, '', ${tpl.id}, now(), now() + interval '1 hour', 'UTC') returning id`;
  return {
    tpl,
    ids: {
      export: exported.body.id,
      template: tpl.id,
      inspection: inspection.id,
      request: synced.requestId,
      employee: synced.results[0].employeeId,
      webhook: hook.body.id,
      media: image!.id,
      session: session.body.sessionId,
      group: t.groups[0]!.id,
      site: t.sites[0]!.id,
      role: (await stack.db.sql<{ id: string }[]>`select id from roles where organization_id = ${t.organization.id} limit 1`)[0]!.id,
      responseType: (await stack.db.sql<{ id: string }[]>`select id from response_types where organization_id = ${t.organization.id} limit 1`)[0]!.id,
      assetType: (await stack.db.sql<{ id: string }[]>`select id from asset_types where organization_id = ${t.organization.id} limit 1`)[0]!.id,
      asset: (
        await stack.db.sql<
          { id: string }[]
        >`insert into assets (organization_id, name, code) values (${t.organization.id}, 'Matrix asset', 'MATRIX') returning id`
      )[0]!.id,
      action: action.body.id,
      apiKey: apiKey.body.id,
      oauthClient: client.body.clientId,
      user: user.body.id,
      schedule: schedule.body.id,
      occurrence: occurrence!.id,
    },
  };
}

beforeAll(async () => {
  // Hundreds of refused credentials from one address: above the per-address failure limit.
  stack = await startStack({ workers: 1, env: { AUTH_FAILURES_PER_MINUTE: "100000" } });
  [a, b] = [await stack.tenant(), await stack.tenant()];
  ({ tpl: tplA, ids: idsA } = await setUp(a));
  ({ ids: idsB } = await setUp(b));
  const login = async (email: string, password: string) => (await stack.http.post("/api/auth/login", { email, password })).body.accessToken as string;
  creds.apiKey = `Bearer ${a.apiKey}`;
  creds.client = `Bearer ${await syncToken(stack, a)}`;
  creds.user = `Bearer ${await login(a.users.admin.email, a.users.admin.password)}`;
  creds.inspectorUser = `Bearer ${await login(a.users.inspector.email, a.users.inspector.password)}`;
  creds.scim = `Bearer ${(await scimCaller(stack, a)).token}`;
  const [row] = await stack.db.sql<
    { kid: string; private_jwk: JWK; public_jwk: JWK }[]
  >`select kid, private_jwk, public_jwk from signing_keys where retired_at is null order by created_at desc limit 1`;
  signingKey = { kid: row!.kid, jwk: row!.private_jwk };
  publicJwk = row!.public_jwk;
});
afterAll(() => stack?.stop());

/** An API key of tenant A with these scopes (memoized per set). */
const keys = new Map<string, Promise<string>>();
const keyWith = (scopes: readonly ApiKeyScope[]) => {
  const id = [...scopes].sort().join(" ");
  if (!keys.has(id))
    keys.set(
      id,
      createApiKey(stack.db.db, a.organization.id, `matrix ${id}`, undefined, undefined, scopes).then((k) => k.apiKey),
    );
  return keys.get(id)!;
};

const call = (op: Op, authorization: string | null, ids = idsA) =>
  stack.http.request(op.method, op.path(ids), {
    auth: authorization === null ? null : { header: authorization },
    body: op.body?.(a, tplA) ?? (op.method === "POST" ? {} : undefined),
    headers: op.headers,
  });

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const parts = (bearer: string) => bearer.replace(/^Bearer /, "").split(".");
const claimsOf = (bearer: string) => JSON.parse(Buffer.from(parts(bearer)[1]!, "base64url").toString()) as Record<string, unknown>;

/** A token made with the service's own key: everything valid except what `change` sets. */
async function minted(from: string, change: { claims?: Record<string, unknown>; header?: Record<string, unknown> } = {}): Promise<string> {
  const key = await importJWK(signingKey.jwk, "ES256");
  const claims = { ...claimsOf(from), ...change.claims };
  return `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: signingKey.kid, typ: "at+jwt", ...change.header }).sign(key)}`;
}

/** The forgeries of a valid token, each refused with 401. */
async function forgeries(valid: string): Promise<[string, string][]> {
  const [header, payload, signature] = parts(valid);
  const claims = claimsOf(valid);
  const hsKey = new TextEncoder().encode(JSON.stringify(publicJwk));
  const attacker = await generateKeyPair("ES256");
  return [
    ["alg none", `Bearer ${b64({ alg: "none", typ: "JWT" })}.${payload}.`],
    ["HS256 keyed with the published public key", `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: signingKey.kid }).sign(hsKey)}`],
    ["claims edited after signing (another organization)", `Bearer ${header}.${b64({ ...claims, org: b.organization.id })}.${signature}`],
    ["claims edited after signing (longer lifetime)", `Bearer ${header}.${b64({ ...claims, exp: Number(claims.exp) + 86_400 })}.${signature}`],
    ["expired", await minted(valid, { claims: { exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3_700 } })],
    ["wrong audience", await minted(valid, { claims: { aud: "someone-else" } })],
    ["wrong issuer", await minted(valid, { claims: { iss: "https://evil.example" } })],
    ["unknown kid", await minted(valid, { header: { kid: "not-a-key" } })],
    [
      "signed by another key, jku pointing at it",
      `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: signingKey.kid, jku: "https://evil.example/jwks.json", jwk: await exportJWK(attacker.publicKey) }).sign(attacker.privateKey)}`,
    ],
    ["valid signature, subject of another organization", await minted(valid, { claims: { org: b.organization.id } })],
  ];
}

describe("auth matrix: every operation refuses every bad credential", () => {
  it("covers every authenticated operation of /openapi.json", async () => {
    const doc = (await stack.http.get("/openapi.json")).body;
    const secured = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => (op.security ?? []).length > 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(OPS.map((o) => o.name).sort()).toEqual(secured.sort());
    // The scopes an API key needs, as the document says them, are the ones the API enforces below.
    const documented = Object.fromEntries(
      Object.entries(doc.paths as Record<string, Record<string, { security?: Record<string, string[]>[] }>>).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, (op.security ?? []).find((r) => "apiKey" in r)?.apiKey ?? null]),
      ),
    );
    for (const op of OPS.filter((o) => o.accepts.includes("apiKey") && o.name !== "GET /api/auth/whoami")) {
      expect({ op: op.name, scopes: [...(documented[op.name] ?? [])].sort() }).toEqual({ op: op.name, scopes: [...(op.keyScopes ?? [])].sort() });
      expect(op.keyScopes?.length, `${op.name} takes API keys without naming a scope`).toBeGreaterThan(0);
    }
  });

  for (const op of OPS) {
    it(`${op.name}: 401 without a credential, with garbage, with the wrong kind, and with every forged token`, async () => {
      const cases: [string, string | null][] = [
        ["no Authorization header", null],
        ["empty Bearer", "Bearer "],
        ["garbage Bearer", "Bearer garbage"],
        ["unknown API key", `Bearer isk_${"A".repeat(43)}`],
        ["garbage Basic", "Basic !!!"],
        ["unknown scheme", `Token ${a.apiKey}`],
      ];
      for (const kind of ["apiKey", "client", "user"] as Kind[])
        if (!op.accepts.includes(kind)) cases.push([`a valid ${kind} credential (wrong kind)`, creds[kind]]);
      const accepted = op.accepts.find((k) => k !== "apiKey");
      if (accepted) for (const [label, forged] of await forgeries(creds[accepted])) cases.push([`${accepted} token: ${label}`, forged]);
      for (const [label, authorization] of cases) {
        const res = await call(op, authorization);
        // SCIM answers its own error body (RFC 7644: `detail`), everything else `{error}`.
        const message = op.name.includes(" /scim/") ? res.body?.detail : res.body?.error;
        expect({ case: label, status: res.status, isJson: typeof message === "string" }).toEqual({ case: label, status: 401, isJson: true });
      }
    });

    if (op.scope) {
      it(`${op.name}: 403 for a genuine client token without ${op.scope}`, async () => {
        const res = await call(op, await minted(creds.client, { claims: { scope: "" } }));
        expect(res.status).toBe(403);
        expect(op.name.includes(" /scim/") ? res.body.detail : res.body.error).toBe(`Access token lacks the scope ${op.scope}`);
      });
    }
    for (const scope of op.keyScopes ?? []) {
      it(`${op.name}: 403 for an API key with every scope but ${scope}`, async () => {
        const res = await call(op, `Bearer ${await keyWith(ALL_API_KEY_SCOPES.filter((s) => s !== scope))}`);
        expect({ status: res.status, error: res.body?.error }).toEqual({ status: 403, error: `API key lacks the scope ${scope}` });
      });
    }
    if (op.keyScopes) {
      it(`${op.name}: an API key with exactly ${op.keyScopes.join(" and ")} gets past authorization`, async () => {
        const res = await call(op, `Bearer ${await keyWith([...op.keyScopes!, ...(op.bodyScopes ?? [])])}`);
        expect([401, 403]).not.toContain(res.status);
      });
    }
    if (op.adminOnly) {
      it(`${op.name}: 403 for a user who is not an administrator`, async () => {
        const res = await call(op, creds.inspectorUser);
        expect(res.status).toBe(403);
      });
    }
  }
});

describe("tenancy matrix: another tenant's ids never reach its data", () => {
  const bData = () => [
    idsB.template,
    idsB.inspection,
    idsB.request,
    idsB.employee,
    idsB.webhook,
    idsB.media,
    idsB.session,
    idsB.group,
    idsB.action,
    idsB.role,
    idsB.export,
    idsB.apiKey,
    idsB.oauthClient,
    b.organization.id,
    b.users.admin.id,
    b.sites[0]!.id,
  ];
  const leaks = (text: string) => bData().filter((id) => text.includes(id));

  for (const op of OPS.filter((o) => /\{/.test(o.name))) {
    it(`${op.name} with the other tenant's id in the path: refused, nothing of theirs in the answer`, async () => {
      const kind = op.accepts[0]!;
      const res = await call(op, op.scope === "scim" ? creds.scim : creds[kind], idsB);
      // The spec's 403 for another organization's template; 404 for everything else.
      expect(res.status).toBe(op.name.includes(" /api/templates/{id}") ? 403 : 404);
      // The id sent may be echoed in the message ("Inspection <id> not found"); nothing else of theirs.
      expect(leaks(res.text).filter((id) => !op.path(idsB).includes(id))).toEqual([]);
    });
  }

  it("ids of the other tenant in query filters match nothing", async () => {
    const lists = [
      `/api/inspections?templateId=${idsB.template}`,
      `/api/inspections?siteId=${b.sites[0]!.id}`,
      `/api/inspections?templateId=${idsB.template}&includeAnswers=true`,
    ];
    for (const path of [`/api/actions?inspectionId=${idsB.inspection}`, `/api/actions?assigneeId=${b.users.inspector.id}`]) {
      const res = await stack.http.get(path, { auth: { header: creds.apiKey } });
      expect({ path, status: res.status, n: res.body.actions.length, total: res.body.pagination.total }).toEqual({ path, status: 200, n: 0, total: 0 });
    }
    for (const path of lists) {
      const res = await stack.http.get(path, { auth: { header: creds.apiKey } });
      expect({ path, status: res.status, n: res.body.inspections.length, total: res.body.pagination.total }).toEqual({ path, status: 200, n: 0, total: 0 });
    }
    const theirs = (await stack.db.sql<{ external_employee_id: string }[]>`select external_employee_id from employees where id = ${idsB.employee}`)[0]!
      .external_employee_id;
    const emp = await stack.http.get(`/api/v1/employees?externalEmployeeId=${encodeURIComponent(theirs)}`, { auth: { header: creds.client } });
    expect(emp.status).toBe(200);
    expect(emp.body.employees).toEqual([]);
    const mine = await stack.http.get("/api/templates?publishedOnly=false", { auth: { header: creds.apiKey } });
    expect(leaks(mine.text)).toEqual([]);
  });

  it("ids of the other tenant in bodies are refused as unknown, and nothing is written to them", async () => {
    const auth = { header: creds.apiKey };
    const theirTemplate = await stack.http.post("/api/inspections", { ...importBody(a, tplA), templateId: idsB.template }, { auth });
    expect(theirTemplate.status).toBe(404);
    const theirUser = await stack.http.post("/api/inspections", { ...importBody(a, tplA), conductedBy: b.users.inspector.id }, { auth });
    expect(theirUser.status).toBe(400);
    const theirSite = await stack.http.post("/api/inspections", { ...importBody(a, tplA), siteId: b.sites[0]!.id }, { auth });
    expect(theirSite.status).toBe(400);
    const theirCreator = await stack.http.post("/api/templates", { createdBy: b.users.admin.id, name: "X", type: "AUDIT", sections: [] }, { auth });
    expect(theirCreator).toMatchObject({ status: 400, body: { error: "createdBy must be the id of a user of your organization" } });
    const theirAssignee = await stack.http.post("/api/actions", { title: "X", assigneeId: b.users.inspector.id }, { auth });
    expect(theirAssignee).toMatchObject({ status: 400, body: { details: [`assigneeId '${b.users.inspector.id}' is not a user of this organization`] } });
    const theirInspection = await stack.http.post("/api/actions", { title: "X", inspectionId: idsB.inspection }, { auth });
    expect(theirInspection).toMatchObject({ status: 400, body: { details: [`inspectionId '${idsB.inspection}' is not an inspection of this organization`] } });
    const [written] = await stack.db.sql<
      { n: number }[]
    >`select count(*)::int as n from corrective_actions where organization_id = ${a.organization.id} and (inspection_id = ${idsB.inspection} or assignee_id = ${b.users.inspector.id})`;
    expect(written!.n).toBe(0);
    const theirRt = await stack.http.post(
      "/api/templates",
      { createdBy: a.users.admin.id, name: "X", type: "AUDIT", sections: [{ title: "S", questions: [{ text: "Q", responseTypeId: b.responseTypes[0]!.id }] }] },
      { auth },
    );
    expect(theirRt.status).toBe(400);
    const sync = await (await syncCaller(stack, a)).sync([{ externalEmployeeId: `MX-${randomUUID()}`, sites: [{ id: b.sites[0]!.id }] }]);
    expect(sync.results[0].warnings).toEqual([`Site with id '${b.sites[0]!.id}' not found, skipped`]);
    const [row] = await stack.db.sql<
      { n: number }[]
    >`select count(*)::int as n from employee_sites where site_id = ${b.sites[0]!.id} and organization_id = ${a.organization.id}`;
    expect(row!.n).toBe(0);
  });
});
