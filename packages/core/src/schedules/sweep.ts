import { sql } from "drizzle-orm";
import type { Db, Tx } from "@insp/db";
import { changeEvents, occurrences, type ScheduleTarget } from "@insp/db/schema";
import type { Change } from "../changes/index.ts";
import { isUuid } from "../errors.ts";
import { afterCompletion, expandRule, type Occurrence } from "./recurrence.ts";

/**
 * The schedule sweep (every SCHEDULE_SWEEP_SECONDS in each worker; docs/schedules.md). Safe on any
 * number of workers at once:
 *
 * - `materialize` claims schedules with `for update skip locked` and inserts their occurrences
 *   with `on conflict do nothing` on (schedule, target, start): two workers, or one that runs the
 *   same range twice, make each occurrence once. It expands from the schedule's high-water mark
 *   (`materialized_until`) to now + the horizon, so a worker that slept, or a clock that jumped
 *   forward, makes every start it missed (they open and are missed at once if their time has
 *   passed), and a clock that jumped back finds its range done.
 * - `open`, `remind` and `miss` each move rows with one update of rows claimed with skip locked,
 *   repeating the state condition, so a row moves (and is announced) once.
 */

type Row = Record<string, unknown>;

/** A uuid[] parameter (Drizzle's sql template spreads a JS array into a list of parameters). */
const uuidArray = (ids: string[]) => `{${ids.filter(isUuid).join(",")}}`;
const DAY = 86_400_000;

interface TargetRow {
  key: string;
  siteId: string | null;
  assetId: string | null;
}

async function targetsOf(tx: Tx, organizationId: string, target: ScheduleTarget): Promise<TargetRow[]> {
  if (target.kind === "none") return [{ key: "", siteId: null, assetId: null }];
  if (target.kind === "sites") {
    const rows = await tx.execute<{ id: string }>(sql`
      select id from sites where organization_id = ${organizationId} and archived_at is null and id = any(${uuidArray(target.siteIds)}::uuid[])`);
    return rows.map((r) => ({ key: `site:${r.id}`, siteId: r.id, assetId: null }));
  }
  // Only assets that can be inspected: ACTIVE and not archived (a RETIRED or archived one gets no new occurrences).
  const rows = await tx.execute<{ id: string; site_id: string | null }>(sql`
    select id, site_id from assets
    where organization_id = ${organizationId} and status = 'ACTIVE' and archived_at is null
      ${target.assetTypeId !== undefined ? sql`and asset_type_id = ${target.assetTypeId}::uuid` : sql``}
      ${target.siteId !== undefined ? sql`and site_id = ${target.siteId}::uuid` : sql``}`);
  // The asset's site too, so a list by siteId (and a leaver's site_manager rule) finds the occurrence.
  return rows.map((r) => ({ key: `asset:${r.id}`, siteId: r.site_id, assetId: r.id }));
}

interface ScheduleRow {
  id: string;
  organization_id: string;
  template_id: string;
  rrule: string | null;
  after_completion_days: number | null;
  time_zone: string;
  start_date: string;
  start_time: string;
  due_within_minutes: number;
  target: ScheduleTarget;
  must_complete: string;
  materialized_until: Date | string | null;
  created_at: Date | string;
}

/** The starts of an after-completion schedule for one target: the next one, once none is pending. */
async function nextAfterCompletion(tx: Tx, s: ScheduleRow, t: TargetRow): Promise<Occurrence[]> {
  const [state] = await tx.execute<{ pending: boolean; completed: string | null; last_start: string | null }>(sql`
    select bool_or(state in ('UPCOMING', 'OPEN', 'LATE')) as pending, max(completed_at)::text as completed, max(start_at)::text as last_start
    from occurrences where schedule_id = ${s.id} and target_key = ${t.key}`);
  if (state?.pending) return [];
  const spec = {
    days: s.after_completion_days!,
    timeZone: s.time_zone,
    startDate: s.start_date,
    startTime: s.start_time,
    dueWithinMinutes: s.due_within_minutes,
  };
  // Never completed but one was missed: N days after the last start.
  const base = state?.completed ?? state?.last_start ?? null;
  return [afterCompletion(spec, base ? new Date(base) : null)];
}

async function insertOccurrences(tx: Tx, s: ScheduleRow, t: TargetRow, list: Occurrence[]): Promise<number> {
  if (!list.length) return 0;
  const rows = await tx
    .insert(occurrences)
    .values(
      list.map((occ) => ({
        organizationId: s.organization_id,
        scheduleId: s.id,
        targetKey: t.key,
        siteId: t.siteId,
        assetId: t.assetId,
        templateId: s.template_id,
        startAt: occ.startAt,
        dueAt: occ.dueAt,
        timeZone: s.time_zone,
        mustComplete: s.must_complete,
      })),
    )
    .onConflictDoNothing({ target: [occurrences.scheduleId, occurrences.targetKey, occurrences.startAt] })
    .returning({ id: occurrences.id });
  return rows.length;
}

/** Occurrences of one schedule starting in [from, to), per target. */
async function materializeOne(tx: Tx, s: ScheduleRow, to: Date): Promise<number> {
  const made = s.materialized_until ? new Date(s.materialized_until) : null;
  // First time: from the moment it was made, less its due window (a start whose due time has not passed yet is still worth doing).
  const from = made ?? new Date(new Date(s.created_at).getTime() - s.due_within_minutes * 60_000);
  const starts =
    s.rrule !== null
      ? expandRule(
          { rrule: s.rrule, timeZone: s.time_zone, startDate: s.start_date, startTime: s.start_time, dueWithinMinutes: s.due_within_minutes },
          from,
          to,
        )
      : null;
  let n = 0;
  for (const t of await targetsOf(tx, s.organization_id, s.target)) {
    const list = starts ?? (await nextAfterCompletion(tx, s, t));
    n += await insertOccurrences(tx, s, t, list);
  }
  return n;
}

/**
 * Makes the occurrences of up to `batch` active schedules whose horizon is more than a day behind
 * (or never made, or after-completion ones marked by a completion), up to now + `horizonDays`.
 * Fair across organizations: the batch takes each organization's most behind schedule first,
 * then each one's second, and so on, so one organization's 10,000 new schedules do not hold
 * another's first one back for more than a batch (while fewer organizations than a batch are
 * behind at once). Among the candidates (8 batches' worth, so that up to 8 workers sweeping
 * together each find unlocked ones; a ninth finds fewer than a batch and leaves the rest to them
 * until its next sweep) it claims with skip locked. Each batch sorts every schedule still behind
 * by its organization's turn: a few ms per batch at 10,000 (bench/README.md).
 * Returns how many schedules it expanded and how many occurrences it inserted.
 */
export async function materializeOccurrences(db: Db, horizonDays: number, batch = 100, now = new Date()): Promise<{ schedules: number; occurrences: number }> {
  const to = new Date(now.getTime() + horizonDays * DAY);
  const due = new Date(to.getTime() - DAY);
  return db.transaction(async (tx) => {
    const behind = sql`paused_at is null and (materialized_until is null or materialized_until < ${due.toISOString()}::timestamptz)`;
    const claimed = await tx.execute<ScheduleRow & Row>(sql`
      with candidates as (
        select array(
          select id from (
            select id, materialized_until, row_number() over (partition by organization_id order by materialized_until nulls first, id) as turn
            from schedules where ${behind}) b
          order by turn, materialized_until nulls first
          limit ${batch * 8}) as ids)
      select id, organization_id, template_id, rrule, after_completion_days, time_zone, start_date, start_time, due_within_minutes,
             target, must_complete, materialized_until, created_at
      from schedules, candidates
      where id = any(candidates.ids) and ${behind}
      order by array_position(candidates.ids, id)
      limit ${batch}
      for update of schedules skip locked`);
    let n = 0;
    for (const s of claimed) {
      n += await materializeOne(tx, s, to);
      // An after-completion schedule has one pending occurrence per target (made whatever the horizon): it is looked at
      // again when a completion or a miss clears the mark (afterCompletionChanged).
      const mark = s.after_completion_days !== null ? new Date(to.getTime() + 400 * DAY) : to;
      await tx.execute(sql`update schedules set materialized_until = ${mark.toISOString()}::timestamptz where id = ${s.id}`);
    }
    return { schedules: claimed.length, occurrences: n };
  });
}

async function announce(tx: Tx, rows: { id: string; organization_id: string }[], change: Change): Promise<void> {
  if (rows.length)
    await tx.insert(changeEvents).values(rows.map((r) => ({ organizationId: r.organization_id, resourceType: "occurrence", resourceId: r.id, change })));
}

/** The users an occurrence is for at this moment: named users, and the ACTIVE employees' users of its groups, roles and sites. */
const RESOLVE_ASSIGNEES = sql`
  coalesce(array(
    select distinct u.id from (
      select x::uuid as uid from jsonb_array_elements_text(c.assignees->'userIds') x
      union select e.user_id from employee_groups g join employees e on e.id = g.employee_id
        where g.organization_id = c.organization_id and g.group_id::text in (select jsonb_array_elements_text(c.assignees->'groupIds')) and e.status = 'ACTIVE'
      union select e.user_id from employee_roles r join employees e on e.id = r.employee_id
        where r.organization_id = c.organization_id and r.role_id::text in (select jsonb_array_elements_text(c.assignees->'roleIds')) and e.status = 'ACTIVE'
      union select e.user_id from employee_sites es join employees e on e.id = es.employee_id
        where es.organization_id = c.organization_id and es.site_id::text in (select jsonb_array_elements_text(c.assignees->'siteIds')) and e.status = 'ACTIVE'
    ) a join users u on u.id = a.uid and u.organization_id = c.organization_id and not u.disabled
    order by u.id), '{}')`;

/**
 * UPCOMING occurrences whose start has come (of schedules not paused) open: their assignees are
 * resolved now, and the template's published version is the one they use. occurrence.opened.
 * Those of an asset no longer ACTIVE, or archived, are removed instead.
 */
export async function openOccurrences(db: Db, batch = 500): Promise<number> {
  return db.transaction(async (tx) => {
    // An asset retired or archived since its occurrences were made cannot be inspected: its
    // occurrences that would open now are dropped instead (restored before their start, they open).
    await tx.execute(sql`
      delete from occurrences o using assets a
      where o.state = 'UPCOMING' and o.start_at <= now() and a.id = o.asset_id and (a.status <> 'ACTIVE' or a.archived_at is not null)`);
    const rows = await tx.execute<{ id: string; organization_id: string }>(sql`
      with c as (
        select o.id, o.organization_id, s.assignees
        from occurrences o join schedules s on s.id = o.schedule_id
        where o.state = 'UPCOMING' and o.start_at <= now() and s.paused_at is null
        order by o.start_at
        limit ${batch}
        for update of o skip locked
      ), r as (select c.id, ${RESOLVE_ASSIGNEES} as ids from c)
      update occurrences o set state = 'OPEN', opened_at = now(), updated_at = now(), assignee_user_ids = r.ids, needs_assignee = cardinality(r.ids) = 0,
        template_version = (select t.version from templates t where t.id = o.template_id and t.status = 'PUBLISHED')
      from r where o.id = r.id and o.state = 'UPCOMING'
      returning o.id, o.organization_id`);
    await announce(tx, rows, "opened");
    return rows.length;
  });
}

/** A queued reminder e-mail: the mail job to enqueue after commit. */
interface QueuedMail {
  organizationId: string;
  outboxId: string;
}

/**
 * OPEN occurrences within their schedule's reminder of the due time: occurrence.due_soon, once.
 * When the schedule has remindByEmail, one outbox mail per assignee (an enabled user with an
 * e-mail address), in the same transaction that claims the row: once per occurrence and assignee.
 */
export async function remindOccurrences(db: Db, batch = 500): Promise<{ reminded: number; mails: QueuedMail[] }> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string; organization_id: string }>(sql`
      update occurrences o set reminded_at = now()
      where o.id in (
          select o2.id from occurrences o2 join schedules s on s.id = o2.schedule_id
          where o2.state = 'OPEN' and o2.reminded_at is null and s.reminder_minutes_before is not null
            and o2.due_at - make_interval(mins => s.reminder_minutes_before) <= now() and o2.due_at > now()
          limit ${batch}
          for update of o2 skip locked)
        and o.state = 'OPEN' and o.reminded_at is null
      returning o.id, o.organization_id`);
    await announce(tx, rows, "due_soon");
    const mails = rows.length
      ? await tx.execute<{ id: string; organization_id: string }>(sql`
          insert into mail_outbox (organization_id, user_id, kind, to_address, data)
          select o.organization_id, u.id, 'occurrence_reminder', u.email,
            jsonb_build_object('displayName', u.name, 'occurrenceId', o.id, 'scheduleName', s.name, 'templateName', t.title,
              'startAt', o.start_at, 'dueAt', o.due_at, 'timeZone', o.time_zone, 'siteName', st.name, 'assetName', a.name, 'assetCode', a.code)
          from occurrences o
            join schedules s on s.id = o.schedule_id and s.remind_by_email
            cross join lateral unnest(o.assignee_user_ids) as x(uid)
            join users u on u.id = x.uid and u.organization_id = o.organization_id and not u.disabled and u.email <> ''
            left join templates t on t.id = o.template_id
            left join sites st on st.id = o.site_id
            left join assets a on a.id = o.asset_id
          where o.id = any(${uuidArray(rows.map((r) => r.id))}::uuid[])
          returning id, organization_id`)
      : [];
    return { reminded: rows.length, mails: mails.map((m) => ({ organizationId: m.organization_id, outboxId: m.id })) };
  });
}

/** The after-completion schedules of these occurrences make their next one at the next sweep (one was completed or missed). */
export async function afterCompletionChanged(tx: Tx, occurrenceIds: string[]): Promise<void> {
  if (!occurrenceIds.length) return;
  await tx.execute(sql`
    update schedules set materialized_until = null
    where after_completion_days is not null and id in (select schedule_id from occurrences where id = any(${uuidArray(occurrenceIds)}::uuid[]))`);
}

/** OPEN occurrences past their due time: MISSED, or LATE when the schedule takes late submissions. occurrence.missed. */
export async function missOccurrences(db: Db, batch = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string; organization_id: string }>(sql`
      update occurrences o
      set state = case when coalesce((select s.can_late_submit from schedules s where s.id = o.schedule_id), false) then 'LATE' else 'MISSED' end,
          missed_at = now(), updated_at = now()
      where o.id in (
          select id from occurrences where state = 'OPEN' and due_at <= now()
          order by due_at
          limit ${batch}
          for update skip locked)
        and o.state = 'OPEN'
      returning o.id, o.organization_id`);
    await announce(tx, rows, "missed");
    await afterCompletionChanged(
      tx,
      rows.map((r) => r.id),
    );
    return rows.length;
  });
}
