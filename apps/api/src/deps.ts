import type { RedisClient } from "@insp/queue";
import type { Db, DbHandle } from "@insp/db";
import type { Logger, MediaStore, TokenService } from "@insp/core";
import type { JobWaiter, Queues } from "@insp/queue";
import type { HttpDuration, Registry } from "@insp/observability";
import type { ApiEnv } from "./env.ts";

/** Everything a route needs, built once in main.ts and passed down (no globals). */
export interface Deps {
  env: ApiEnv;
  db: Db;
  dbHandle: DbHandle;
  redis: RedisClient;
  queues: Queues;
  waiter: JobWaiter;
  tokens: TokenService;
  logger: Logger;
  /** Where image bytes live (MEDIA_STORE). */
  media: MediaStore;
  /** This process's metrics (docs/operations.md, Metrics, dashboards and tracing). */
  metrics: { registry: Registry; httpDuration: HttpDuration };
}
