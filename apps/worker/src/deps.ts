import type { Db, DbHandle } from "@insp/db";
import type { Logger } from "@insp/core";
import type { Queues } from "@insp/queue";
import type { WorkerEnv } from "./env.ts";

export interface WorkerDeps {
  env: WorkerEnv;
  db: Db;
  dbHandle: DbHandle;
  queues: Queues;
  logger: Logger;
}
