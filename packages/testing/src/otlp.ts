import http from "node:http";

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
const value = (v: AnyValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attrs = (list: KeyValue[] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
/** OTLP/JSON writes ids as hex; a base64 id (protobuf-style JSON) is turned into hex too. */
const hex = (id: string | undefined) => (!id ? "" : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex"));

/**
 * A trace collector for tests: accepts OTLP/HTTP JSON on POST /v1/traces
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeps every span, so no protobuf is needed.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      try {
        const doc = JSON.parse(body) as { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: any[] }[] }[] };
        for (const rs of doc.resourceSpans ?? []) {
          const service = String(attrs(rs.resource?.attributes)["service.name"] ?? "");
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                service,
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name,
                kind: s.kind,
                attributes: attrs(s.attributes),
              });
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
