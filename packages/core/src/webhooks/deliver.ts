import { Webhook } from "standardwebhooks";
import type { Db, SqlTx } from "@insp/db";
import type { WebhookEndpointRow } from "@insp/db/schema";
import type { TargetPolicy } from "./address.ts";
import { signingSecrets } from "./endpoints.ts";
import { retryDelayMs } from "./schedule.ts";
import type { SecretBox } from "./secrets.ts";
import { sendWebhook, type SendResult } from "./send.ts";

export interface DeliveryConfig {
  box: SecretBox;
  policy: TargetPolicy;
  /** Seconds before each attempt (parseSchedule). */
  schedule: number[];
  timeoutMs: number;
  /** An endpoint whose deliveries have failed for this long without a success is disabled. */
  disableAfterSeconds: number;
}

export type AttemptOutcome =
  | { kind: "succeeded" | "failed" | "skipped" }
  /** Tried and failed; the next attempt is due at `at`. */
  | { kind: "retry"; attempt: number; at: Date }
  /** Another process is sending this delivery right now. */
  | { kind: "busy" };

/** The headers of one attempt: the same webhook-id on every attempt, a signature per signing secret (two for a day after a rotation). */
export function signedHeaders(secrets: string[], eventId: string, body: string, now = new Date()): Record<string, string> {
  const signatures = secrets.map((s) => new Webhook(s).sign(eventId, now, body));
  return { "webhook-id": eventId, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signatures.join(" ") };
}

/** Timestamps as epoch milliseconds: drizzle makes the shared client return them as text. */
type Row = { id: string; organization_id: string; event_id: string; payload: string; status: string; attempts: number } & {
  url: string;
  enabled: boolean;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_ms: number | null;
  failing_since_ms: number | null;
  endpoint_id: string;
};

/**
 * One attempt of a delivery (the `webhook` job). Inside a transaction that holds an advisory
 * lock on the delivery, so two copies of a job never send it at once. That transaction writes
 * nothing until the answer is in, so it has no transaction id meanwhile and does not hold the
 * feeds or the dispatcher back. `attempt` is the job's view of how many attempts were made: a
 * job whose attempt already happened does nothing. A worker that dies mid-attempt leaves the
 * delivery as it was: its job runs again (BullMQ's stalled check) and sends the same event, with
 * the same webhook-id: at-least-once. `signal` (the job's) aborts the request: the attempt is then
 * recorded as failed like a timeout, and its retry scheduled.
 */
export async function attemptDelivery(
  db: Db,
  cfg: DeliveryConfig,
  organizationId: string,
  deliveryId: string,
  attempt: number,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  return db.$client.begin(async (tx) => {
    // The lock first (a CTE is evaluated once, before the join reads the row), then the row: one round trip.
    const [row] = await tx<(Partial<Row> & { ok: boolean })[]>`
      with l as (select pg_try_advisory_xact_lock(hashtextextended(${deliveryId}, 7)) as ok)
      select l.ok, d.id, d.organization_id, d.event_id, d.payload, d.status, d.attempts, d.endpoint_id,
        e.url, e.enabled, e.secret_enc, e.previous_secret_enc,
        (extract(epoch from e.previous_secret_expires_at) * 1000)::float8 as previous_secret_expires_ms,
        (extract(epoch from e.failing_since) * 1000)::float8 as failing_since_ms
      from l left join webhook_deliveries d on l.ok and d.id = ${deliveryId} and d.organization_id = ${organizationId}
        left join webhook_endpoints e on e.id = d.endpoint_id and e.organization_id = d.organization_id`;
    if (!row!.ok) return { kind: "busy" as const };
    const d = row as Row;
    if (!d.id || d.status !== "pending" || d.attempts !== attempt) return { kind: "skipped" as const };
    if (!d.enabled) {
      await tx`update webhook_deliveries set status = 'failed', failure_reason = 'the endpoint is disabled', updated_at = now() where id = ${d.id}`;
      return { kind: "failed" as const };
    }
    const endpoint = {
      secretEnc: d.secret_enc,
      previousSecretEnc: d.previous_secret_enc,
      previousSecretExpiresAt: d.previous_secret_expires_ms === null ? null : new Date(d.previous_secret_expires_ms),
    } satisfies Partial<WebhookEndpointRow>;
    const headers = signedHeaders(signingSecrets(cfg.box, endpoint), d.event_id, d.payload);
    const result = await sendWebhook(d.url, headers, d.payload, { ...cfg.policy, timeoutMs: cfg.timeoutMs, ...(signal ? { signal } : {}) });
    return record(tx, cfg, d, result);
  });
}

/** 432000 -> "5 days", 7200 -> "2 hours", 90 -> "90 seconds". */
export function duration(seconds: number): string {
  const unit = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  if (seconds % 86_400 === 0) return unit(seconds / 86_400, "day");
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  return unit(seconds, "second");
}

const isSuccess = (r: SendResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

async function record(tx: SqlTx, cfg: DeliveryConfig, d: Row, r: SendResult): Promise<AttemptOutcome> {
  const n = d.attempts + 1;
  if (isSuccess(r)) {
    // The common case in one statement: the attempt and the delivery's success.
    await tx`with a as (insert into webhook_attempts (organization_id, delivery_id, attempt, status_code, duration_ms, response, error)
        values (${d.organization_id}, ${d.id}, ${n}, ${r.statusCode}, ${r.durationMs}, ${r.response}, ${r.error}))
      update webhook_deliveries set status = 'succeeded', attempts = ${n}, updated_at = now() where id = ${d.id}`;
    if (d.failing_since_ms !== null) await tx`update webhook_endpoints set failing_since = null where id = ${d.endpoint_id}`;
    return { kind: "succeeded" };
  }
  await tx`insert into webhook_attempts (organization_id, delivery_id, attempt, status_code, duration_ms, response, error)
    values (${d.organization_id}, ${d.id}, ${n}, ${r.statusCode}, ${r.durationMs}, ${r.response}, ${r.error})`;
  const since = d.failing_since_ms === null ? new Date() : new Date(d.failing_since_ms);
  const gone = r.statusCode === 410;
  const tooLong = Date.now() - since.getTime() >= cfg.disableAfterSeconds * 1000;
  if (gone || tooLong) {
    const reason = gone ? "the endpoint answered 410 Gone" : `every delivery failed for ${duration(cfg.disableAfterSeconds)}`;
    await tx`update webhook_endpoints set enabled = false, disabled_reason = ${reason}, failing_since = ${since.toISOString()}::timestamptz, updated_at = now() where id = ${d.endpoint_id}`;
    await tx`update webhook_deliveries set status = 'failed', failure_reason = ${`endpoint disabled: ${reason}`}, attempts = case when id = ${d.id} then ${n} else attempts end, updated_at = now()
      where endpoint_id = ${d.endpoint_id} and status = 'pending'`;
    return { kind: "failed" };
  }
  if (d.failing_since_ms === null) await tx`update webhook_endpoints set failing_since = ${since.toISOString()}::timestamptz where id = ${d.endpoint_id}`;
  const delay = retryDelayMs(cfg.schedule, n);
  if (delay === null) {
    await tx`update webhook_deliveries set status = 'failed', failure_reason = ${`no success after ${n} attempts`}, attempts = ${n}, updated_at = now() where id = ${d.id}`;
    return { kind: "failed" };
  }
  const at = new Date(Date.now() + delay);
  await tx`update webhook_deliveries set attempts = ${n}, next_attempt_at = ${at.toISOString()}::timestamptz, updated_at = now() where id = ${d.id}`;
  return { kind: "retry", attempt: n, at };
}
