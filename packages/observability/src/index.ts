export { createServiceMetrics } from "./metrics/service.ts";
export { createRegistry } from "./metrics/registry.ts";
export { httpDurationHistogram, methodLabel, type HttpDuration } from "./metrics/http.ts";
export { jobMetrics, type JobMetrics } from "./metrics/jobs.ts";
export { queueGauges } from "./metrics/queues.ts";
export { pgPoolGauges } from "./metrics/pg-pool.ts";
export { Sampled } from "./metrics/sampled.ts";
export { bearerMatches, serveMetrics, replyWith, startMetricsServer } from "./metrics/serve.ts";
export type { Registry } from "prom-client";
