import { addressOf, showAddress } from "@insp/local-servers";
import { createRedis } from "@insp/queue";
import type { AdminEnv } from "./env.ts";

/**
 * One line for a database that answers but cannot be used (wrong password, a user without the
 * right to create the database), naming the setting; never the password or a stack trace.
 */
export function databaseProblem(url: string, err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = e?.cause?.message ? e.cause : e;
  const reason = (inner?.message ?? String(err)).split("\n")[0];
  return `DATABASE_URL: the server at ${showAddress(addressOf(url))} could not be used: ${reason}${inner?.code ? ` (${inner.code})` : ""}`;
}

/** null when Redis answers PING with these settings; else one line naming the setting. */
export async function checkRedis(env: AdminEnv): Promise<string | null> {
  const redis = createRedis(env, "producer");
  redis.on("error", () => {});
  try {
    await Promise.race([redis.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error("no answer within 10 s")), 10_000).unref())]);
    return null;
  } catch (err) {
    const setting = env.REDIS_CLUSTER_NODES?.length ? "REDIS_CLUSTER_NODES" : "REDIS_URL";
    const where = env.REDIS_CLUSTER_NODES?.length ? env.REDIS_CLUSTER_NODES.join(",") : showAddress(addressOf(env.REDIS_URL));
    return `${setting}: the server at ${where} could not be used: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`;
  } finally {
    redis.disconnect();
  }
}
