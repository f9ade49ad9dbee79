import type { Redis } from "ioredis";
import type { Db, DbHandle } from "@insp/db";
import type { Logger, TokenService } from "@insp/core";
import type { JobWaiter, Queues } from "@insp/queue";
import type { ApiEnv } from "./env.ts";

/** Everything a route needs, built once in main.ts and passed down (no globals). */
export interface Deps {
  env: ApiEnv;
  db: Db;
  dbHandle: DbHandle;
  redis: Redis;
  queues: Queues;
  waiter: JobWaiter;
  tokens: TokenService;
  logger: Logger;
}
