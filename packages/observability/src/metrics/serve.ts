import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { Registry } from "prom-client";
import { listen, type ListenSettings } from "@insp/config";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** `Authorization: Bearer <token>`, compared in constant time (both sides hashed to one length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

type Reply = (status: number, headers: Record<string, string>, body: string) => void;

/**
 * GET /metrics for one process's registry. With `token` the scrape must send it as a Bearer
 * token (401 otherwise, with nothing of the registry); without one it is served as is, which is
 * what a port on a private network (METRICS_PORT) is for.
 */
export async function serveMetrics(registry: Registry, authorization: string | undefined, token: string | undefined, reply: Reply): Promise<void> {
  if (token !== undefined && !bearerMatches(authorization, token)) {
    reply(
      401,
      { "content-type": "application/json", "www-authenticate": 'Bearer realm="metrics"' },
      JSON.stringify({ error: "Missing or wrong metrics token" }),
    );
    return;
  }
  try {
    reply(200, { "content-type": registry.contentType, "cache-control": "no-store" }, await registry.metrics());
  } catch {
    reply(500, { "content-type": "application/json" }, JSON.stringify({ error: "Metrics could not be collected" }));
  }
}

/** A node http reply function. */
export const replyWith =
  (res: http.ServerResponse): Reply =>
  (status, headers, body) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/**
 * The plain metrics server on METRICS_PORT: GET /metrics only, no token (bind it to a private
 * network). Separate from the service's own port so a scraper needs no credential and the
 * public port need not expose anything. A port that is taken rejects with a ConfigError naming
 * `settings.port`: a process without the metrics it was asked for does not start; `onError` hears
 * what goes wrong afterwards.
 */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host: string,
  settings: ListenSettings,
  onError: (err: Error) => void,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
      return;
    }
    void serveMetrics(registry, undefined, undefined, replyWith(res));
  });
  await listen(server, port, host, settings);
  server.on("error", onError);
  return server;
}
