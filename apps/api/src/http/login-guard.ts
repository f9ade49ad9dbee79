import type { Request, Response } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { AppError, hashSecret, type PasswordGuard } from "@insp/core";
import type { RedisClient } from "@insp/queue";
import type { Deps } from "../deps.ts";

/**
 * Password guessing bounded per account, beside the per-address AUTH_FAILURES_PER_MINUTE: an
 * attacker with many addresses (a botnet, or forged ones behind a proxy trusted too far) gets
 * LOGIN_FAILURES_BEFORE_BACKOFF wrong passwords, then one per back-off, which starts at
 * LOGIN_BACKOFF_FIRST_SECONDS and doubles with each further one up to LOGIN_BACKOFF_MAX_SECONDS.
 * The account is the lower-cased e-mail, counted the same whether it exists or not, so the
 * counting tells nothing about which e-mails exist. The state lives in Redis (every API replica
 * shares it) under hashed keys (keyed with SECRET_PEPPER when set): no e-mail, address or
 * password is stored. Why a back-off and not a lock, and the trusted addresses that keep an
 * attacker from locking a user out:
 * docs/authentication.md, Password guessing.
 */

/** An address that signed in to an account stays trusted by it this long. */
const TRUSTED_FOR_MS = 30 * 86_400_000;
/** Trusted addresses kept per account, the most recent: bounds the set an attacker with the password could fill. */
const MAX_TRUSTED = 20;

/**
 * KEYS: the account's state (hash: n failed checks, until: end of its back-off, ms) and its
 * trusted addresses (sorted set: address -> last sign-in, ms). ARGV: address, threshold, first
 * wait, cap, trust period (ms). Answers {verdict, wait ms}: 0 refused (in back-off), 1 check
 * without counting (a trusted address during the back-off), 2 counted. The check is counted
 * before it runs and taken back by a success, so that many guesses sent at once cannot all pass
 * before the first failure is recorded. Redis's clock, not each replica's, says what "now" is.
 */
const BEGIN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untilMs > now then
  local seen = redis.call('ZSCORE', KEYS[2], ARGV[1])
  if seen and tonumber(seen) > now - tonumber(ARGV[5]) then return {1, 0} end
  return {0, untilMs - now}
end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local threshold = tonumber(ARGV[2])
local cap = tonumber(ARGV[4])
if n >= threshold then
  local wait = math.floor(math.min(cap, tonumber(ARGV[3]) * 2 ^ math.min(n - threshold, 40)))
  redis.call('HSET', KEYS[1], 'until', now + wait)
  redis.call('PEXPIRE', KEYS[1], wait + cap)
else
  redis.call('PEXPIRE', KEYS[1], cap)
end
return {2, 0}`;

/** A right password: the count starts again, and the address is trusted by the account. ARGV: address, trust period, how many to keep. */
const SUCCEED = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;

const REFUSED = 0;

type WithScripts = RedisClient & {
  insploginbegin(
    state: string,
    trusted: string,
    address: string,
    threshold: number,
    firstWaitMs: number,
    capMs: number,
    trustMs: number,
  ): Promise<[number, number]>;
  insploginok(state: string, trusted: string, address: string, trustMs: number, keep: number): Promise<number>;
};

export class LoginGuard {
  private readonly redis: WithScripts;

  constructor(private readonly deps: Pick<Deps, "redis" | "env" | "logger">) {
    this.redis = deps.redis as WithScripts;
    // ioredis sends each script by its SHA1 and loads it on a node that does not know it yet.
    if (typeof this.redis.insploginbegin !== "function") this.redis.defineCommand("insploginbegin", { numberOfKeys: 2, lua: BEGIN });
    if (typeof this.redis.insploginok !== "function") this.redis.defineCommand("insploginok", { numberOfKeys: 2, lua: SUCCEED });
  }

  /** Core's PasswordGuard for one request: its client address, and the 429 it answers during a back-off. */
  forRequest(req: Request, res: Response): PasswordGuard {
    return async (email, check) => {
      const { state, trusted } = this.keys(email);
      const address = this.hash(ipKeyGenerator(req.ip ?? "unknown"));
      const [verdict, waitMs] = await this.begin(state, trusted, address);
      if (verdict === REFUSED) {
        res.setHeader("Retry-After", String(Math.max(1, Math.ceil(waitMs / 1000))));
        throw new AppError("too_many", "Too many failed sign-ins for this account: retry after the Retry-After period");
      }
      const ok = await check();
      if (ok) await this.succeed(state, trusted, address);
      // A wrong currentPassword is a 400, not a 401: the per-address limit counts it by this mark.
      else res.locals.failedPasswordCheck = true;
      return ok;
    };
  }

  /**
   * Keyed with SECRET_PEPPER when there is one, so that the keys cannot be matched against a
   * list of e-mails. One hash tag per account: both of its keys are in one Redis Cluster slot.
   */
  private keys(email: string) {
    const account = this.hash(email.trim().toLowerCase());
    const base = `${this.deps.env.QUEUE_PREFIX}:login:{${account}}`;
    return { state: base, trusted: `${base}:trusted` };
  }

  private hash(value: string): string {
    return hashSecret(value, this.deps.env.SECRET_PEPPER).slice(0, 32);
  }

  /** Redis unreachable: the check runs uncounted (fail open, as the rate limits do; /readyz says Redis is down). */
  private async begin(state: string, trusted: string, address: string): Promise<[number, number]> {
    const { env } = this.deps;
    try {
      const [verdict, waitMs] = await this.redis.insploginbegin(
        state,
        trusted,
        address,
        env.LOGIN_FAILURES_BEFORE_BACKOFF,
        env.LOGIN_BACKOFF_FIRST_SECONDS * 1000,
        env.LOGIN_BACKOFF_MAX_SECONDS * 1000,
        TRUSTED_FOR_MS,
      );
      return [Number(verdict), Number(waitMs)];
    } catch (err) {
      this.deps.logger.warn({ err }, "sign-in limit unavailable; password checked without counting");
      return [1, 0];
    }
  }

  private async succeed(state: string, trusted: string, address: string): Promise<void> {
    await this.redis
      .insploginok(state, trusted, address, TRUSTED_FOR_MS, MAX_TRUSTED)
      .catch((err: unknown) => this.deps.logger.warn({ err }, "sign-in limit unavailable; success not recorded"));
  }
}
