import { readFile, writeFile } from "node:fs/promises";

/** Peak resident set size of a live process in MB (Linux VmHWM), or NaN elsewhere. */
export async function peakRssMb(pid: number | undefined): Promise<number> {
  if (!pid) return NaN;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Current resident set size in MB (VmRSS). */
export async function rssMb(pid: number | undefined): Promise<number> {
  if (!pid) return NaN;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Resets a process's peak RSS (VmHWM) to its current RSS, so a scenario measures its own
 * peak and not one left by an earlier scenario (Linux: `echo 5 > /proc/<pid>/clear_refs`,
 * allowed for our own children). Returns false where that is not possible.
 */
export async function resetPeakRss(pid: number | undefined): Promise<boolean> {
  if (!pid) return false;
  try {
    await writeFile(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
