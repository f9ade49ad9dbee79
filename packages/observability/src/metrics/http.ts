import { Histogram, type Registry } from "prom-client";

/**
 * insp_http_request_duration_seconds{method,route,status}. `route` is always a pattern chosen
 * by the code (the Express route, e.g. /api/templates/:id, or a fixed word such as
 * "unmatched"), never the URL that was sent: ids, query strings and tenant data stay out of the
 * labels, and the number of series stays bounded. Buckets reach 60 s: a synchronous employee
 * sync may wait that long (SYNC_WAIT_SECONDS).
 */
export type HttpDuration = Histogram<"method" | "route" | "status">;

export function httpDurationHistogram(registry: Registry): HttpDuration {
  return new Histogram({
    name: "insp_http_request_duration_seconds",
    help: "HTTP request duration by method, route pattern and status code",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
}

/** Methods outside this list are counted as OTHER (a method name is whatever the client sent). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
export const methodLabel = (method: string) => (METHODS.has(method) ? method : "OTHER");
