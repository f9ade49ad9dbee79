import { Router, type Request, type RequestHandler } from "express";
import { methodLabel, serveMetrics, type HttpDuration, type Registry } from "@insp/observability";
import { ROUTE_OF } from "@insp/observability/tracing";
import type { Deps } from "../deps.ts";

/**
 * The route label of a request: the pattern of the Express route that answered it (with the
 * path its router is mounted on), never the URL sent. Requests no route answered are
 * "unmatched" (404s, and those refused before routing: rate limits, bad URLs), or "<mount>/*"
 * under a mounted app such as the queue dashboard's static files.
 */
function routeLabel(req: Request): string {
  // req.baseUrl is the part of the URL as sent that matched a mount path, and Express matches
  // paths in any letter case: lower-cased, it is the mount path itself (ours are lower case and
  // have no parameters), so `/ADMIN/Queues` cannot mint label values of its own.
  const base = req.baseUrl.toLowerCase();
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === "string") return `${base}${path}` || "/";
  if (path !== undefined) return `${base}/<pattern>`;
  return base ? `${base}/*` : "unmatched";
}

/** Times every request into insp_http_request_duration_seconds; also names its trace span. */
export function httpMetrics(histogram: HttpDuration): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    (req as unknown as Record<symbol, unknown>)[ROUTE_OF] = () => routeLabel(req);
    // On close, not finish: a request its client gave up on (a long sync wait, a large detail)
    // counts too, with status "aborted".
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      histogram.observe(
        { method: methodLabel(req.method), route: routeLabel(req), status: res.writableFinished ? String(res.statusCode) : "aborted" },
        seconds,
      );
    });
    next();
  };
}

/**
 * GET /metrics on the API's own port, only when METRICS_TOKEN is set (a Bearer token, compared
 * in constant time; a wrong one is a 401 and counts as a failed authentication). Unset: no
 * route, so the usual 404.
 */
export function metricsRoute(deps: Deps, registry: Registry): Router {
  const router = Router();
  const token = deps.env.METRICS_TOKEN;
  if (!token) return router;
  router.get("/metrics", (req, res) => {
    void serveMetrics(registry, req.headers.authorization, token, (status, headers, body) => res.status(status).set(headers).send(body));
  });
  return router;
}
