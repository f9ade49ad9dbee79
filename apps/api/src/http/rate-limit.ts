import type { Request, RequestHandler, Response } from "express";
import { rateLimit, ipKeyGenerator } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import type { Principal } from "@insp/core";
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
    (command.toUpperCase() === "SCRIPT" && args[0]?.toUpperCase() === "LOAD"
      ? loadScript(deps.redis, args[1]!)
      : deps.redis.call(command, ...args)) as Promise<RedisReply>;

const COUNT_HERE = Symbol("count this request per address");

export interface AddressLimiter {
  /** First on the app: counts every request that carries no credential. */
  everyRequest: RequestHandler;
  /**
   * On a route that does not authenticate (login, the OAuth token, SCIM's discovery, an unknown
   * path): counts a request that carries a credential too, unless it was counted already, so a
   * junk Authorization header does not take a request out of every count.
   */
  thisRoute: RequestHandler;
}

/**
 * Requests counted per client address (RATE_LIMIT_ANONYMOUS_PER_MINUTE): those no principal
 * answers for. A request that carries a credential is counted by `principalLimits` once its
 * credential is known, per principal and per organization, never per address (callers behind one
 * NAT share an address) nor per token string (a new token starts nothing new); on a route that
 * does not authenticate it is counted here (`thisRoute`). Counted in Redis so every API replica
 * shares it; if Redis is down the limiter lets requests through (fail open) and /readyz reports
 * Redis as down.
 */
function addressLimiter(deps: Deps): AddressLimiter {
  type Marked = Request & { [COUNT_HERE]?: boolean; rateLimit?: unknown };
  const limiter = rateLimit({
    windowMs: deps.env.RATE_LIMIT_WINDOW_SECONDS * 1000,
    limit: deps.env.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    passOnStoreError: true,
    skip: (req) => !(req as Marked)[COUNT_HERE] && credentialOf(req.headers.authorization) !== null,
    store: new RedisStore({ prefix: `${deps.env.QUEUE_PREFIX}:rl:`, sendCommand: redisCommand(deps) }),
    keyGenerator: (req) => `ip:${ipKeyGenerator(req.ip ?? "unknown")}`,
    handler: (_req, res, _next, options) => {
      res.setHeader("RateLimit-Scope", "address");
      res.status(options.statusCode).json({
        error: "Rate limit exceeded: this address's requests without a credential (RATE_LIMIT_ANONYMOUS_PER_MINUTE); retry after the Retry-After period",
      });
    },
  });
  // The RateLimit headers of a counted request describe the address's limit: say so.
  const count: RequestHandler = (req, res, next) =>
    limiter(req, res, (err?: unknown) => {
      if (!err && (req as Marked).rateLimit) res.setHeader("RateLimit-Scope", "address");
      next(err);
    });
  return {
    everyRequest: count,
    thisRoute: (req, res, next) => {
      if ((req as Marked).rateLimit || (req as Marked)[COUNT_HERE]) return next();
      (req as Marked)[COUNT_HERE] = true;
      count(req, res, next);
    },
  };
}

/** One address limiter per app's dependencies (the app and the routes that do not authenticate share it). */
const addressLimiters = new WeakMap<Deps, AddressLimiter>();
export function addressLimiterFor(deps: Deps): AddressLimiter {
  let l = addressLimiters.get(deps);
  if (!l) addressLimiters.set(deps, (l = addressLimiter(deps)));
  return l;
}

interface Count {
  scope: "principal" | "organization";
  limit: number;
  hits: number;
  reset: Date | undefined;
}

const principalKey = (p: Principal) =>
  p.kind === "apiKey" ? `key:${p.apiKeyId}` : p.kind === "client" ? `client:${p.organizationId}:${p.clientId}` : `user:${p.userId}`;

/**
 * The limits of an authenticated request: RATE_LIMIT_PER_MINUTE per principal (an API key, an
 * OAuth client whatever token it presents, a user whatever session), and
 * RATE_LIMIT_ORG_PER_MINUTE for the whole organization, so many keys of one tenant cannot take the
 * whole service. Both are counted on every request; the RateLimit-Limit/Remaining/Reset headers
 * describe the one with the fewest requests left, `RateLimit-Scope` names it, and
 * `RateLimit-Policy` lists both. Past either: 429 with Retry-After, naming the one reached.
 * Answers whether the request may go on (it has been answered otherwise).
 */
export function principalLimits(deps: Deps): (req: Request, res: Response, principal: Principal) => Promise<boolean> {
  const windowMs = deps.env.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const store = new RedisStore({ prefix: `${deps.env.QUEUE_PREFIX}:rlp:`, sendCommand: redisCommand(deps) });
  store.init({ windowMs } as Parameters<RedisStore["init"]>[0]);
  const policy = `${deps.env.RATE_LIMIT_PER_MINUTE};w=${deps.env.RATE_LIMIT_WINDOW_SECONDS};name="principal", ${deps.env.RATE_LIMIT_ORG_PER_MINUTE};w=${deps.env.RATE_LIMIT_WINDOW_SECONDS};name="organization"`;
  return async (req, res, principal) => {
    let counts: Count[];
    try {
      // The organization counts only what its principals were allowed: one runaway key past its
      // own limit does not use up its siblings' allowance with the requests it is refused.
      const own = await store.increment(principalKey(principal));
      const ownCount: Count = { scope: "principal", limit: deps.env.RATE_LIMIT_PER_MINUTE, hits: own.totalHits, reset: own.resetTime };
      const org =
        ownCount.hits <= ownCount.limit ? await store.increment(`org:${principal.organizationId}`) : await store.get(`org:${principal.organizationId}`);
      counts = [ownCount, { scope: "organization", limit: deps.env.RATE_LIMIT_ORG_PER_MINUTE, hits: org?.totalHits ?? 0, reset: org?.resetTime }];
    } catch (err) {
      req.log.warn({ err }, "rate limit store unavailable: request let through");
      return true;
    }
    const binding = counts.reduce((a, b) => (b.limit - b.hits < a.limit - a.hits ? b : a));
    const resetSeconds = binding.reset ? Math.max(0, Math.ceil((binding.reset.getTime() - Date.now()) / 1000)) : deps.env.RATE_LIMIT_WINDOW_SECONDS;
    res.setHeader("RateLimit-Policy", policy);
    res.setHeader("RateLimit-Scope", binding.scope);
    res.setHeader("RateLimit-Limit", String(binding.limit));
    res.setHeader("RateLimit-Remaining", String(Math.max(0, binding.limit - binding.hits)));
    res.setHeader("RateLimit-Reset", String(resetSeconds));
    if (binding.hits <= binding.limit) return true;
    res.setHeader("Retry-After", String(Math.max(1, resetSeconds)));
    const which =
      binding.scope === "principal"
        ? `this credential's ${binding.limit} requests per ${deps.env.RATE_LIMIT_WINDOW_SECONDS} s (RATE_LIMIT_PER_MINUTE)`
        : `the organization's ${binding.limit} requests per ${deps.env.RATE_LIMIT_WINDOW_SECONDS} s across all its credentials (RATE_LIMIT_ORG_PER_MINUTE)`;
    res.status(429).json({ error: `Rate limit exceeded: ${which}; retry after the Retry-After period` });
    return false;
  };
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
