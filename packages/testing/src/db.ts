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
  const admin = postgres(withDb(server, "postgres"), { max: 1, onnotice: () => {} });
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

export const redisUrl = () => inject("redisUrl");
export const queuePrefix = () => `t${randomBytes(5).toString("hex")}`;
