export { startTracing, stopTracing, ROUTE_OF } from "./start.ts";
export { tracingEnvShape, loadTracingEnv } from "./env.ts";
export { queueTelemetry, withSpan } from "./spans.ts";
