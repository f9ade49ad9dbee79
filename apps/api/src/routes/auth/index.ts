import type { Response, Router } from "express";
import { changePasswordOp, jwksOp, loginOp, tokenOp, whoAmIOp } from "@insp/contracts";
import { authenticateClient, changePassword, login, whoAmI } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { principalOf } from "../../http/auth.ts";
import { mount, route } from "../../http/route.ts";
import { LoginGuard } from "../../http/login-guard.ts";

/** RFC 6749 section 5.2 error body. */
function oauthError(res: Response, status: number, error: string, description: string, basic = false) {
  if (basic) res.setHeader("WWW-Authenticate", 'Basic realm="oauth"');
  res.status(status).json({ error, error_description: description });
}

export function authRoutes(deps: Deps): Router {
  // Login and the token carry their credential in the body (auth "body"): read with a small limit
  // of its own. Neither authenticates: counted per client address even when an Authorization
  // header is sent.
  const guard = new LoginGuard(deps);
  return mount([
    // OAuth 2.0 client credentials grant (RFC 6749 section 4.4); its errors are RFC 6749's, so it checks the body itself.
    route(deps, tokenOp, async (_input, req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Pragma", "no-cache");
      const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === "string" ? v : undefined);
      const header = req.headers.authorization;
      let clientId = str(body.client_id);
      let clientSecret = str(body.client_secret);
      const usedBasic = !!header?.toLowerCase().startsWith("basic ");
      if (usedBasic) {
        if (clientId && clientSecret) return oauthError(res, 400, "invalid_request", "Use one client authentication method, not both");
        const decoded = Buffer.from(header!.slice(6).trim(), "base64").toString("utf8");
        const i = decoded.indexOf(":");
        // RFC 6749 section 2.3.1: both parts are form-urlencoded.
        try {
          clientId = decodeURIComponent(i === -1 ? decoded : decoded.slice(0, i));
          clientSecret = decodeURIComponent(i === -1 ? "" : decoded.slice(i + 1));
        } catch {
          return oauthError(res, 401, "invalid_client", "Client authentication failed", true);
        }
      }
      const grantType = str(body.grant_type);
      if (!grantType) return oauthError(res, 400, "invalid_request", "grant_type is required");
      if (grantType !== "client_credentials") return oauthError(res, 400, "unsupported_grant_type", "Only grant_type=client_credentials is supported");
      if (!clientId || !clientSecret || `${clientId}${clientSecret}`.includes("\u0000"))
        return oauthError(res, 401, "invalid_client", "Client authentication failed", true);
      const client = await authenticateClient(deps.db, clientId, clientSecret, deps.env.SECRET_PEPPER);
      if (!client) return oauthError(res, 401, "invalid_client", "Client authentication failed", usedBasic);
      const requested = str(body.scope)?.split(" ").filter(Boolean);
      const granted = requested ?? client.scopes;
      const notAllowed = granted.filter((s) => !client.scopes.includes(s));
      if (notAllowed.length > 0) return oauthError(res, 400, "invalid_scope", `Scope not allowed for this client: ${notAllowed.join(" ")}`);
      const scope = granted.join(" ");
      const ttl = deps.env.TOKEN_TTL_SECONDS;
      const accessToken = await deps.tokens.sign({ use: "client", sub: client.clientId, org: client.organizationId, scope }, ttl);
      res.json({ access_token: accessToken, token_type: "Bearer", expires_in: ttl, scope });
    }),
    route(deps, jwksOp, async (_input, _req, res) => {
      res.setHeader("Cache-Control", "public, max-age=300");
      res.json(deps.tokens.jwksDocument());
    }),
    route(deps, loginOp, async ({ body }, req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.json(await login(deps.db, deps.tokens, body.email, body.password, deps.env.USER_TOKEN_TTL_SECONDS, String(req.id), guard.forRequest(req, res)));
    }),
    route(deps, changePasswordOp, async ({ body }, req, res) => {
      const p = principalOf(req);
      if (p.kind !== "user") throw new Error("unreachable");
      await changePassword(deps.db, p.userId, body.currentPassword, body.newPassword, String(req.id), guard.forRequest(req, res));
      res.status(204).end();
    }),
    // Any credential: what it is, and for an API key or a token its scopes (extension).
    route(deps, whoAmIOp, async (_input, req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.json(await whoAmI(deps.db, principalOf(req)));
    }),
  ]);
}
