import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { ServerSetupError } from "./errors.ts";
import { isAlive, readPid } from "./pids.ts";

/**
 * One process at a time owns a data folder's embedded servers: `npm start`, or an admin command
 * that started them for itself. The lock is a file holding the owner's pid, created exclusively;
 * a lock whose process is gone (a launcher killed with SIGKILL) is taken over, so a crash never
 * blocks the next start.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static lockFile(dataDir: string) {
    return path.join(dataDir, "owner.pid");
  }

  /** The pid of the live process holding the folder's lock, or null. */
  static holder(dataDir: string): number | null {
    const pid = readPid(DataDirLock.lockFile(dataDir));
    return pid !== null && pid !== process.pid && isAlive(pid) ? pid : null;
  }

  static acquire(dataDir: string, what: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const file = DataDirLock.lockFile(dataDir);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, "wx", 0o644);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new DataDirLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const holder = DataDirLock.holder(dataDir);
        if (holder !== null)
          throw new ServerSetupError(`${what}: the embedded servers in ${dataDir} are in use by process ${holder} (another npm start?); stop it first`);
        rmSync(file, { force: true }); // left by a process that is gone
      }
    }
    throw new ServerSetupError(`${what}: could not lock ${file}`);
  }

  release(): void {
    if (readPid(this.file) === process.pid) rmSync(this.file, { force: true });
  }
}
