import type { RequestHandler } from "express";
import helmet, { type HelmetOptions } from "helmet";
import { DASHBOARD_PATH } from "./queue-dashboard.ts";

/**
 * Browser-facing headers on every answer (helmet): X-Content-Type-Options: nosniff, so a body is
 * never read as another type than it says; no framing at all (CSP frame-ancestors 'none' and, for
 * browsers without CSP, X-Frame-Options: DENY), so no page can overlay /docs or the queue
 * dashboard to make an operator click; Referrer-Policy: no-referrer, so URLs (ids, filters) do not
 * leave with a followed link; and HSTS once the operator says the service is reached over TLS
 * only (HSTS_MAX_AGE_SECONDS). helmet's other defaults stay (Cross-Origin-Opener-Policy and
 * Cross-Origin-Resource-Policy same-origin, X-DNS-Prefetch-Control off, ...).
 */

/** The API answers data, never a page: nothing it sends may load or run anything. */
const API_CSP = { "default-src": ["'none'"], "frame-ancestors": ["'none'"], "base-uri": ["'none'"], "form-action": ["'none'"] };

/**
 * Swagger UI (/docs) loads its own scripts and stylesheet from /docs/, embeds inline styles and
 * SVG icons as data: URLs, and "Try it out" calls this API. Nothing from another origin.
 */
const DOCS_CSP = {
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'none'"],
};

/**
 * bull-board (/admin/queues): its own scripts, stylesheet, inline styles and its API, plus the
 * two Google Fonts hosts its page links to (its typeface; nothing else comes from them).
 */
const DASHBOARD_CSP = {
  ...DOCS_CSP,
  "style-src": ["'self'", "'unsafe-inline'", "https://fonts.googleapis.com"],
  "font-src": ["'self'", "https://fonts.gstatic.com"],
};

function withPolicy(directives: Record<string, string[]>, hstsMaxAgeSeconds: number): RequestHandler {
  const options: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives },
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    // Off by default: over plain HTTP (local runs, a private network) HSTS would only mislead;
    // behind TLS the operator turns it on. Subdomains are the operator's to decide, not ours.
    strictTransportSecurity: hstsMaxAgeSeconds > 0 ? { maxAge: hstsMaxAgeSeconds, includeSubDomains: false } : false,
  };
  return helmet(options);
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** One middleware for every answer; the pages get the policy they need to work, all else the strictest. */
export function securityHeaders(env: { HSTS_MAX_AGE_SECONDS: number }): RequestHandler {
  const api = withPolicy(API_CSP, env.HSTS_MAX_AGE_SECONDS);
  const docs = withPolicy(DOCS_CSP, env.HSTS_MAX_AGE_SECONDS);
  const dashboard = withPolicy(DASHBOARD_CSP, env.HSTS_MAX_AGE_SECONDS);
  return (req, res, next) => {
    // Express matches routes regardless of letter case: so does the choice of policy.
    const path = req.path.toLowerCase();
    if (under(path, "/docs")) return docs(req, res, next);
    if (under(path, DASHBOARD_PATH)) return dashboard(req, res, next);
    return api(req, res, next);
  };
}
