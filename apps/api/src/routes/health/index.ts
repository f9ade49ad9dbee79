import type { Router } from "express";
import { healthzOp, readyzOp } from "@insp/contracts";
import { checkReadiness } from "@insp/core";
import type { Deps } from "../../deps.ts";
import { mount, route } from "../../http/route.ts";

/** GET /healthz and /readyz (contracts/operations.ts): no credential, no body. */
export function healthRoutes(deps: Deps): Router {
  return mount([
    route(deps, healthzOp, async (_input, _req, res) => {
      res.json({ status: "ok" });
    }),
    route(deps, readyzOp, async (_input, _req, res) => {
      const body = await checkReadiness(deps.dbHandle, deps.redis);
      res.status(body.status === "ready" ? 200 : 503).json(body);
    }),
  ]);
}
