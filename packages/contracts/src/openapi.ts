import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

/**
 * One registry: each feature file defines its operations (defineOperation, operation.ts), which
 * registers their paths with the same zod schemas the API validates with, and /openapi.json is
 * generated from it, so the document and the validation cannot drift apart.
 */
export const registry = new OpenAPIRegistry();

export const apiKeyAuth = registry.registerComponent("securitySchemes", "apiKey", {
  type: "http",
  scheme: "bearer",
  description:
    "API key (`isk_...`) as a Bearer token, or as the user name of Basic credentials with an empty password. A user token from POST /api/auth/login is accepted too. The scopes listed on an operation are what an API key must carry (a key without one is answered 403 naming it); users are not limited by scopes.",
});
export const basicAuth = registry.registerComponent("securitySchemes", "basic", {
  type: "http",
  scheme: "basic",
  description: "API key as the Basic user name (or password).",
});
export const oauthAuth = registry.registerComponent("securitySchemes", "oauth2", {
  type: "oauth2",
  flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { "employees:sync": "Push employee batches" } } },
});

/**
 * The document's groups, in the order /docs shows them; each operation gets the first tag whose
 * path prefix it starts with (a path no tag claims fails the contract test).
 */
export const TAGS: { name: string; description: string; prefixes: string[] }[] = [
  { name: "Templates", description: "Inspection templates: sections, questions, options, conditional logic, versions.", prefixes: ["/api/templates"] },
  {
    name: "Inspections",
    description: "Inspections and their answers and images: import, read, continue (PATCH), revisions, media.",
    prefixes: ["/api/inspections", "/api/media"],
  },
  {
    name: "Corrective actions",
    description: "Follow-ups raised by an inspection's answer or on their own: assign, schedule, complete, reopen.",
    prefixes: ["/api/actions"],
  },
  { name: "Exports", description: "CSV and XLSX exports of inspections, made by a worker: request, follow, download, cancel.", prefixes: ["/api/exports"] },
  {
    name: "Employee sync",
    description: "Batches of up to 500 employees from HR systems (OAuth client credentials, scope employees:sync), their status and snapshot sessions.",
    prefixes: ["/api/v1/sync"],
  },
  {
    name: "Organization",
    description:
      "The organization's own directory: sites (and regions), groups and their members, roles, response types (with their options), asset types and assets.",
    prefixes: ["/api/sites", "/api/groups", "/api/roles", "/api/response-types", "/api/asset-types", "/api/assets"],
  },
  {
    name: "Schedules",
    description: "Scheduled inspections: recurring work for people, groups, roles and sites, and its occurrences (open, due, missed, completed).",
    prefixes: ["/api/schedules", "/api/occurrences"],
  },
  { name: "Employees", description: "The employees the sync maintains, as the organization's directory.", prefixes: ["/api/v1/employees"] },
  {
    name: "Integrations",
    description: "What changed: change feeds, webhooks with their deliveries and replays, the audit log.",
    prefixes: ["/api/feed", "/api/v1/feed", "/api/webhooks", "/api/audit"],
  },
  {
    name: "Credentials",
    description: "The organization's API keys and OAuth clients: create (the secret shown once), list, rotate a client's secret, revoke.",
    prefixes: ["/api/api-keys", "/api/oauth-clients"],
  },
  {
    name: "Users",
    description: "The organization's users: invite (welcome mail), list, change (admin, disabled), mail a new temporary password.",
    prefixes: ["/api/users"],
  },
  { name: "SCIM", description: "SCIM 2.0 (RFC 7643/7644) for identity providers: Users, Groups, Bulk and discovery.", prefixes: ["/scim/v2"] },
  {
    name: "Auth",
    description: "Tokens: OAuth 2.0 client credentials, the signing keys, user login and password change.",
    prefixes: ["/oauth", "/.well-known", "/api/auth"],
  },
  { name: "Operations", description: "Liveness and readiness for load balancers and orchestrators.", prefixes: ["/healthz", "/readyz"] },
];

export function tagOf(path: string): string | undefined {
  return TAGS.find((t) => t.prefixes.some((p) => path === p || path.startsWith(`${p}/`)))?.name;
}

export function buildOpenApiDocument(serverUrl?: string) {
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Inspection Service API",
      version: "1.0.0",
      description: "Inspection templates, inspections and batch employee synchronization, scoped to the caller's organization.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
  });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const tag = tagOf(path);
    for (const op of Object.values(item as Record<string, { tags?: string[] }>)) if (tag && typeof op === "object" && op !== null) op.tags = [tag];
  }
  return doc;
}

export { z };
