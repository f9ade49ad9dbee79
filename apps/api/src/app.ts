import { randomUUID } from "node:crypto";
import express, { type RequestHandler, type Router } from "express";
import { pinoHttp } from "pino-http";
import { AppError, serializeError } from "@insp/core";
import type { Deps } from "./deps.ts";
import { limitBody, refuseOversizedBodies, type DrainBounds } from "./http/body-limits.ts";
import { errorHandler, notFoundRoute } from "./http/errors.ts";
import { httpMetrics, metricsRoute } from "./http/metrics.ts";
import { queueDashboardRoutes } from "./http/queue-dashboard.ts";
import { authFailureLimiter, rateLimiter } from "./http/rate-limit.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { actionRoutes } from "./routes/actions/index.ts";
import { authRoutes } from "./routes/auth/index.ts";
import { docsRoutes } from "./routes/docs/index.ts";
import { exportRoutes } from "./routes/exports/index.ts";
import { employeeSyncRoutes } from "./routes/employee-sync/index.ts";
import { employeeRoutes } from "./routes/employees/index.ts";
import { auditRoutes } from "./routes/audit/index.ts";
import { feedRoutes } from "./routes/feeds/index.ts";
import { webhookRoutes } from "./routes/webhooks/index.ts";
import { healthRoutes } from "./routes/health/index.ts";
import { inspectionRoutes } from "./routes/inspections/index.ts";
import { reportRoutes } from "./routes/reports/index.ts";
import { scimRoutes } from "./routes/scim/index.ts";
import { scimErrors } from "./routes/scim/respond.ts";
import { templateRoutes } from "./routes/templates/index.ts";

/** Feature routers, one folder each under routes/. */
const features: ((deps: Deps) => Router)[] = [healthRoutes, docsRoutes, authRoutes, templateRoutes, inspectionRoutes, reportRoutes, actionRoutes, exportRoutes, employeeSyncRoutes, employeeRoutes, feedRoutes, webhookRoutes, auditRoutes, scimRoutes];

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

const NUL_MESSAGE = "Request body contains a NUL character (\\u0000), which is not allowed in text";
const SURROGATE_MESSAGE = "Request body contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF), which is not valid Unicode text";
/** With the u flag, a well-formed pair is one code point: only a lone surrogate is in Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Text Postgres cannot hold as sent is refused at the door (400), for every field of every
 * body, instead of failing a write later (500): U+0000 (text and jsonb refuse it) and unpaired
 * UTF-16 surrogates from JSON escapes such as "\ud800" (jsonb refuses them, text would store
 * U+FFFD instead of what was sent). Keys are checked as well as values.
 */
function rejectUnsafeText(key: string, value: unknown): unknown {
  for (const s of typeof value === "string" ? [key, value] : [key]) {
    if (s.includes("\u0000")) throw new Error(NUL_MESSAGE);
    if (LONE_SURROGATE.test(s)) throw new Error(SURROGATE_MESSAGE);
  }
  return value;
}

const mb = (n: number) => n * 1024 * 1024;

/**
 * How deep a JSON body may nest. Far beyond any body of the API (a template is about six levels,
 * free-form answerJson and metadata included), and far below what recursive code can take: a
 * body nested thousands of levels deep overflowed the stack of code that walks it (a 500).
 */
const MAX_JSON_DEPTH = 64;

function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(v as object)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** Refuses a parsed body nested deeper than MAX_JSON_DEPTH as malformed (400), before any route walks it. */
const refuseDeepJson =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      if (err || req.body === null || typeof req.body !== "object" || !nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next(err);
      next(Object.assign(new Error(`Request body contains JSON nested deeper than ${MAX_JSON_DEPTH} levels`), { type: "entity.parse.failed", status: 400, expose: true }));
    });

/** How long and how much of a body refused for size is read and thrown away (docs/authentication.md, Errors). */
const drainBounds = (env: Deps["env"]): DrainBounds => ({ seconds: env.REFUSED_BODY_DRAIN_SECONDS, idleSeconds: env.REFUSED_BODY_IDLE_SECONDS, maxBytes: mb(env.REFUSED_BODY_DRAIN_MB) });

/**
 * JSON limits per route: inspection imports and PATCHes, which may carry base64 images, get
 * their own, larger limit (INSPECTION_BODY_LIMIT_MB); everything else BODY_LIMIT_MB. Past it: 413,
 * as soon as the Content-Length says so or the bytes cross the limit (limitBody).
 */
function bodyParsers(deps: Deps): RequestHandler {
  // application/scim+json is SCIM's own JSON (RFC 7644 section 3.1).
  const type = ["application/json", "application/scim+json"];
  const bounds = drainBounds(deps.env);
  const parseJson = (limit: number) => refuseDeepJson(limitBody(express.json({ type, limit, reviver: rejectUnsafeText }), limit, type, bounds));
  const json = parseJson(mb(deps.env.BODY_LIMIT_MB));
  const inspectionJson = parseJson(mb(deps.env.INSPECTION_BODY_LIMIT_MB));
  const formType = ["application/x-www-form-urlencoded"];
  const form = limitBody(express.urlencoded({ type: formType, extended: false, limit: mb(1) }), mb(1), formType, bounds);
  return (req, res, next) => {
    if ((req.method === "POST" && req.path === "/api/inspections") || (req.method === "PATCH" && req.path.startsWith("/api/inspections/"))) return inspectionJson(req, res, next);
    if (req.path === "/oauth/token") return form(req, res, (err) => (err ? next(err) : json(req, res, next)));
    return json(req, res, next);
  };
}

export function createApp(deps: Deps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.env.TRUST_PROXY);
  // First of all, so every answer carries them, 413s and limiters' 429s included.
  app.use(securityHeaders(deps.env));
  // Before anything answers: a 413 while the body still arrives closes the connection after a
  // bounded drain, and nothing pipelined behind a refused body is handled.
  app.use(refuseOversizedBodies(drainBounds(deps.env)));
  // First, so every answer is timed, those of the limiters included.
  app.use(httpMetrics(deps.metrics.httpDuration));
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const given = req.headers["x-request-id"];
        const id = typeof given === "string" && REQUEST_ID_RE.test(given) ? given : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
      // Only the path: query strings and bodies are not logged.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split("?")[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: serializeError,
      },
    }),
  );
  app.use(authFailureLimiter(deps));
  app.use(rateLimiter(deps));
  // Operator endpoints, behind the limiters (their 401s count as failed authentications).
  app.use(metricsRoute(deps, deps.metrics.registry));
  app.use(queueDashboardRoutes(deps));
  app.use(bodyParsers(deps));
  // The same for path and query (a NUL in a filter would otherwise reach Postgres).
  app.use((req, _res, next) => next(/%00/.test(req.url) ? new AppError("invalid", "URL contains a NUL character (%00)") : undefined));
  // Under /scim/v2 even a malformed body or URL is answered as SCIM (RFC 7644 section 3.12).
  app.use("/scim/v2", scimErrors);
  for (const feature of features) app.use(feature(deps));
  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}
