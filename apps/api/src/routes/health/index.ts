import { Router } from "express";
import { registry, z } from "@insp/contracts";
import { checkReadiness } from "@insp/core";
import type { Deps } from "../../deps.ts";

registry.registerPath({ method: "get", path: "/healthz", summary: "Process is alive; extension", responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } } } } });
registry.registerPath({
  method: "get",
  path: "/readyz",
  summary: "Postgres and Redis reachable; extension",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: z.object({ status: z.string(), postgres: z.string(), redis: z.string() }) } } },
    503: { description: "a dependency is down", content: { "application/json": { schema: z.object({ status: z.string(), postgres: z.string(), redis: z.string() }) } } },
  },
});

export function healthRoutes(deps: Deps): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const body = await checkReadiness(deps.dbHandle, deps.redis);
    res.status(body.status === "ready" ? 200 : 503).json(body);
  });
  return router;
}
