import { startProcess, type RunningProcess } from "./processes.ts";

export interface ReceivedWebhook {
  path: string;
  webhookId: string | null;
  timestamp: string | null;
  signatures: number;
  verified: boolean[];
  body: any;
  answered: number;
  at: number;
}

export interface Receiver extends RunningProcess {
  baseUrl: string;
  /** How the receiver answers requests to `path`, and the secrets it verifies them with. */
  configure(path: string, s: { secrets: string[]; answers?: number[]; delayMs?: number }): Promise<void>;
  received(path?: string): Promise<ReceivedWebhook[]>;
}

/** Starts the webhook receiver process (webhook-receiver-main.ts) on a free port. */
export async function startReceiver(): Promise<Receiver> {
  const proc = startProcess("packages/testing/src/webhook-receiver-main.ts", {});
  const deadline = Date.now() + 20_000;
  let port = 0;
  while (!port) {
    const m = /receiver listening (\d+)/.exec(proc.output());
    if (m) port = Number(m[1]);
    else if (Date.now() > deadline || proc.child.exitCode !== null) throw new Error(`receiver did not start:\n${proc.output()}`);
    else await new Promise((r) => setTimeout(r, 50));
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...proc,
    baseUrl,
    async configure(path, s) {
      const res = await fetch(`${baseUrl}/_control${path}`, { method: "POST", body: JSON.stringify(s) });
      if (res.status !== 204) throw new Error(`receiver control answered ${res.status}`);
    },
    async received(path) {
      const all = (await (await fetch(`${baseUrl}/_received`)).json()) as ReceivedWebhook[];
      return path ? all.filter((r) => r.path === path) : all;
    },
  };
}
