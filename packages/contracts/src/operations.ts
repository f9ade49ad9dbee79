import { registry, z } from "./openapi.ts";
import { defineOperation } from "./operation.ts";

/** Liveness and readiness (extension): what load balancers, compose and orchestrators probe. */

export const Readiness = registry.register(
  "Readiness",
  z.object({ status: z.enum(["ready", "unavailable"]), postgres: z.string().openapi({ example: "up" }), redis: z.string().openapi({ example: "up" }) }),
);

export const healthzOp = defineOperation({
  method: "get",
  path: "/healthz",
  auth: "none",
  summary: "The process is alive; extension",
  description: "Answers as long as the process runs; it checks nothing else, so a restart policy never kills a process for a dependency's outage.",
  responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } },
});
export const readyzOp = defineOperation({
  method: "get",
  path: "/readyz",
  auth: "none",
  summary: "Postgres and Redis reachable; extension",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: Readiness } } },
    503: { description: "a dependency is down", content: { "application/json": { schema: Readiness } } },
  },
});
