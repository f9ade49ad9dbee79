import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** A transaction handle; query functions take `Db | Tx` so they run inside or outside one. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function createDb(url: string, opts: { max?: number; applicationName?: string } = {}): DbHandle {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connection: { application_name: opts.applicationName ?? "inspection-service" },
    // Idle connections are closed so a scaled-down replica gives its connections back.
    idle_timeout: 30,
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/** SQLSTATE of a driver error, which Drizzle wraps in `cause` (PITFALLS.md). */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Unique violation, deadlock, serialization failure, connection trouble: worth retrying or mapping. */
export const PG = {
  uniqueViolation: "23505",
  foreignKeyViolation: "23503",
  deadlock: "40P01",
  serializationFailure: "40001",
} as const;
