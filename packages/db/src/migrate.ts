import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb } from "./client.ts";
import { pgConnect } from "./connect.ts";

/** Committed migrations, resolved from this file rather than the working directory (any app may start from anywhere). */
const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** Creates the database named in `url` when it does not exist (needs a connection to `postgres`). */
async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!name) throw new Error("DATABASE_URL names no database");
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const admin = pgConnect(adminUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length > 0) return false;
    try {
      await admin.unsafe(`create database "${name.replaceAll('"', '""')}"`);
    } catch (err) {
      // Another replica created it at the same moment.
      if ((err as { code?: string }).code !== "42P04") throw err;
    }
    return true;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

// Any fixed number; all replicas agree on it so only one migrates at a time.
const MIGRATION_LOCK = 7_311_204_913;

/**
 * Creates the database if needed and applies pending migrations. Drizzle's migrate()
 * has no guard against two replicas migrating at once, so it runs under a
 * session advisory lock: replicas that start together migrate one after the other.
 */
export async function runMigrations(url: string): Promise<void> {
  await ensureDatabase(url);
  const { db, sql, close } = createDb(url, { max: 1, applicationName: "inspection-service-migrate" });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await migrate(db, { migrationsFolder });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    await close();
  }
}
