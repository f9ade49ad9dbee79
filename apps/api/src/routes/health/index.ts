import { Router } from "express";
import { checkReadiness } from "@insp/core";
import type { Deps } from "../../deps.ts";

/** GET /healthz and /readyz (contracts/operations.ts). */
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
