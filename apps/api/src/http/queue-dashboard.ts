import { createHash, timingSafeEqual } from "node:crypto";
import { Router, type Express, type RequestHandler } from "express";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { verifyPassword } from "@insp/core";
import { JOB_NAMES } from "@insp/queue";
import type { Deps } from "../deps.ts";

export const DASHBOARD_PATH = "/admin/queues";

const sha256 = (s: string) => createHash("sha256").update(s).digest();
const sameText = (a: string, b: string) => timingSafeEqual(sha256(a), sha256(b));

/** A verified `Authorization` header is trusted this long: the UI polls every few seconds, and argon2 is slow on purpose. */
const VERIFIED_FOR_MS = 60_000;

/**
 * HTTP Basic against ADMIN_DASHBOARD_USER and ADMIN_DASHBOARD_PASSWORD_HASH (argon2id). The
 * dashboard spans every organisation, so no tenant credential (API key, user, OAuth client)
 * opens it. A missing or wrong credential is a 401 with `WWW-Authenticate: Basic` (a browser
 * asks for it) and nothing of the dashboard; like every 401 it counts toward the per-address
 * failed-authentication limit (AUTH_FAILURES_PER_MINUTE).
 */
function operatorBasicAuth(user: string, passwordHash: string): RequestHandler {
  const verified = new Map<string, number>();
  return async (req, res, next) => {
    try {
      const header = req.headers.authorization ?? "";
      const key = sha256(header).toString("hex");
      if ((verified.get(key) ?? 0) > Date.now()) return next();
      const m = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
      const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
      const colon = decoded.indexOf(":");
      const okUser = colon > 0 && sameText(decoded.slice(0, colon), user);
      // The password is checked even for a wrong user name, so both cost the same time.
      const okPassword = colon > 0 && (await verifyPassword(passwordHash, decoded.slice(colon + 1)));
      if (okUser && okPassword) {
        if (verified.size > 100) verified.clear();
        verified.set(key, Date.now() + VERIFIED_FOR_MS);
        return next();
      }
      res.status(401).set("WWW-Authenticate", 'Basic realm="queues", charset="UTF-8"').json({ error: "Operator credentials required for the queue dashboard" });
    } catch (err) {
      next(err);
    }
  };
}

/**
 * bull-board's own API can also add jobs, rewrite a job's data and obliterate a queue. Job
 * payloads must come from the service (validated, written with their rows in Postgres), and a
 * queue's history is evidence: those stay closed. Inspecting, retrying, promoting, cleaning,
 * pausing and resuming stay open.
 */
const refuse: RequestHandler = (_req, res) => {
  res.status(403).json({ error: "This dashboard action is disabled: jobs are made by the service, and queues are not obliterated from here" });
};
// Express routes, not string tests: they match the way the board's own routes do (any letter
// case, a trailing slash), so no spelling of a closed action reaches the board.
const closedActions = Router()
  .post("/api/queues/:queue/add", refuse)
  .patch("/api/queues/:queue/:job/update-data", refuse)
  .put("/api/queues/:queue/obliterate", refuse);

/**
 * The queue dashboard (bull-board) at /admin/queues over the four queues of this QUEUE_PREFIX,
 * with their jobs: inspect, retry, clean. Mounted only when both operator settings are given;
 * otherwise the path is an ordinary 404.
 */
export function queueDashboardRoutes(deps: Deps): Router {
  const router = Router();
  const { ADMIN_DASHBOARD_USER: user, ADMIN_DASHBOARD_PASSWORD_HASH: hash } = deps.env;
  if (!user || !hash) return router;
  const serverAdapter = new ExpressAdapter().setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: JOB_NAMES.map((name) => new BullMQAdapter(deps.queues.queue(name), { description: `prefix ${deps.env.QUEUE_PREFIX}` })),
    serverAdapter,
    options: { uiConfig: { boardTitle: "Inspection queues" } },
  });
  const board = serverAdapter.getRouter() as Express;
  board.disable("x-powered-by");
  router.use(DASHBOARD_PATH, operatorBasicAuth(user, hash), closedActions, board);
  return router;
}
