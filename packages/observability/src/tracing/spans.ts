import { SpanStatusCode, trace } from "@opentelemetry/api";
import type { BullMQOtel } from "bullmq-otel";
import { tracingEnabled } from "./start.ts";

/**
 * BullMQ's telemetry for Queue and Worker options when tracing is on: the producer's span
 * context travels in the job, so the worker's processing span joins the request's trace.
 * Undefined when tracing is off (BullMQ then does no tracing work at all, and bullmq-otel is never loaded).
 */
export async function queueTelemetry(): Promise<BullMQOtel | undefined> {
  if (!tracingEnabled()) return undefined;
  const { BullMQOtel } = await import("bullmq-otel");
  return new BullMQOtel({ tracerName: "inspection-service" });
}

const tracer = trace.getTracer("inspection-service");

/**
 * Runs `fn` in a child span of the active one. Attributes are the caller's choice: names of
 * things, never request content or tenant data. A no-op span when tracing is off.
 */
export async function withSpan<T>(name: string, attributes: Record<string, string | number | boolean>, fn: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      // The class only: an error message can quote what was sent.
      span.recordException({ name: err instanceof Error ? err.name : "Error" });
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
