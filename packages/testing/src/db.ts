import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { createDb, type DbHandle } from "@insp/db";

export const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};

export interface TestDatabase extends DbHandle {
  url: string;
  name: string;
}

/** A database of this test file's own, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = inject("pgServerUrl");
  const name = `insp_t_${inject("runId")}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(otherDatabaseUrl(), { max: 1, onnotice: () => {} });
  try {
    // The template may be briefly busy with a sibling file's clone: retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`create database "${name}" template "${inject("templateDb")}"`);
        break;
      } catch (err) {
        if (attempt > 20 || (err as { code?: string }).code !== "55006") throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDb(server, name);
  return { ...createDb(url, { max: 5, applicationName: "tests" }), url, name };
}

/** The server's `postgres` database: another database than any test file's, on the same server. */
export const otherDatabaseUrl = () => withDb(inject("pgServerUrl"), "postgres");

export const redisUrl = () => inject("redisUrl");
export const queuePrefix = () => `t${randomBytes(5).toString("hex")}`;

/**
 * Opens a transaction on `url` that holds a transaction id (a long-running writer, as far as
 * snapshots go) until `end()` commits it (a second `end()` does nothing).
 */
export async function holdTransaction(url: string): Promise<{ end: () => Promise<void> }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const reserved = await sql.reserve();
  await reserved`begin`;
  await reserved`select pg_current_xact_id()`;
  let ended: Promise<void> | undefined;
  const end = async () => {
    await reserved`commit`;
    reserved.release();
    await sql.end();
  };
  return { end: () => (ended ??= end()) };
}
