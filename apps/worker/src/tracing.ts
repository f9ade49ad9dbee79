/**
 * Imported first by main.ts, before anything else loads: a job's processing joins the trace
 * of the request that enqueued it (BullMQ telemetry). Off unless OTEL_EXPORTER_OTLP_ENDPOINT
 * is set (docs/operations.md, Metrics, dashboards and tracing).
 */
import { ConfigError } from "@insp/config";
import { startTracing } from "@insp/observability/tracing";

try {
  startTracing("inspection-worker");
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(78); // EX_CONFIG, as for the app's own settings
}
