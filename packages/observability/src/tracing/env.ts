import { z } from "zod";
import { loadEnv, optionalUrlVar } from "@insp/config";

/**
 * The tracing settings we read ourselves. Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; the SDK reads the rest of the standard OTEL_* variables itself (OTEL_SERVICE_NAME,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_BSP_*, ...).
 */
export const tracingEnvShape = {
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrlVar(["http:", "https:"]),
  /** OTLP over HTTP: protobuf (the OpenTelemetry default) or JSON; grpc needs a gRPC collector port. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(["http/protobuf", "http/json", "grpc"], { message: "must be http/protobuf, http/json or grpc" }).default("http/protobuf"),
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional(),
};

export function loadTracingEnv(source: Record<string, string | undefined> = process.env) {
  return loadEnv(tracingEnvShape, source);
}
