import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { ServerSetupError } from "./errors.ts";
import { DataDirLock } from "./lock.ts";
import { isRunning, readPid, terminate } from "./pids.ts";

/**
 * Wipes the embedded servers' folder (`npm run admin -- reset-local`): refused while a process
 * runs them; servers left running by a launcher that was killed are stopped first.
 */
export async function resetLocalData(dataDir: string): Promise<"wiped" | "absent"> {
  if (!existsSync(dataDir)) return "absent";
  const holder = DataDirLock.holder(dataDir);
  if (holder !== null) throw new ServerSetupError(`reset-local: the embedded servers in ${dataDir} are in use by process ${holder}; stop it (Ctrl-C in its terminal) first`);
  const postmaster = readPid(path.join(dataDir, "postgres", "postmaster.pid"));
  if (postmaster !== null && isRunning(postmaster, "postgres")) await terminate(postmaster, 30_000, "SIGINT");
  const redis = readPid(path.join(dataDir, "redis", "redis.pid"));
  if (redis !== null && isRunning(redis, "redis-server")) await terminate(redis, 30_000);
  rmSync(dataDir, { recursive: true, force: true });
  return "wiped";
}
