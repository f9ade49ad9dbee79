import http from "node:http";
import { listen } from "@insp/config";
import { checkReadiness } from "@insp/core";
import { replyWith, serveMetrics } from "@insp/observability";
import type { RedisClient } from "@insp/queue";
import type { WorkerDeps } from "./deps.ts";

/**
 * GET /healthz (the process answers) and GET /readyz (Postgres and Redis answer, else 503)
 * on HEALTH_PORT, for Docker's and Kubernetes' health checks; and GET /metrics when
 * METRICS_TOKEN is set (a Bearer token; otherwise 404 here, METRICS_PORT serves it plain).
 * It listens before the job workers start, so a port that is taken stops the start first (a
 * ConfigError naming HEALTH_PORT); /readyz answers 503 until `started()`.
 */
export async function startHealthServer(deps: WorkerDeps, redis: RedisClient, started: () => boolean): Promise<http.Server | null> {
  if (!deps.env.HEALTH_PORT) return null;
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "GET") return reply(405, { error: "Method not allowed" });
    if (req.url === "/healthz") return reply(200, { status: "ok" });
    if (req.url === "/metrics" && deps.env.METRICS_TOKEN) {
      void serveMetrics(deps.metrics.registry, req.headers.authorization, deps.env.METRICS_TOKEN, replyWith(res));
      return;
    }
    if (req.url === "/readyz") {
      // Not ready before the job workers run: a rollout waits for them, not for the port.
      if (!started()) return reply(503, { status: "starting" });
      void checkReadiness(deps.dbHandle, redis).then((r) => reply(r.status === "ready" ? 200 : 503, r));
      return;
    }
    reply(404, { error: "Not found" });
  });
  await listen(server, deps.env.HEALTH_PORT, "0.0.0.0", { port: "HEALTH_PORT" });
  server.on("error", (err) => deps.logger.error({ err }, "worker health server failed"));
  deps.logger.info({ port: deps.env.HEALTH_PORT }, "worker health checks listening");
  return server;
}
