import type { Request, RequestHandler } from "express";
import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { credentialFingerprint } from "@insp/core";
import { loadScript } from "@insp/queue";
import type { Deps } from "../deps.ts";
import { credentialOf } from "./auth.ts";

/**
 * The stores' commands: the counting script runs where its key lives. SCRIPT LOAD goes to every
 * master of a cluster and answers the script's SHA1 even while Redis is down, so a limiter made
 * during an outage loads its script again (on NOSCRIPT) instead of failing open until a restart.
 */
const redisCommand =
  (deps: Deps) =>
  (command: string, ...args: string[]): Promise<RedisReply> =>
    (command.toUpperCase() === "SCRIPT" && args[0]?.toUpperCase() === "LOAD" ? loadScript(deps.redis, args[1]!) : deps.redis.call(command, ...args)) as Promise<RedisReply>;

/**
 * Per-credential limit, counted in Redis so every API replica shares it. The key is a
 * hash of the presented credential (never the secret itself); requests without one
 * are counted per client address. `RateLimit-Limit/Remaining/Reset` go on every
 * response and `Retry-After` on a 429 (IETF draft-6 headers). If Redis is down the
 * limiter lets requests through (fail open) and /readyz reports Redis as down.
 */
export function rateLimiter(deps: Deps): RequestHandler {
  return rateLimit({
    windowMs: deps.env.RATE_LIMIT_WINDOW_SECONDS * 1000,
    limit: deps.env.RATE_LIMIT_PER_MINUTE,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    passOnStoreError: true,
    store: new RedisStore({
      prefix: `${deps.env.QUEUE_PREFIX}:rl:`,
      sendCommand: redisCommand(deps),
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

/**
 * Failed authentication per client address: every 401 (unknown key, bad token, wrong
 * password, invalid_client) and every wrong currentPassword (a 400, marked by the login guard)
 * counts, successes do not. Without it a caller could send a
 * new random credential with each request and get a fresh bucket each time, and
 * password guessing on /api/auth/login would only be bounded by the per-credential
 * limit. Past AUTH_FAILURES_PER_MINUTE the address gets 429 with Retry-After for the
 * rest of the window.
 */
export function authFailureLimiter(deps: Deps): RequestHandler {
  const store = new RedisStore({
    prefix: `${deps.env.QUEUE_PREFIX}:rlfail:`,
    sendCommand: redisCommand(deps),
  });
  const keyOf = (req: Request) => ipKeyGenerator(req.ip ?? "unknown");
  const limiter = rateLimit({
    windowMs: deps.env.RATE_LIMIT_WINDOW_SECONDS * 1000,
    limit: deps.env.AUTH_FAILURES_PER_MINUTE,
    standardHeaders: false,
    legacyHeaders: false,
    passOnStoreError: true,
    requestPropertyName: "authFailureLimit",
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401 && !res.locals.failedPasswordCheck,
    store,
    keyGenerator: keyOf,
    handler: (req, res, _next, options) => {
      const reset = (req as { authFailureLimit?: { resetTime?: Date } }).authFailureLimit?.resetTime;
      res.setHeader("Retry-After", String(reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60));
      res.status(options.statusCode).json({ error: "Too many failed authentication attempts: retry after the Retry-After period" });
    },
  });
  // The library counts every request and takes back those that finish with another status than
  // 401; a request the client abandons before its answer never finishes, so it stayed counted as
  // a failed authentication: a client behind one address that cancels requests (a phone losing
  // its network, a load test ending) was locked out with 429s after 60 of them. Taken back here.
  return (req, res, next) => {
    res.once("close", () => {
      if (!res.writableFinished) store.decrement(keyOf(req)).catch(() => {});
    });
    limiter(req, res, next);
  };
}
