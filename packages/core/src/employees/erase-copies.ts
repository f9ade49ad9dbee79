import { sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { usersByIds } from "../users/index.ts";
import { getEmployee } from "./read.ts";
import { likePatterns, type Scrubber } from "./scrub.ts";

/**
 * The stored copies of an erased person's data outside the employee and user rows (erase.ts,
 * docs/erasure.md), inside the erasure's transaction. Each statement first finds candidate rows
 * with `ilike` on the person's values; the scrubber then replaces whole-word matches with the
 * pseudonym. What is deleted rather than rewritten: mails (their only purpose was the person),
 * stored PDF reports of the person's inspections and finished exports (files re-made on demand;
 * their bytes go with the media sweep).
 */

export interface ErasureContext {
  employeeId: string;
  userId: string | null;
  oldExternalEmployeeId: string;
  pseudonym: string;
  /** The person's e-mail addresses (employee and account). */
  emails: string[];
  scrub: Scrubber;
}

type TextRow = Record<string, string | null>;
const rowsOf = async (tx: DbOrTx, q: ReturnType<typeof sql>) => (await tx.execute(q)) as unknown as TextRow[];
const anyLike = (c: ErasureContext) =>
  sql`array[${sql.join(
    likePatterns(c.scrub.values).map((p) => sql`${p}`),
    sql`, `,
  )}]::text[]`;
const scrubbedJson = (c: ErasureContext, text: string | null | undefined) => (text == null ? null : JSON.stringify(c.scrub.json(JSON.parse(text))));
const scrubbedText = (c: ErasureContext, text: string | null | undefined) => (text == null ? null : c.scrub.text(text));

export async function scrubStoredCopies(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  await scrubSyncItems(tx, organizationId, c);
  await scrubSessions(tx, organizationId, c);
  if (c.scrub.values.length) await scrubIdempotency(tx, organizationId, c);
  // Mails to the person's addresses (the account's were deleted with it): exact addresses only.
  for (const email of c.emails)
    await tx.execute(sql`delete from mail_outbox where organization_id = ${organizationId} and lower(to_address) = lower(${email})`);
  await scrubWebhooks(tx, organizationId, c);
  await dropFiles(tx, organizationId, c);
}

/**
 * Sync requests keep each employee's record as sent and its result: the person's own items keep
 * only the pseudonym as their record (input), the others (a conflict naming the person's e-mail)
 * are scrubbed. Items still pending are left to run: they write a new employee (the old
 * externalEmployeeId now names nobody).
 */
async function scrubSyncItems(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  const like = c.scrub.values.length
    ? sql`or input::text ilike any(${anyLike(c)}) or result::text ilike any(${anyLike(c)}) or error ilike any(${anyLike(c)})`
    : sql``;
  const rows = await rowsOf(
    tx,
    sql`select id, external_employee_id, chain_key, input::text as input, result::text as result, error,
      (external_employee_id = ${c.oldExternalEmployeeId} or result->>'employeeId' = ${c.employeeId})::text as own
      from sync_request_items where organization_id = ${organizationId} and status <> 'pending'
      and (external_employee_id = ${c.oldExternalEmployeeId} or result->>'employeeId' = ${c.employeeId} ${like})`,
  );
  for (const r of rows) {
    const own = r.own === "true";
    const input = own ? JSON.stringify({ externalEmployeeId: c.pseudonym }) : scrubbedJson(c, r.input);
    const ext = own ? c.pseudonym : scrubbedText(c, r.external_employee_id);
    await tx.execute(sql`update sync_request_items set external_employee_id = ${ext}, chain_key = ${scrubbedText(c, r.chain_key)},
      input = ${input}::jsonb, result = ${scrubbedJson(c, r.result)}::jsonb, error = ${scrubbedText(c, r.error)}
      where id = ${r.id} and organization_id = ${organizationId}`);
  }
}

/** Snapshot sessions: the ids their batches named, and their outcomes (who was or would be deactivated). */
async function scrubSessions(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  await tx.execute(sql`update sync_session_members m set external_employee_id = ${c.pseudonym}
    from sync_sessions s where s.id = m.session_id and s.organization_id = ${organizationId} and m.external_employee_id = ${c.oldExternalEmployeeId}`);
  if (!c.scrub.values.length) return;
  const rows = await rowsOf(
    tx,
    sql`select id, outcome::text as outcome from sync_sessions where organization_id = ${organizationId} and outcome::text ilike any(${anyLike(c)})`,
  );
  for (const r of rows)
    await tx.execute(sql`update sync_sessions set outcome = ${scrubbedJson(c, r.outcome)}::jsonb where id = ${r.id} and organization_id = ${organizationId}`);
}

/** Answers replayed for an Idempotency-Key (a sync's results and errors) and what a running request noted. */
async function scrubIdempotency(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  const rows = await rowsOf(
    tx,
    sql`select scope, key, outcome::text as outcome, response_body::text as progress from idempotency_keys
      where organization_id = ${organizationId} and (outcome::text ilike any(${anyLike(c)}) or response_body::text ilike any(${anyLike(c)}))`,
  );
  for (const r of rows)
    await tx.execute(sql`update idempotency_keys set outcome = ${scrubbedJson(c, r.outcome)}::jsonb, response_body = ${scrubbedJson(c, r.progress)}::jsonb
      where organization_id = ${organizationId} and scope = ${r.scope} and key = ${r.key}`);
}

/**
 * Webhook deliveries keep the body they send (pending ones too): the person's own employee.* and
 * user.* events carry the record as it is now (the pseudonym), every other body (an inspection
 * naming its inspector) is scrubbed, as are the receivers' answers kept for the delivery log.
 */
async function scrubWebhooks(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  const like = c.scrub.values.length ? sql`or d.payload ilike any(${anyLike(c)})` : sql``;
  const rows = await rowsOf(
    tx,
    sql`select d.id, d.payload, e.resource_type, e.resource_id::text as resource_id from webhook_deliveries d
      left join change_events e on e.organization_id = d.organization_id and e.id = d.event_id
      where d.organization_id = ${organizationId}
      and ((e.resource_type = 'employee' and e.resource_id = ${c.employeeId}) or (e.resource_type = 'user' and e.resource_id = ${c.userId}) ${like})`,
  );
  const employee = await getEmployee(tx, organizationId, c.employeeId);
  const [user] = c.userId ? await usersByIds(tx, organizationId, [c.userId]) : [];
  for (const r of rows) {
    const body = JSON.parse(r.payload!) as { data?: unknown };
    const own =
      r.resource_type === "employee" && r.resource_id === c.employeeId ? employee : r.resource_type === "user" && r.resource_id === c.userId ? user : undefined;
    const payload = JSON.stringify(own ? { ...body, data: own } : c.scrub.json(body));
    await tx.execute(sql`update webhook_deliveries set payload = ${payload} where id = ${r.id} and organization_id = ${organizationId}`);
  }
  if (!c.scrub.values.length) return;
  const answers = await rowsOf(
    tx,
    sql`select id, response, error from webhook_attempts where organization_id = ${organizationId} and (response ilike any(${anyLike(c)}) or error ilike any(${anyLike(c)}))`,
  );
  for (const a of answers)
    await tx.execute(sql`update webhook_attempts set response = ${scrubbedText(c, a.response)}, error = ${scrubbedText(c, a.error)}
      where id = ${a.id} and organization_id = ${organizationId}`);
}

/**
 * Files that print the person: the stored PDF reports of inspections they conducted (a request
 * renders a new one, with the pseudonym) and the organization's finished exports (they list
 * inspectors; export again). Their bytes are handed to the media sweep's trash.
 */
async function dropFiles(tx: DbOrTx, organizationId: string, c: ErasureContext): Promise<void> {
  if (!c.userId) return;
  await tx.execute(sql`with gone as (
      delete from inspection_reports r using inspections i
      where r.organization_id = ${organizationId} and r.status in ('SUCCEEDED', 'FAILED') and i.id = r.inspection_id and i.organization_id = ${organizationId} and i.conducted_by = ${c.userId}
      returning r.storage_key)
    insert into media_trash (organization_id, storage_key) select ${organizationId}, storage_key from gone where storage_key is not null on conflict do nothing`);
  await tx.execute(sql`with gone as (
      delete from inspection_exports where organization_id = ${organizationId} and status = 'SUCCEEDED' returning storage_key)
    insert into media_trash (organization_id, storage_key) select ${organizationId}, storage_key from gone where storage_key is not null on conflict do nothing`);
}
