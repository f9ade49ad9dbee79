import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import net from "node:net";

const root = fileURLToPath(new URL("../../../", import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Listens on `port` (0: the kernel's pick) at 0.0.0.0 and closes again: the port it got, or null if taken. */
const tryPort = (port: number) =>
  new Promise<number | null>((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(null));
    srv.listen(port, "0.0.0.0", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : null));
    });
  });

/**
 * Ports the kernel never hands out by itself: below its ephemeral range (Linux, 32768 by default),
 * from 15000; one eighth of them for each of vitest's workers (VITEST_POOL_ID), so files running
 * side by side never draw the same. null where the range cannot be read or leaves too few.
 */
const quietPorts = (() => {
  let low: number;
  try {
    low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    return null;
  }
  if (!(low - 15_000 >= 8_000)) return null;
  const pool = Number(process.env.VITEST_POOL_ID) || 0;
  if (!pool) return { from: 15_000, to: low - 1 };
  const size = Math.floor((low - 15_000) / 8);
  const from = 15_000 + ((pool - 1) % 8) * size;
  return { from, to: from + size - 1 };
})();
const handedOut = new Set<number>();

/**
 * A port that is free now, for a process started a little later (a launcher's embedded servers, a
 * worker's HEALTH_PORT). Drawn at random below the ephemeral range, so the kernel cannot give it to
 * another listener on port 0 or to an outgoing connection meanwhile (a port from that range can be
 * taken so before the process given it listens: the launcher tests wait tens of seconds for
 * initdb); never the same twice in this process. Where that range is unknown, the kernel's pick.
 */
export async function freePort(): Promise<number> {
  for (let i = 0; quietPorts && i < 50; i++) {
    const candidate = quietPorts.from + Math.floor(Math.random() * (quietPorts.to - quietPorts.from + 1));
    if (handedOut.has(candidate) || (await tryPort(candidate)) === null) continue;
    handedOut.add(candidate);
    return candidate;
  }
  const port = await tryPort(0);
  if (port === null) throw new Error("no free port");
  return port;
}

export interface ProcessOptions {
  /** Extra Node flags before the script (e.g. --cpu-prof, which NODE_OPTIONS does not accept). */
  nodeArgs?: string[];
  /** Keep only this many characters of output (long benchmark runs); default: all of it. */
  keepOutput?: number;
  /** Open an IPC channel to the process (the API reports the port it listens on through it). */
  ipc?: boolean;
}

/**
 * Node flags that run `script`: a TypeScript source through tsx, with @insp/* packages resolved to
 * their sources too (the "source" export condition), as in development; a compiled .js file with
 * plain Node and no loader, @insp/* resolved to their dist/, as in production. Node versions that
 * strip TypeScript types by themselves (22.18 and later) are told not to, so a .ts file reached
 * from compiled output fails here as it would on a Node without that feature.
 */
export const runFlags = (script: string): string[] => {
  if (script.endsWith(".ts")) return ["--conditions=source", "--import", "tsx"];
  return process.allowedNodeEnvironmentFlags.has("--experimental-strip-types") ? ["--no-experimental-strip-types"] : [];
};

/** Runs an app's entry point as a real Node process, as in production (see runFlags). */
export function startProcess(script: string, env: Record<string, string>, opts: ProcessOptions = {}): RunningProcess {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...runFlags(script), script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", LOG_LEVEL: "warn", MIGRATE_ON_START: "false", ...env },
    stdio: opts.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (d: Buffer) => {
    out += d.toString();
    if (opts.keepOutput !== undefined && out.length > opts.keepOutput) out = out.slice(-opts.keepOutput);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  // After the exit, what it printed last may still be in the pipes: wait for them to close, at most
  // 2 s (children it started may hold them open), so output() is whole once `exited` resolves.
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      child.once("close", () => resolve(code));
      setTimeout(() => resolve(code), 2_000).unref();
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}

async function waitFor(what: string, proc: RunningProcess, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited with ${proc.child.exitCode}:\n${proc.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output()}`);
}

export interface ApiProcess extends RunningProcess {
  baseUrl: string;
}

/**
 * Starts the API on env.PORT (default: PORT=0, any port the system gives it) and waits until it
 * reports, over an IPC channel, the port it listens on (sent once it listens). The port comes from
 * the process itself: a port picked beforehand may be taken meanwhile by another test file's API,
 * which would then answer this file's requests (every key a 401).
 * `script`: the compiled apps/api/dist/main.js instead of the sources.
 */
export async function startApi(env: Record<string, string>, script = "apps/api/src/main.ts"): Promise<ApiProcess> {
  const proc = startProcess(script, { PORT: "0", HOST: "127.0.0.1", ...env }, { ipc: true });
  let timer: NodeJS.Timeout | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`API not listening after 30000 ms:\n${proc.output()}`)), 30_000);
    proc.child.on("message", (m: { listening?: unknown }) => {
      if (typeof m?.listening === "number") resolve(m.listening);
    });
    void proc.exited.then((code) => reject(new Error(`API exited with ${code}:\n${proc.output()}`)));
  }).finally(() => clearTimeout(timer));
  return { ...proc, baseUrl: `http://127.0.0.1:${port}` };
}

/** Starts a worker process and waits for its "worker ready" log line (`script`: as for startApi). */
export async function startWorker(env: Record<string, string>, script = "apps/worker/src/main.ts"): Promise<RunningProcess> {
  const proc = startProcess(script, { LOG_LEVEL: "info", ...env });
  await waitFor("worker", proc, async () => proc.output().includes("worker ready"), 30_000);
  return proc;
}
