import { errorResponses } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation } from "./operation.ts";

export const TokenRequest = z
  .object({
    grant_type: z.string(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
  })
  .openapi("TokenRequest");

export const TokenResponse = registry.register(
  "TokenResponse",
  z.object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int(), scope: z.string() }),
);

export const OAuthError = registry.register(
  "OAuthError",
  z.object({
    error: z.enum(["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]),
    error_description: z.string().optional(),
  }),
);

export const LoginBody = z.object({ email: z.string().min(1), password: z.string().min(1) }).openapi("LoginRequest");
export const LoginResponse = registry.register(
  "LoginResponse",
  z.object({ accessToken: z.string(), expiresIn: z.number().int(), mustResetPassword: z.boolean() }),
);
export const PasswordBody = z.object({ currentPassword: z.string().min(1), newPassword: z.string().min(1) }).openapi("PasswordChangeRequest");

export const tokenOp = defineOperation({
  method: "post",
  path: "/oauth/token",
  auth: "body",
  validate: false,
  summary: "OAuth 2.0 client credentials grant (RFC 6749 section 4.4); extension",
  description:
    "Client authenticated with HTTP Basic (client_id:client_secret) or with client_id and client_secret in the form body. The access token is an ES256 JWT for /api/v1/sync/employees.",
  request: {
    body: {
      content: {
        "application/x-www-form-urlencoded": {
          schema: TokenRequest,
          examples: {
            basic: {
              summary: "Client authenticated with HTTP Basic (Authorization: Basic base64(client_id:client_secret))",
              value: { grant_type: "client_credentials" },
            },
            form: {
              summary: "Client id and secret in the form, asking for one of the client's scopes",
              value: {
                grant_type: "client_credentials",
                client_id: "icl_Xq3vN8kL2pRt7wYz",
                client_secret: "ics_5gH8jK2mN4pQ6rS8tV0wX2yZ4aB6cD8eF0gH2jK4mN6",
                scope: "employees:sync",
              },
            },
          },
        },
      },
    },
  },
  responses: {
    200: { description: "Access token", content: { "application/json": { schema: TokenResponse } } },
    400: { description: "RFC 6749 section 5.2 error", content: { "application/json": { schema: OAuthError } } },
    401: { description: "invalid_client", content: { "application/json": { schema: OAuthError } } },
  },
});

export const jwksOp = defineOperation({
  method: "get",
  path: "/.well-known/jwks.json",
  auth: "none",
  summary: "Public keys that verify access tokens; extension",
  responses: { 200: { description: "JWK Set", content: { "application/json": { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } } } },
});

export const loginOp = defineOperation({
  method: "post",
  path: "/api/auth/login",
  auth: "body",
  summary: "User login; extension",
  description:
    "Gives a short-lived user token for the templates and inspections endpoints. A user with a temporary password gets `mustResetPassword: true` and may only call POST /api/auth/password until they change it.",
  request: {
    body: { content: { "application/json": { schema: LoginBody, example: { email: "admin@example.com", password: "correct horse battery staple" } } } },
  },
  responses: { 200: { description: "User token", content: { "application/json": { schema: LoginResponse } } }, ...errorResponses(400, 401, 429) },
});

export const changePasswordOp = defineOperation({
  method: "post",
  path: "/api/auth/password",
  summary: "Change the caller's password; extension",
  description: "Needs a user token. Tokens issued before the change stop working: log in again.",
  auth: { allow: ["user"], allowPasswordReset: true },
  request: {
    body: {
      content: {
        "application/json": {
          schema: PasswordBody,
          example: { currentPassword: "correct horse battery staple", newPassword: "tangerine kayak oxford lantern" },
        },
      },
    },
  },
  responses: { 204: { description: "Changed" }, ...errorResponses(400, 401, 429) },
});

const ScopeList = z
  .array(z.string())
  .openapi({ description: "What this credential may do: an API key's scopes (docs/authentication.md, API key scopes) or an access token's OAuth scopes." });
export const WhoAmIResponse = registry.register(
  "WhoAmI",
  z
    .discriminatedUnion("kind", [
      z.object({
        kind: z.literal("apiKey"),
        organizationId: z.string(),
        apiKey: z.object({
          id: z.string(),
          name: z.string(),
          prefix: z.string(),
          scopes: ScopeList,
          createdAt: z.string(),
          expiresAt: z.string().nullable().openapi({ description: "When the key stops working; null: never." }),
        }),
      }),
      z.object({
        kind: z.literal("user"),
        organizationId: z.string(),
        user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), isAdmin: z.boolean(), mustResetPassword: z.boolean() }),
      }),
      z.object({ kind: z.literal("client"), organizationId: z.string(), client: z.object({ clientId: z.string(), name: z.string(), scopes: ScopeList }) }),
    ])
    .openapi({
      example: {
        kind: "apiKey",
        organizationId: "9f315d7c-1cbe-4492-ac2d-28c3e9931376",
        apiKey: {
          id: "0b6f3c2e-8f0e-4d7a-9d55-3f4f0e2b1a10",
          name: "reporting",
          prefix: "isk_Q2rp-PDu",
          scopes: ["inspections:read", "media:read"],
          createdAt: "2026-11-24T23:28:11.204Z",
          expiresAt: null,
        },
      },
    }),
);

export const whoAmIOp = defineOperation({
  method: "get",
  path: "/api/auth/whoami",
  summary: "The caller's credential and what it may do; extension",
  description:
    "Any credential: an API key with its name and scopes, a user with their e-mail and whether they are an administrator, or an OAuth access token with its client and scopes. Never a secret.",
  auth: { allow: ["apiKey", "user", "client"], allowPasswordReset: true },
  responses: { 200: { description: "The credential", content: { "application/json": { schema: WhoAmIResponse } } }, ...errorResponses(401, 429) },
});
