import type { Db, DbHandle } from "@insp/db";
import type { Logger, Mailer } from "@insp/core";
import type { Queues } from "@insp/queue";
import type { WorkerEnv } from "./env.ts";

export interface WorkerDeps {
  env: WorkerEnv;
  db: Db;
  dbHandle: DbHandle;
  queues: Queues;
  logger: Logger;
  /** SMTP (or .eml files in development); closed at shutdown after the workers. */
  mailer: Mailer;
}
