import type { Logger } from "./logger.ts";

/**
 * Last-resort handlers of the API and worker processes. A promise rejected with nobody
 * listening (e.g. a driver's internal query after its connection dropped) is logged and the
 * process goes on: the work it belonged to has its own error path and retry. An exception
 * thrown from a callback leaves the process in a state nobody can reason about: it is logged
 * and the process exits with 70 (EX_SOFTWARE), for its supervisor (`npm start`, Docker's
 * restart policy, Kubernetes) to start a fresh one. Jobs it held come back to other workers
 * through BullMQ's stalled-job check; nothing accepted is lost.
 */
export function installProcessGuards(logger: Logger): void {
  process.on("unhandledRejection", (reason) => {
    logger.error({ err: reason }, "unhandled promise rejection; the process goes on");
  });
  process.on("uncaughtException", (err, origin) => {
    logger.fatal({ err, origin }, "uncaught exception; exiting so that a fresh process takes over");
    process.exit(70);
  });
}
