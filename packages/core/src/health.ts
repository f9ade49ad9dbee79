import type { RedisClient } from "@insp/queue";
import type { DbHandle } from "@insp/db";

export interface Readiness {
  status: "ready" | "unavailable";
  postgres: "up" | "down";
  redis: "up" | "down";
}

const within = <T>(p: PromiseLike<T>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([Promise.resolve(p), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), ms)))]).finally(() =>
    clearTimeout(timer),
  );
};

/** Postgres and Redis each answer within `timeoutMs`: what /readyz reports, for the API and every worker. */
export async function checkReadiness(db: DbHandle, redis: RedisClient, timeoutMs = 2000): Promise<Readiness> {
  const [pg, r] = await Promise.allSettled([within(db.sql`select 1`, timeoutMs), within(redis.ping(), timeoutMs)]);
  const up = (s: PromiseSettledResult<unknown>) => (s.status === "fulfilled" ? "up" : "down");
  return { status: pg.status === "fulfilled" && r.status === "fulfilled" ? "ready" : "unavailable", postgres: up(pg), redis: up(r) };
}
