import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Whether a process with this pid exists (ours or another user's). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The command line of a process: /proc on Linux, `ps` elsewhere; "" when it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    const r = spawnSync("ps", ["-p", String(pid), "-o", "command="], { encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : "";
  }
}

/** A live process whose command line contains `name` (a pid file's pid may have been reused). */
export const isRunning = (pid: number, name: string) => isAlive(pid) && commandOf(pid).includes(name);

/** The first line of a pid file as a number, or null. */
export function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").split("\n")[0]!.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Resolves when the process has exited, or false after `timeoutMs`. */
async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** SIGTERM (or `signal`), then SIGKILL if it has not exited within `graceMs`. */
export async function terminate(pid: number, graceMs: number, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  if (await waitForExit(pid, graceMs)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return;
  }
  await waitForExit(pid, 5_000);
}
