import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RunningProcess } from "@insp/testing/processes";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * An app entry point as a real Node process through tsx, like @insp/testing's startProcess,
 * with extra Node flags (e.g. --cpu-prof, which NODE_OPTIONS does not accept).
 */
export function startNode(script: string, env: Record<string, string>, nodeArgs: string[] = []): RunningProcess {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", MIGRATE_ON_START: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  // Keep the tail only: a long run must not grow the bench's memory.
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-64_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}
