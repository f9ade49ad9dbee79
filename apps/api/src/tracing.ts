/**
 * Imported first by main.ts: OpenTelemetry must patch the http module before Express and the
 * server load it. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, Metrics,
 * dashboards and tracing).
 */
import { ConfigError } from "@insp/config";
import { startTracing } from "@insp/observability/tracing";

try {
  startTracing("inspection-api");
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(78); // EX_CONFIG, as for the app's own settings
}
