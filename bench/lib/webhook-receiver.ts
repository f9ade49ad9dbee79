import http from "node:http";
import { Webhook } from "standardwebhooks";

/**
 * The bench's webhook receiver, in the bench process: verifies every request with the
 * standardwebhooks library, as an integrator's receiver would, records each event's id, its
 * timestamp (the change's time) and when it arrived, and answers 204.
 */
export interface BenchReceiver {
  url: string;
  setSecret(secret: string): void;
  arrivals: { id: string; changedAt: number; at: number }[];
  /** Requests whose signature did not verify. */
  rejected(): number;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  let wh: Webhook | null = null;
  let rejected = 0;
  const arrivals: BenchReceiver["arrivals"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const body = wh!.verify(Buffer.concat(chunks), req.headers as Record<string, string>) as { id: string; timestamp: string };
        arrivals.push({ id: body.id, changedAt: Date.parse(body.timestamp), at: Date.now() });
        res.writeHead(204).end();
      } catch {
        rejected++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    setSecret: (s) => (wh = new Webhook(s)),
    arrivals,
    rejected: () => rejected,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
