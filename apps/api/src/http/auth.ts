import type { NextFunction, Request, RequestHandler, Response } from "express";
import {
  API_KEY_PREFIX,
  AppError,
  auditContextOf,
  authenticateApiKey,
  forbidden,
  principalFromToken,
  unauthorized,
  type AuditContext,
  type Principal,
} from "@insp/core";
import type { Callers } from "@insp/contracts";
import type { Deps } from "../deps.ts";
import { bodyReadersFor } from "./body.ts";
import { principalLimits } from "./rate-limit.ts";

declare module "express-serve-static-core" {
  interface Request {
    principal?: Principal;
  }
}

/** The credential string of an Authorization header: Bearer value, or Basic user (or password). */
export function credentialOf(header: string | undefined): { scheme: "bearer" | "basic"; value: string } | null {
  if (!header) return null;
  const [scheme, rest] = [header.slice(0, header.indexOf(" ")).toLowerCase(), header.slice(header.indexOf(" ") + 1).trim()];
  if (!rest) return null;
  if (scheme === "bearer") return { scheme: "bearer", value: rest };
  if (scheme === "basic") {
    const decoded = Buffer.from(rest, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const user = colon === -1 ? decoded : decoded.slice(0, colon);
    const pass = colon === -1 ? "" : decoded.slice(colon + 1);
    // The spec does not say how Basic credentials are formed: the key is the user name
    // with an empty password, and the password with an empty user is accepted too.
    const value = user || pass;
    return value ? { scheme: "basic", value } : null;
  }
  return null;
}

/** An operation's callers (contracts' defineOperation), and the limit its body is read with. */
export interface AuthOptions extends Callers {
  body: "default" | "inspection";
}

const looksLikeJwt = (v: string) => v.split(".").length === 3;

/** One limiter per app's dependencies (every route's authenticate shares it). */
const limiters = new WeakMap<Deps, ReturnType<typeof principalLimits>>();

/**
 * Resolves the caller from the Authorization header and fixes their organization; then counts
 * the request against the caller's and the organization's rate limits; only then reads the
 * request's body (http/body.ts). A request refused on the way (401, 403, 429) is answered before
 * its body is read, and a body still arriving is drained within bounds (body-limits.ts).
 */
export function authenticate(deps: Deps, opts: AuthOptions): RequestHandler {
  const readBody = bodyReadersFor(deps.env)[opts.body];
  let limit = limiters.get(deps);
  if (!limit) limiters.set(deps, (limit = principalLimits(deps)));
  const limitRequest = limit;
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const cred = credentialOf(req.headers.authorization);
      if (!cred) throw unauthorized("Missing credentials: send an Authorization header");
      let principal: Principal | null = null;
      if (cred.value.startsWith(`${API_KEY_PREFIX}_`)) {
        if (!opts.allow.includes("apiKey")) throw unauthorized("This endpoint requires an OAuth access token (POST /oauth/token), not an API key");
        principal = await authenticateApiKey(deps.db, cred.value, deps.env.SECRET_PEPPER);
      } else if (cred.scheme === "bearer" && looksLikeJwt(cred.value)) {
        const claims = await deps.tokens.verify(cred.value);
        if (claims) principal = await principalFromToken(deps.db, claims);
      }
      if (!principal) throw unauthorized("Invalid or expired credentials");
      // Counted as soon as the caller is known: a request refused for its scope (403) counts too.
      if (!(await limitRequest(req, res, principal))) return;
      if (!opts.allow.includes(principal.kind)) {
        throw unauthorized(
          principal.kind === "client"
            ? "OAuth client tokens are only accepted by /api/v1/sync/employees"
            : "This endpoint requires an OAuth access token (POST /oauth/token)",
        );
      }
      if (principal.kind === "client" && opts.scope && !principal.scopes.includes(opts.scope)) {
        throw forbidden(`Access token lacks the scope ${opts.scope}`);
      }
      if (principal.kind === "apiKey") {
        const missing = opts.keyScopes?.find((s) => !principal!.scopes.includes(s));
        if (missing) throw forbidden(`API key lacks the scope ${missing}`);
      }
      if (principal.kind === "user" && principal.mustResetPassword && !opts.allowPasswordReset) {
        throw new AppError("forbidden", "Password change required: set a new password with POST /api/auth/password before using the API");
      }
      req.principal = principal;
      readBody(req, res, next);
    } catch (err) {
      next(err);
    }
  };
}

/** The authenticated principal of a route behind `authenticate`. */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error("route is missing authenticate()");
  return req.principal;
}

/** The audit context of an authenticated request: its credential and request id. */
export const auditOf = (req: Request): AuditContext => auditContextOf(principalOf(req), String(req.id));
