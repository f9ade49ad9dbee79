import { randomUUID } from "node:crypto";
import express, { type Router } from "express";
import { pinoHttp } from "pino-http";
import { AppError, serializeError } from "@insp/core";
import type { Deps } from "./deps.ts";
import { bodyWasRead, drainBounds } from "./http/body.ts";
import { refuseOversizedBodies } from "./http/body-limits.ts";
import { errorHandler, notFoundRoute } from "./http/errors.ts";
import { httpMetrics, metricsRoute } from "./http/metrics.ts";
import { queueDashboardRoutes } from "./http/queue-dashboard.ts";
import { addressLimiterFor, authFailureLimiter } from "./http/rate-limit.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { actionRoutes } from "./routes/actions/index.ts";
import { directoryRoutes } from "./routes/directory/index.ts";
import { authRoutes } from "./routes/auth/index.ts";
import { docsRoutes } from "./routes/docs/index.ts";
import { exportRoutes } from "./routes/exports/index.ts";
import { employeeSyncRoutes } from "./routes/employee-sync/index.ts";
import { employeeRoutes } from "./routes/employees/index.ts";
import { auditRoutes } from "./routes/audit/index.ts";
import { feedRoutes } from "./routes/feeds/index.ts";
import { webhookRoutes } from "./routes/webhooks/index.ts";
import { credentialRoutes } from "./routes/credentials/index.ts";
import { usersRoutes } from "./routes/users/index.ts";
import { healthRoutes } from "./routes/health/index.ts";
import { inspectionRoutes } from "./routes/inspections/index.ts";
import { reportRoutes } from "./routes/reports/index.ts";
import { scimRoutes } from "./routes/scim/index.ts";
import { scimErrors } from "./routes/scim/respond.ts";
import { scheduleFeatureRoutes } from "./routes/schedules/index.ts";
import { templateRoutes } from "./routes/templates/index.ts";

/** Feature routers, one folder each under routes/. */
const features: ((deps: Deps) => Router)[] = [
  healthRoutes,
  docsRoutes,
  authRoutes,
  templateRoutes,
  inspectionRoutes,
  reportRoutes,
  actionRoutes,
  directoryRoutes,
  scheduleFeatureRoutes,
  exportRoutes,
  employeeSyncRoutes,
  employeeRoutes,
  feedRoutes,
  webhookRoutes,
  credentialRoutes,
  usersRoutes,
  auditRoutes,
  scimRoutes,
];

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

export function createApp(deps: Deps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.env.TRUST_PROXY);
  // First of all, so every answer carries them, 413s and limiters' 429s included.
  app.use(securityHeaders(deps.env));
  // Before anything answers: a 413, or any refusal of a request whose body was never read (401,
  // 403, 429 before authentication let it be read), closes the connection after a bounded drain,
  // and nothing pipelined behind a refused body is handled.
  app.use(refuseOversizedBodies(drainBounds(deps.env), bodyWasRead));
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
  app.use(addressLimiterFor(deps).everyRequest);
  // Operator endpoints, behind the limiters (their 401s count as failed authentications).
  app.use(metricsRoute(deps, deps.metrics.registry));
  app.use(queueDashboardRoutes(deps));
  // No body is read here: `authenticate` reads it once the caller is known (http/body.ts), and
  // refuses text Postgres cannot hold. The same for path and query (a NUL in a filter would
  // otherwise reach Postgres).
  app.use((req, _res, next) => next(/%00/.test(req.url) ? new AppError("invalid", "URL contains a NUL character (%00)") : undefined));
  // Under /scim/v2 even a malformed body or URL is answered as SCIM (RFC 7644 section 3.12).
  app.use("/scim/v2", scimErrors);
  for (const feature of features) app.use(feature(deps));
  // An unknown path answers no principal: counted per address even with a credential.
  app.use(addressLimiterFor(deps).thisRoute, notFoundRoute);
  app.use(errorHandler);
  return app;
}
