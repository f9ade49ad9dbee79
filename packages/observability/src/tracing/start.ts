import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type * as HttpInstrumentationModule from "@opentelemetry/instrumentation-http";
import type * as SdkNodeModule from "@opentelemetry/sdk-node";
import type { NodeSDK } from "@opentelemetry/sdk-node";
import type * as TraceBaseModule from "@opentelemetry/sdk-trace-base";
import type { Sampler } from "@opentelemetry/sdk-trace-base";
import { loadTracingEnv } from "./env.ts";

/** Set by the API on each request: the Express route pattern, read when its HTTP span ends. */
export const ROUTE_OF = Symbol.for("insp.routeOf");
type WithRoute = IncomingMessage & { [ROUTE_OF]?: () => string | undefined };

/** Paths polled by health checks and scrapers: not worth a trace each. */
const UNTRACED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * BullMQ traces its own housekeeping: polling for jobs, the stalled check every 2 s, pausing
 * and resuming a worker. Those spans are never recorded, wherever they start: as roots they
 * would drown the traces of real work, and a stalled-check timer started during a job would
 * otherwise chain every later check into that job's trace. Everything else follows its parent
 * (a job's processing joins the request that enqueued it) and roots are always recorded.
 */
const HOUSEKEEPING = /^(getNextJob|moveStalledJobsToWait|startStalledCheckTimer|rateLimit|close|pause|resume) /;

/**
 * The OpenTelemetry SDK is loaded only when tracing is on (about 27 MB of memory and 170 ms of
 * start-up per process otherwise), and synchronously: the http module must be instrumented
 * before the modules that main.ts imports after this one load it.
 */
function loadSdk() {
  const require = createRequire(import.meta.url);
  const { NodeSDK } = require("@opentelemetry/sdk-node") as typeof SdkNodeModule;
  const { HttpInstrumentation } = require("@opentelemetry/instrumentation-http") as typeof HttpInstrumentationModule;
  const { AlwaysOnSampler, ParentBasedSampler, SamplingDecision } = require("@opentelemetry/sdk-trace-base") as typeof TraceBaseModule;
  const followParent = new ParentBasedSampler({ root: new AlwaysOnSampler() });
  const sampler: Sampler = {
    shouldSample: (context, traceId, spanName, kind, attributes, links) =>
      HOUSEKEEPING.test(spanName) ? { decision: SamplingDecision.NOT_RECORD } : followParent.shouldSample(context, traceId, spanName, kind, attributes, links),
    toString: () => "InspSampler",
  };
  return { NodeSDK, HttpInstrumentation, sampler };
}

/** The incoming span's attributes that quote the URL as sent, under either semantic convention. */
const URL_ATTRIBUTES = ["http.target", "http.url", "url.path", "url.query", "url.full"];

let sdk: NodeSDK | null = null;

/**
 * Starts OpenTelemetry tracing for this process when OTEL_EXPORTER_OTLP_ENDPOINT is set; does
 * nothing otherwise. Call it before the app's modules load (main.ts imports its tracing module
 * first), so the http module is instrumented before Express and the servers use it. Exports
 * traces only: metrics stay with prom-client (/metrics) and logs with pino.
 */
export function startTracing(defaultServiceName: string): boolean {
  const env = loadTracingEnv();
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || sdk) return !!sdk;
  const { NodeSDK, HttpInstrumentation, sampler } = loadSdk();
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? defaultServiceName,
    sampler,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? "").split("?")[0]!),
        // Outgoing calls (webhook deliveries go through fetch, not this module) are left alone.
        disableOutgoingRequestInstrumentation: true,
        // The span is named by the route pattern, never the URL (ids stay out of span names).
        // Its URL attributes (path with ids, query with filters such as a SCIM userName) are
        // replaced by the pattern too: spans carry no request content.
        applyCustomAttributesOnSpan: (span, req) => {
          const route = (req as WithRoute)[ROUTE_OF]?.() ?? "unmatched";
          const recorded = (span as unknown as { attributes?: Record<string, unknown> }).attributes ?? {};
          for (const name of URL_ATTRIBUTES) if (name in recorded) span.setAttribute(name, name === "url.query" ? "" : route);
          span.setAttribute("http.route", route);
          span.updateName(`${(req as IncomingMessage).method ?? "HTTP"} ${route}`);
        },
      }),
    ],
  });
  sdk.start();
  return true;
}

export const tracingEnabled = () => sdk !== null;

/** Flushes spans still buffered, for at most `withinMs` (a collector that is down must not hold up a shutdown). */
export async function stopTracing(withinMs = 2_000): Promise<void> {
  if (!sdk) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sdk.shutdown().catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
}
