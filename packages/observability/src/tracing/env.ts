import { z } from "zod";
import { loadEnv, optionalUrlVar } from "@insp/config";

/**
 * The tracing settings we read ourselves. Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; the SDK reads the rest of the standard OTEL_* variables itself (OTEL_SERVICE_NAME,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_BSP_*, ...).
 */
export const tracingEnvShape = {
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrlVar(["http:", "https:"]).describe(
    "OTLP collector for traces, e.g. `http://otel-collector:4318`; unset: no tracing. Other OTEL_* variables are read by the OpenTelemetry SDK itself.",
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(["http/protobuf", "http/json", "grpc"], { message: "must be http/protobuf, http/json or grpc" })
    .default("http/protobuf")
    .describe("OTLP over HTTP with protobuf (the OpenTelemetry default) or JSON; grpc needs a gRPC collector port."),
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional().describe("Service name on the traces; unset: inspection-api or inspection-worker."),
};

export function loadTracingEnv(source: Record<string, string | undefined> = process.env) {
  return loadEnv(tracingEnvShape, source);
}
