import { Router } from "express";
import { registry, z } from "@insp/contracts";
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

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), ms))]);

export function healthRoutes(deps: Deps): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const [pg, redis] = await Promise.allSettled([within(deps.dbHandle.sql`select 1`, 2000), within(deps.redis.ping(), 2000)]);
    const body = { status: pg.status === "fulfilled" && redis.status === "fulfilled" ? "ready" : "unavailable", postgres: pg.status === "fulfilled" ? "up" : "down", redis: redis.status === "fulfilled" ? "up" : "down" };
    res.status(body.status === "ready" ? 200 : 503).json(body);
  });
  return router;
}
