import { errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";
import { ALL_API_KEY_SCOPES, API_KEY_SCOPES, SCIM_SCOPE, SYNC_SCOPE, type ApiKeyScope } from "./scopes.ts";

/**
 * The organization's own credentials (extension, docs/authentication.md, Managing API keys and
 * OAuth clients): API keys and OAuth clients. Admin users, and API keys with credentials:manage.
 */

export const CREDENTIAL_NAME_MAX = 100;
export const CLIENT_SCOPES = [SYNC_SCOPE, SCIM_SCOPE] as const;

const name = z
  .string()
  .trim()
  .min(1, "name is required")
  .max(CREDENTIAL_NAME_MAX, `name must be at most ${CREDENTIAL_NAME_MAX} characters`)
  .openapi({ description: "What it is for, to tell it apart in lists and the audit log." });
const keyScopes = z
  .array(z.enum(ALL_API_KEY_SCOPES as [ApiKeyScope, ...ApiKeyScope[]], { message: `must be one of ${ALL_API_KEY_SCOPES.join(", ")}` }))
  .min(1, "scopes must name at least one scope")
  .max(ALL_API_KEY_SCOPES.length * 2, "scopes has too many entries")
  .openapi({ description: `Among ${ALL_API_KEY_SCOPES.join(", ")}. An API key may only give scopes it holds itself (403 naming the first it lacks).` });
const expiresAt = z.iso
  .datetime({ offset: true, message: "expiresAt must be an ISO 8601 date-time, e.g. 2030-01-31T00:00:00Z" })
  .refine((s) => Date.parse(s) > Date.now(), "expiresAt must be in the future")
  .refine((s) => new Date(s).getUTCFullYear() <= 9999, "expiresAt must fall before the year 10000")
  .nullable()
  .openapi({ format: "date-time", description: "From then on the key is refused (401, API key expired). null or absent: it never expires." });

export const CreateApiKeyBody = z.strictObject({ name, scopes: keyScopes, expiresAt: expiresAt.optional() }).openapi("ApiKeyCreateRequest");
export type CreateApiKeyBody = z.output<typeof CreateApiKeyBody>;

const clientScopes = z
  .array(z.enum(CLIENT_SCOPES, { message: `must be one of ${CLIENT_SCOPES.join(", ")}` }))
  .min(1, "scopes must name at least one scope")
  .max(CLIENT_SCOPES.length * 2, "scopes has too many entries")
  .openapi({ description: "employees:sync (the HR sync and its sessions), scim (SCIM 2.0 provisioning)." });
export const CreateOAuthClientBody = z.strictObject({ name, scopes: clientScopes }).openapi("OAuthClientCreateRequest");
export type CreateOAuthClientBody = z.output<typeof CreateOAuthClientBody>;

export const CredentialListQuery = z.object({ ...pageQuery });

const actor = z
  .object({ type: z.string().openapi({ description: "api_key, user or admin_cli" }), id: z.string().nullable() })
  .openapi({ description: "Who created it: an API key's id, a user's id, or the operator's admin CLI (id null)." });
const status = z.enum(["active", "expired", "revoked"]).openapi({ description: "revoked wins over expired." });

export const ApiKeyView = registry.register(
  "ApiKey",
  z.object({
    id: z.uuid(),
    name: z.string(),
    prefix: z
      .string()
      .openapi({ description: "The key's first 12 characters, to recognise it; the key itself is never shown again.", example: "isk_Qm9vZ3Vz" }),
    scopes: z.array(z.enum(ALL_API_KEY_SCOPES as [ApiKeyScope, ...ApiKeyScope[]])),
    status,
    createdBy: actor,
    createdAt: isoTimestamp,
    lastUsedAt: isoTimestamp.nullable().openapi({ description: "Recorded at most once a minute." }),
    expiresAt: isoTimestamp.nullable(),
    revokedAt: isoTimestamp.nullable(),
  }),
);
export const CreatedApiKey = registry.register(
  "CreatedApiKey",
  ApiKeyView.extend({
    apiKey: z
      .string()
      .openapi({ description: "The key. Shown only in this answer: store it now.", example: "isk_Qm9vZ3VzRXhhbXBsZUtleU5vdFJlYWwxMjM0NTY3ODk" }),
  }),
);

export const OAuthClientView = registry.register(
  "OAuthClient",
  z.object({
    id: z.uuid().openapi({
      description: "The id webhook events name it by. The audit log names it by clientId (resourceId), as it names the client when the client acts (actor id).",
    }),
    clientId: z.string().openapi({ example: "icl_3q2mP0x9Yb7kLw1s" }),
    name: z.string(),
    scopes: z.array(z.enum(CLIENT_SCOPES)),
    status: z.enum(["active", "revoked"]),
    createdAt: isoTimestamp,
    lastUsedAt: isoTimestamp.nullable().openapi({ description: "When it last got a token (recorded at most once a minute)." }),
    previousSecretExpiresAt: isoTimestamp
      .nullable()
      .openapi({ description: "After a rotation: until when the previous secret is still accepted. null: only the current secret is." }),
    revokedAt: isoTimestamp.nullable(),
  }),
);
const clientSecret = z
  .string()
  .openapi({ description: "The client secret. Shown only in this answer: store it now.", example: "ics_c2VjcmV0RXhhbXBsZU5vdFJlYWwxMjM0NTY3ODkwYWJj" });
export const CreatedOAuthClient = registry.register("CreatedOAuthClient", OAuthClientView.extend({ clientSecret }));

const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });
const ApiKeyList = registry.register("ApiKeyList", z.object({ apiKeys: z.array(ApiKeyView), pagination }));
const OAuthClientList = registry.register("OAuthClientList", z.object({ oauthClients: z.array(OAuthClientView), pagination }));

const manage = keyOrUser("credentials:manage");
const who = "Admin users, and API keys with credentials:manage (another user: 403).";
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const KeyIdParam = z.object({ id: z.string().openapi({ format: "uuid" }) });
const ClientIdParam = z.object({ clientId: z.string().openapi({ example: "icl_3q2mP0x9Yb7kLw1s" }) });

export const createApiKeyOp = defineOperation({
  method: "post",
  path: "/api/api-keys",
  summary: "Create an API key; extension",
  description:
    `${who} The key is in this answer only (\`apiKey\`); only its hash is stored. An API key may give the new key only scopes it holds itself (403 naming the first it lacks); an admin user may give any of ${Object.keys(API_KEY_SCOPES).length}. ` +
    "At most CREDENTIALS_MAX_ACTIVE_PER_ORG active keys per organization (409 past it: revoke one first). Sends api_key.created.",
  auth: manage,
  request: {
    body: {
      content: {
        "application/json": {
          schema: CreateApiKeyBody,
          examples: {
            readOnly: { summary: "A read-only key for a BI tool", value: { name: "BI export", scopes: ["inspections:read", "media:read"] } },
            expiring: {
              summary: "A key that stops working at a given date",
              value: { name: "Contractor import", scopes: ["inspections:write"], expiresAt: "2030-01-31T00:00:00Z" },
            },
          },
        },
      },
    },
  },
  responses: { 201: json(CreatedApiKey, "The key, with its secret (shown once)"), ...errorResponses(400, 401, 403, 409, 429) },
});

export const listApiKeysOp = defineOperation({
  method: "get",
  path: "/api/api-keys",
  summary: "List API keys; extension",
  description: `${who} Newest first, revoked and expired ones included (see status). Never the key or its hash.`,
  auth: manage,
  request: { query: CredentialListQuery },
  responses: { 200: json(ApiKeyList, "A page of keys"), ...errorResponses(400, 401, 403, 429) },
});

export const getApiKeyOp = defineOperation({
  method: "get",
  path: "/api/api-keys/{id}",
  summary: "One API key; extension",
  description: `${who} Another organization's key is a 404.`,
  auth: manage,
  request: { params: KeyIdParam },
  responses: { 200: json(ApiKeyView, "The key (never its secret)"), ...errorResponses(401, 403, 404, 429) },
});

export const revokeApiKeyOp = defineOperation({
  method: "post",
  path: "/api/api-keys/{id}/revoke",
  summary: "Revoke an API key; extension",
  description:
    `${who} From this answer on the key is refused (401). A key may revoke itself (to retire a key that leaked); revoking a revoked key changes nothing and answers it as it is. ` +
    "Sends api_key.revoked.",
  auth: manage,
  request: { params: KeyIdParam },
  responses: { 200: json(ApiKeyView, "The key, revoked"), ...errorResponses(401, 403, 404, 429) },
});

export const createOAuthClientOp = defineOperation({
  method: "post",
  path: "/api/oauth-clients",
  summary: "Create an OAuth client; extension",
  description:
    `${who} For the client-credentials grant (POST /oauth/token): an HR system (employees:sync) or an identity provider (scim). The secret is in this answer only (\`clientSecret\`). ` +
    "At most CREDENTIALS_MAX_ACTIVE_PER_ORG active clients per organization (409 past it). Sends oauth_client.created.",
  auth: manage,
  request: {
    body: { content: { "application/json": { schema: CreateOAuthClientBody, example: { name: "Workday sync", scopes: ["employees:sync"] } } } },
  },
  responses: { 201: json(CreatedOAuthClient, "The client, with its secret (shown once)"), ...errorResponses(400, 401, 403, 409, 429) },
});

export const listOAuthClientsOp = defineOperation({
  method: "get",
  path: "/api/oauth-clients",
  summary: "List OAuth clients; extension",
  description: `${who} Newest first, revoked ones included. Never a secret.`,
  auth: manage,
  request: { query: CredentialListQuery },
  responses: { 200: json(OAuthClientList, "A page of clients"), ...errorResponses(400, 401, 403, 429) },
});

export const getOAuthClientOp = defineOperation({
  method: "get",
  path: "/api/oauth-clients/{clientId}",
  summary: "One OAuth client; extension",
  description: `${who} Another organization's client is a 404.`,
  auth: manage,
  request: { params: ClientIdParam },
  responses: { 200: json(OAuthClientView, "The client (never its secret)"), ...errorResponses(401, 403, 404, 429) },
});

export const rotateOAuthClientOp = defineOperation({
  method: "post",
  path: "/api/oauth-clients/{clientId}/rotate-secret",
  summary: "New client secret; extension",
  description:
    `${who} The new secret is in this answer only. The previous secret is still accepted until previousSecretExpiresAt (OAUTH_CLIENT_SECRET_GRACE_SECONDS, default 24 hours), so the HR system can switch without downtime; ` +
    "a secret older than that (from an earlier rotation) is refused at once. Tokens already issued stay valid until they expire. A revoked client is a 409. Sends oauth_client.rotated.",
  auth: manage,
  request: { params: ClientIdParam },
  responses: { 200: json(CreatedOAuthClient, "The client with its new secret (shown once)"), ...errorResponses(401, 403, 404, 409, 429) },
});

export const revokeOAuthClientOp = defineOperation({
  method: "post",
  path: "/api/oauth-clients/{clientId}/revoke",
  summary: "Revoke an OAuth client; extension",
  description: `${who} Its secrets are refused and its tokens stop working at once. Revoking a revoked client changes nothing. Sends oauth_client.revoked.`,
  auth: manage,
  request: { params: ClientIdParam },
  responses: { 200: json(OAuthClientView, "The client, revoked"), ...errorResponses(401, 403, 404, 429) },
});
