import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { ServerSetupError } from "./errors.ts";
import { DataDirLock } from "./lock.ts";
import { isRunning, readPid, terminate } from "./pids.ts";
import { outsideClusters } from "./placement.ts";

/** A Postgres still running on `clusterDir` (its launcher was killed) is stopped before the folder goes. */
async function stopLeftPostgres(clusterDir: string): Promise<void> {
  const postmaster = readPid(path.join(clusterDir, "postmaster.pid"));
  if (postmaster !== null && isRunning(postmaster, "postgres")) await terminate(postmaster, 30_000, "SIGINT");
}

/** The folders reset-local wipes for `dataDir` that exist: it, and the cluster placed outside it. */
export const localDataFolders = (dataDir: string) => [dataDir, ...outsideClusters(path.join(dataDir, "postgres"))].filter((d) => existsSync(d));

/**
 * Wipes the embedded servers' folder (`npm run admin -- reset-local`), and the Postgres cluster
 * kept outside it for the user `postgres` when run as root in a folder that user cannot enter
 * (placement.ts), only that cluster: refused while a process runs them; servers left running by
 * a launcher that was killed are stopped first. Answers the folders wiped ([] when none existed).
 */
export async function resetLocalData(dataDir: string): Promise<string[]> {
  const wiped = localDataFolders(dataDir);
  if (wiped.length === 0) return [];
  const holder = existsSync(dataDir) ? DataDirLock.holder(dataDir) : null;
  if (holder !== null)
    throw new ServerSetupError(`reset-local: the embedded servers in ${dataDir} are in use by process ${holder}; stop it (Ctrl-C in its terminal) first`);
  for (const cluster of [path.join(dataDir, "postgres"), ...wiped.filter((d) => d !== dataDir)]) await stopLeftPostgres(cluster);
  const redis = readPid(path.join(dataDir, "redis", "redis.pid"));
  if (redis !== null && isRunning(redis, "redis-server")) await terminate(redis, 30_000);
  for (const dir of wiped) rmSync(dir, { recursive: true, force: true });
  return wiped;
}
