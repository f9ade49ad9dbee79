import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { registry } from "./openapi.ts";
import type { ApiKeyScope, ClientScope } from "./scopes.ts";

/**
 * One definition per HTTP operation: its method, path, schemas, who may call it and how its body
 * is read. The OpenAPI document is registered from it here, and the API mounts its route from the
 * same object (apps/api/src/http/route.ts), so the document, the validation, the authentication
 * and the body limit cannot disagree. In the spirit of Unkey's createRoute.
 */

/** Who a credential is: an API key, a user's token (POST /api/auth/login) or an OAuth client's access token. */
export type PrincipalKind = "apiKey" | "user" | "client";

/** Who may call an operation that authenticates (apps/api/src/http/auth.ts checks it, in this order). */
export interface Callers {
  /** The kinds of principal accepted, in the order the document lists their security schemes. */
  allow: readonly PrincipalKind[];
  /** The OAuth scope a client token needs. */
  scope?: ClientScope;
  /** The scopes an API key needs (every one of them); users are not limited by them. */
  keyScopes?: readonly ApiKeyScope[];
  /** Let a user whose temporary password must be changed through (the password route and whoami). */
  allowPasswordReset?: boolean;
}

/**
 * - `Callers`: the caller is authenticated from the Authorization header before the body is read.
 * - `"none"`: no credential; counted only by the app's every-request limits (health, the signing keys).
 * - `"address"`: no credential; counted per client address even when a credential is sent (SCIM discovery).
 * - `"body"`: the credential is in the body (login, the OAuth token); counted per client address.
 */
export type OperationAuth = Callers | "none" | "address" | "body";

/**
 * How the body is read, and its limit: `default` BODY_LIMIT_MB; `inspection` INSPECTION_BODY_LIMIT_MB
 * (an import or a PATCH may carry base64 images); `credential` a small fixed limit, for a body read
 * before its sender is known; `none` never read.
 */
export type BodyLimit = "default" | "inspection" | "credential" | "none";

type Schema = z.ZodType;

export interface OperationConfig extends Omit<RouteConfig, "security"> {
  auth: OperationAuth;
  /** Defaults: `credential` when auth is "body", `none` when there is no credential, else `default`. */
  body?: BodyLimit;
  /**
   * What the API validates, when not the document's params, query and JSON body. `false`: the
   * route checks the request itself (SCIM: scimmy validates and answers SCIM errors; the OAuth
   * token: RFC 6749 section 5.2 errors). Per part: `false` for a part the route parses itself (a
   * template's body, whose two spec messages come before the schema's), or a schema of its own.
   */
  validate?: false | { params?: Schema | false; query?: Schema | false; body?: Schema | false };
  /** Mounted and validated like any other, but left out of /openapi.json. */
  hidden?: boolean;
}

type JsonBody<C> = C extends { request: { body: { content: { "application/json": { schema: infer S extends Schema } } } } } ? S : undefined;
type DocPart<C, K extends "params" | "query" | "body"> = K extends "body"
  ? JsonBody<C>
  : C extends { request: { [P in K]: infer S extends Schema } }
    ? S
    : undefined;
/** The schema the API validates part K with: the definition's own, none, or the document's. */
type Part<C, K extends "params" | "query" | "body"> = C extends { validate: false }
  ? undefined
  : C extends { validate: { [P in K]: infer V } }
    ? V extends Schema
      ? V
      : undefined
    : DocPart<C, K>;

/** The schemas the API validates a request with: the document's params, query and JSON body. */
export interface InputSchemas<P = Schema | undefined, Q = Schema | undefined, B = Schema | undefined> {
  params: P;
  query: Q;
  body: B;
}

export interface Operation<C extends OperationConfig = OperationConfig> {
  method: RouteConfig["method"];
  /** In OpenAPI form: `/api/templates/{id}`. */
  path: string;
  auth: OperationAuth;
  body: BodyLimit;
  /** Empty when the route validates the request itself (`validate: false`). */
  input: InputSchemas<Part<C, "params">, Part<C, "query">, Part<C, "body">>;
  config: C;
}

/** Every operation defined, in definition order: the API's route cross-check compares its routes with these. */
export const operations: Operation[] = [];

const schemeOf = (scope: ClientScope | undefined): Record<string, string[]>[] =>
  scope === "scim" ? [{ scim: [] }] : scope ? [{ oauth2: [scope] }] : [{ oauth2: [] }, { scim: [] }];

/**
 * The document's security requirement for `auth`, one entry per accepted kind in the order of
 * `allow`: an API key as Bearer or Basic with its scopes; a user token alone as the apiKey scheme's
 * Bearer (its description says user tokens are accepted); a client token as oauth2 with its scope,
 * or the scim scheme for `scim`, or both schemes without scopes when any client token will do.
 */
export function securityOf(auth: OperationAuth): Record<string, string[]>[] | undefined {
  if (typeof auth === "string") return undefined;
  const keyScopes = [...(auth.keyScopes ?? [])];
  return auth.allow.flatMap((kind) => {
    if (kind === "apiKey") return [{ apiKey: keyScopes }, { basic: keyScopes }];
    if (kind === "user") return auth.allow.includes("apiKey") ? [] : [{ apiKey: [] }];
    return schemeOf(auth.scope);
  });
}

const defaultBody = (auth: OperationAuth): BodyLimit => (auth === "body" ? "credential" : typeof auth === "string" ? "none" : "default");

/** Registers `config` in the OpenAPI document (its security derived from `auth`) and returns the operation the API mounts. */
export function defineOperation<const C extends OperationConfig>(config: C): Operation<C> {
  const { auth, body, validate, hidden, ...route } = config;
  const security = securityOf(auth);
  if (!hidden) registry.registerPath({ ...route, ...(security ? { security } : {}) } as RouteConfig);
  const request = config.request as { params?: Schema; query?: Schema; body?: { content?: Record<string, { schema?: unknown }> } } | undefined;
  const doc = { params: request?.params, query: request?.query, body: request?.body?.content?.["application/json"]?.schema as Schema | undefined };
  const pick = (part: keyof typeof doc): Schema | undefined => {
    if (validate === false) return undefined;
    const own = validate?.[part];
    return own === false ? undefined : (own ?? doc[part]);
  };
  const input = { params: pick("params"), query: pick("query"), body: pick("body") };
  // Nothing is parsed before the sender is known: a body without a credential in the header is
  // the credential itself (small limit) or is not read at all; only an authenticated operation
  // chooses between the default and the inspection limit.
  const limit = body ?? defaultBody(auth);
  if (limit !== defaultBody(auth) && !(typeof auth === "object" && limit === "inspection"))
    throw new Error(`${config.method} ${config.path}: body "${limit}" does not go with auth ${JSON.stringify(auth)}`);
  const operation = { method: config.method, path: config.path, auth, body: limit, input, config } as Operation<C>;
  operations.push(operation as unknown as Operation);
  return operation;
}

/** API keys with `keyScopes`, and every user of the organization (the common case). */
export const keyOrUser = (...keyScopes: ApiKeyScope[]): Callers => ({ allow: ["apiKey", "user"], keyScopes });
