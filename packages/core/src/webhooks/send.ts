import http from "node:http";
import https from "node:https";
import net from "node:net";
import { guardedLookup, isAllowedAddress, type TargetPolicy } from "./address.ts";

export interface SendResult {
  /** null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the answer's body. */
  response: string | null;
  error: string | null;
}

const RESPONSE_KEEP = 1024;

/**
 * Connections are kept open between attempts to the same receiver (a new TCP and TLS handshake
 * per event cost more than the delivery itself); the address check runs whenever one is opened.
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }),
};
/** Read at most this much of an answer, then stop listening. */
const RESPONSE_READ_MAX = 64 * 1024;

/**
 * POSTs one webhook body: no redirects followed (a 3xx is an answer that is not a success), the
 * whole attempt bounded by `timeoutMs` and by `signal`, the target address checked on connection. Never throws.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: TargetPolicy & { timeoutMs: number; signal?: AbortSignal },
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, "durationMs">): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done({ statusCode: null, response: null, error: "invalid url" }));
    }
    const host = target.hostname.replace(/^\[|\]$/g, "");
    // An IP literal is connected to without a lookup: check it here.
    if (net.isIP(host) && !isAllowedAddress(host, opts)) return resolve(done({ statusCode: null, response: null, error: `${host} is not an allowed address` }));
    if (opts.httpsOnly && target.protocol !== "https:") return resolve(done({ statusCode: null, response: null, error: "url must use https" }));
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(target, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "inspection-service-webhooks/1", ...headers, "content-length": Buffer.byteLength(body) },
      lookup: guardedLookup(opts),
      // The job's signal too: a job stopped past its own timeout (or cancelled) ends its request.
      signal: opts.signal ? AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.signal]) : AbortSignal.timeout(opts.timeoutMs),
      agent: agents[target.protocol as "http:" | "https:"],
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () =>
        resolve(done({ statusCode: res.statusCode ?? null, response: Buffer.concat(chunks).subarray(0, RESPONSE_KEEP).toString("utf8"), error: null }));
      res.on("data", (c: Buffer) => {
        if (size < RESPONSE_KEEP) chunks.push(c);
        size += c.length;
        if (size > RESPONSE_READ_MAX) {
          res.destroy();
          finish();
        }
      });
      res.on("end", finish);
      res.on("error", finish);
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      const aborted = err.name === "AbortError" || err.name === "TimeoutError";
      const message =
        aborted && opts.signal?.aborted
          ? "no answer before the delivery job was stopped (its time limit)"
          : aborted
            ? `no answer within ${opts.timeoutMs} ms`
            : err.message;
      resolve(done({ statusCode: null, response: null, error: message }));
    });
    req.end(body);
  });
}
