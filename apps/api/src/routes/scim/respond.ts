import type { ErrorRequestHandler, Request, Response } from "express";
import { AppError, ScimError, asScimError, errorBody, etagListMatches, MAX_RESULTS, type Page, type ScimContext } from "@insp/core";
import { ERROR_STATUS } from "@insp/contracts/errors";
import { isConnectionError } from "@insp/db";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { RETRY_AFTER_SECONDS } from "../../http/errors.ts";

/** SCIM's media type (RFC 7644 section 3.1): every answer under /scim/v2 carries it. */
const SCIM_JSON = "application/scim+json";

/** https://host/scim/v2, as the caller reached it (behind a proxy: TRUST_PROXY). */
export const baseUrlOf = (req: Request) => `${req.protocol}://${req.get("host")}/scim/v2`;

export function contextOf(deps: Deps, req: Request): ScimContext {
  const p = principalOf(req);
  return {
    db: deps.db,
    organizationId: p.organizationId,
    clientId: p.kind === "client" ? p.clientId : null,
    requestId: String(req.id),
    baseUrl: baseUrlOf(req),
    maxGroups: deps.env.DIRECTORY_MAX_PER_ORG,
  };
}

export function send(res: Response, status: number, body?: unknown): void {
  res.status(status).type(SCIM_JSON);
  if (body === undefined) res.end();
  else res.send(JSON.stringify(body));
}

/** A resource with its ETag (meta.version) and, when created, its Location; a GET whose If-None-Match names its version (weak comparison, lists, `*`) is a 304. */
export function sendResource(req: Request, res: Response, status: number, resource: Record<string, unknown>): void {
  const meta = resource.meta as { version?: string; location?: string } | undefined;
  if (meta?.version) res.setHeader("ETag", meta.version);
  if (status === 201 && meta?.location) res.setHeader("Location", meta.location);
  const inm = req.header("if-none-match");
  if (req.method === "GET" && meta?.version && inm !== undefined && etagListMatches(inm, meta.version)) {
    res.status(304).end();
    return;
  }
  send(res, status, project(req, resource));
}

const listParam = (v: unknown) =>
  typeof v === "string" && v.trim()
    ? v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : null;

/**
 * `attributes` (only these, with id and schemas) and `excludedAttributes` (all but these), by
 * top-level attribute name (RFC 7644 section 3.4.2.5).
 */
function project(req: Request, resource: Record<string, unknown>): Record<string, unknown> {
  const only = listParam(req.query.attributes);
  const except = listParam(req.query.excludedAttributes);
  if (!only && !except) return resource;
  return Object.fromEntries(
    Object.entries(resource).filter(([k]) => {
      const key = k.toLowerCase();
      if (key === "id" || key === "schemas") return true;
      if (only) return only.some((a) => a === key || a.startsWith(`${key}.`));
      return !except!.includes(key);
    }),
  );
}

/** startIndex (1-based; below 1 means 1) and count (0 means none; capped at the maximum; default the maximum). */
export function pageOf(req: Request): Page {
  const int = (name: string, fallback: number) => {
    const raw = req.query[name];
    if (raw === undefined) return fallback;
    if (typeof raw !== "string" || !/^-?\d{1,9}$/.test(raw.trim())) throw new ScimError(400, "invalidValue", `${name} must be a whole number`);
    return Number(raw);
  };
  return { startIndex: Math.max(1, int("startIndex", 1)), count: Math.min(MAX_RESULTS, Math.max(0, int("count", MAX_RESULTS))) };
}

export function filterOf(req: Request): string | undefined {
  const f = req.query.filter;
  if (f === undefined) return undefined;
  if (typeof f !== "string") throw new ScimError(400, "invalidFilter", "Give one filter");
  return f;
}

export function sendList(req: Request, res: Response, page: Page, list: { total: number; resources: Record<string, unknown>[] }): void {
  send(res, 200, {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
    totalResults: list.total,
    startIndex: page.startIndex,
    itemsPerPage: list.resources.length,
    Resources: list.resources.map((r) => project(req, r)),
  });
}

/**
 * Every error under /scim/v2 as RFC 7644 section 3.12 says: `{schemas, status (a string),
 * scimType?, detail}` with SCIM's media type, including the authentication errors (401, 403) and
 * malformed bodies; an unreachable database is a 503 with Retry-After; anything else a 500 that
 * names the request id (the cause stays in the log).
 */
export const scimErrors: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  const scimError = asScimError(err);
  if (scimError) {
    if (scimError.status === 503) res.setHeader("Retry-After", "1");
    return send(res, scimError.status, errorBody(scimError.status, scimError.message, scimError.scimType));
  }
  if (err instanceof AppError) return send(res, ERROR_STATUS[err.kind], errorBody(ERROR_STATUS[err.kind], err.message));
  const type = (err as { type?: string }).type;
  if (type === "entity.parse.failed") return send(res, 400, errorBody(400, "Malformed JSON in request body", "invalidSyntax"));
  if (type === "entity.too.large") return send(res, 413, errorBody(413, "Request body too large"));
  if (type === "encoding.unsupported" || type === "charset.unsupported") return send(res, 415, errorBody(415, "Unsupported body encoding or charset"));
  // Other client errors of Express and its parsers (a malformed %-escape in the path: 400).
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) return send(res, status, errorBody(status, "Bad request"));
  if (isConnectionError(err)) {
    res.setHeader("Retry-After", RETRY_AFTER_SECONDS);
    return send(res, 503, errorBody(503, "Service temporarily unavailable; retry shortly"));
  }
  req.log.error({ err, requestId: req.id }, "unhandled error");
  send(res, 500, errorBody(500, `Internal server error (request id ${String(req.id)})`));
};
