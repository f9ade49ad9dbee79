export * from "./contract.ts";
export * from "./connection.ts";
export * from "./queues.ts";
export * from "./jobs.ts";
export * from "./requeue.ts";
export * from "./epoch.ts";
export * from "./waiter.ts";
export * from "./countdown.ts";
export { UnrecoverableError, Worker, type Job, type Processor } from "bullmq";
