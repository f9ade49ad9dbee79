/**
 * A webhook receiver as its own process (tests start it with startReceiver): it checks every
 * request with the standardwebhooks library, the way an integrator's receiver would, and
 * answers as told per path. Control (same port): POST /_control/<path> {secrets, answers, delayMs},
 * GET /_received. Prints "receiver listening <port>".
 */
import http from "node:http";
import { Webhook } from "standardwebhooks";

interface PathState {
  secrets: string[];
  /** Status codes to answer, in order; then 200. */
  answers: number[];
  delayMs: number;
}

interface Received {
  path: string;
  webhookId: string | null;
  timestamp: string | null;
  signatures: number;
  /** Per configured secret: did the standardwebhooks library verify the request with it? */
  verified: boolean[];
  body: unknown;
  answered: number;
  at: number;
}

const states = new Map<string, PathState>();
const received: Received[] = [];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = req.url ?? "/";
    if (url.startsWith("/_control/")) {
      states.set(url.slice("/_control".length), { secrets: [], answers: [], delayMs: 0, ...JSON.parse(raw) });
      res.writeHead(204).end();
      return;
    }
    if (url === "/_received") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
      return;
    }
    const state = states.get(url) ?? { secrets: [], answers: [], delayMs: 0 };
    const headers = {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    };
    const verified = state.secrets.map((s) => {
      try {
        new Webhook(s).verify(raw, headers);
        return true;
      } catch {
        return false;
      }
    });
    const answered = state.answers.shift() ?? 200;
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    setTimeout(() => {
      received.push({
        path: url,
        webhookId: headers["webhook-id"] || null,
        timestamp: headers["webhook-timestamp"] || null,
        signatures: headers["webhook-signature"].split(" ").filter(Boolean).length,
        verified,
        body,
        answered,
        at: Date.now(),
      });
      res.writeHead(answered, { "content-type": "text/plain" }).end(`answered ${answered} ${"x".repeat(2000)}`);
    }, state.delayMs);
  });
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const addr = server.address();
  console.log(`receiver listening ${typeof addr === "object" && addr ? addr.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
