import type { RequestHandler } from "express";
import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { credentialFingerprint } from "@insp/core";
import type { Deps } from "../deps.ts";
import { credentialOf } from "./auth.ts";

/**
 * Per-credential limit, counted in Redis so every API replica shares it. The key is a
 * hash of the presented credential (never the secret itself); requests without one
 * are counted per client address. `RateLimit-Limit/Remaining/Reset` go on every
 * response and `Retry-After` on a 429 (IETF draft-6 headers). If Redis is down the
 * limiter lets requests through (fail open) and /readyz reports Redis as down.
 */
export function rateLimiter(deps: Deps): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: deps.env.RATE_LIMIT_PER_MINUTE,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    passOnStoreError: true,
    store: new RedisStore({
      prefix: `${deps.env.QUEUE_PREFIX}:rl:`,
      sendCommand: (command: string, ...args: string[]) => deps.redis.call(command, ...args) as Promise<RedisReply>,
    }),
    keyGenerator: (req) => {
      const cred = credentialOf(req.headers.authorization);
      return cred ? `c:${credentialFingerprint(cred.value)}` : `ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
    },
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ error: "Rate limit exceeded: retry after the Retry-After period" });
    },
  });
}
