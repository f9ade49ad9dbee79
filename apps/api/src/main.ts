// First: tracing patches the http module before anything else loads it.
import "./tracing.ts";
import http from "node:http";
import { exitOnStartFailure, listen } from "@insp/config";
import { createDb, runMigrations } from "@insp/db";
import { TokenService, createLogger, createMediaStore, installProcessGuards } from "@insp/core";
import { JOB_NAMES, JobWaiter, Queues, createRedis } from "@insp/queue";
import { createServiceMetrics, httpDurationHistogram, startMetricsServer } from "@insp/observability";
import { queueTelemetry, stopTracing } from "@insp/observability/tracing";
import { createApp } from "./app.ts";
import { continueWhenRead, endDrains } from "./http/body-limits.ts";
import { answerClientErrorsAsJson } from "./http/client-errors.ts";
import type { Deps } from "./deps.ts";
import { loadApiEnv } from "./env.ts";

async function main() {
  const env = loadApiEnv();
  const logger = createLogger("api", env.LOG_LEVEL);
  installProcessGuards(logger);
  if (env.MIGRATE_ON_START) await runMigrations(env.DATABASE_URL);
  const dbHandle = createDb(env.DATABASE_URL, { max: env.DB_POOL_MAX, applicationName: "inspection-api" });
  const redis = createRedis(env, "producer");
  const tokens = new TokenService(dbHandle.db, { issuer: env.TOKEN_ISSUER, privateKeyPem: env.JWT_PRIVATE_KEY });
  await tokens.init();
  if (!env.JWT_PRIVATE_KEY && env.NODE_ENV === "production") {
    logger.warn(
      "JWT_PRIVATE_KEY is not set: the token signing key is kept in Postgres (signing_keys), so anyone who can read the database can mint tokens. Set JWT_PRIVATE_KEY in production.",
    );
  }
  const queues = new Queues(redis, env.QUEUE_PREFIX, await queueTelemetry());
  const registry = createServiceMetrics("api", { dbHandle, queues: JOB_NAMES.map((n) => queues.queue(n)) });
  const metrics = { registry, httpDuration: httpDurationHistogram(registry) };
  const waiter = new JobWaiter(() => createRedis(env, "worker"), env.QUEUE_PREFIX);
  const deps: Deps = { env, db: dbHandle.db, dbHandle, redis, queues, waiter, tokens, logger, media: await createMediaStore(env), metrics };
  const app = createApp(deps);
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  answerClientErrorsAsJson(server);
  continueWhenRead(server);
  const metricsServer = env.METRICS_PORT
    ? await startMetricsServer(
        registry,
        env.METRICS_PORT,
        env.METRICS_HOST ?? env.HOST,
        { port: "METRICS_PORT", host: env.METRICS_HOST ? "METRICS_HOST" : "HOST" },
        (err) => logger.error({ err }, "metrics server failed"),
      )
    : null;
  if (metricsServer) logger.info({ port: env.METRICS_PORT }, "metrics listening");
  // Last: the port answers only once everything behind it is ready. A port that is taken is
  // one line and exit 78 (`listen`), not a process that runs on without listening.
  const port = await listen(server, env.PORT, env.HOST, { port: "PORT", host: "HOST" });
  server.on("error", (err) => logger.error({ err }, "API server error"));

  // SIGTERM: stop accepting, let in-flight requests finish (bounded), then close
  // queue connections and the pool, so a rolling deploy drops no request.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const hardStop = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_SECONDS * 1000);
    hardStop.unref();
    await new Promise<void>((resolve) => {
      // Keep-alive connections become idle as their last response ends: close them as they do.
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      server.close(() => {
        clearInterval(idle);
        resolve();
      });
      server.closeIdleConnections();
      // Connections draining a refused body have had their answer: close them now.
      endDrains();
      // Requests waiting on jobs answer now with their status (sync: 202 and the status
      // URL; import: 503 with its import id) rather than being cut off; the jobs go on.
      waiter.stopWaiting();
    });
    metricsServer?.close();
    await waiter.close().catch(() => {});
    await queues.close().catch(() => {});
    redis.disconnect();
    await dbHandle.close().catch(() => {});
    await stopTracing();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Started by `npm start` (which opens an IPC channel): a launcher that died without stopping us
  // closes it, and we stop too, so nothing is left holding ports for the next start.
  if (process.connected) process.once("disconnect", () => void shutdown("launcher gone"));
  // Only now, with the signal handlers in place, is the API said to listen: a SIGTERM sent as soon
  // as a parent hears it drains and exits 0 instead of killing a process without handlers.
  logger.info({ port }, `API listening on http://127.0.0.1:${port}`);
  // A parent that opened an IPC channel learns the port we got: the test harness starts the API
  // with PORT=0, where only this process knows it (`npm start` ignores the message).
  process.send?.({ listening: port });
}

main().catch(exitOnStartFailure("API"));
