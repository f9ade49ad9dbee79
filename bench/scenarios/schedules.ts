import { publishedTemplate } from "../lib/fixtures.ts";
import type { Scenario } from "../lib/scenario.ts";
import { latencyRow } from "../lib/scenario.ts";
import { p95, round, timed } from "../lib/stats.ts";

const DAYS = 30;
const LIST_REQUESTS = 200;

/**
 * Scheduled inspections (docs/schedules.md): `--schedules` daily schedules (default 10,000) over
 * sites (one for every 5 schedules) with assets beside them (one for every 2), materialized
 * 30 days ahead by two workers sweeping every second: seconds until every occurrence exists,
 * occurrences per second, duplicates and misses (both must be 0). Then GET /api/occurrences of
 * one user (a user token, their own OPEN work) at that scale: p95 over 200 requests one after
 * another. Beside them, a neighbour organization's one schedule, unpaused with them, whose first
 * start was a minute ago: how long after the unpause its occurrence is OPEN (the sweep's fairness
 * across organizations). Schedules, sites and assets are written with SQL (creating them is not
 * what is measured).
 */
export const schedules: Scenario = {
  name: "schedules",
  describe: `daily schedules materialized ${DAYS} days ahead by 2 workers, then GET /api/occurrences of one user`,
  async run(ctx, progress) {
    const n = ctx.opts.schedules;
    const sql = ctx.db.sql;
    const t = await ctx.newTenant();
    const org = t.organization.id;
    const tpl = await publishedTemplate(ctx.http, t, 1);
    const siteCount = Math.max(1, Math.round(n / 5));
    progress(`${n} schedules over ${siteCount} sites and ${Math.round(n / 2)} assets`);
    await sql`insert into sites (organization_id, name, code) select ${org}, 'Site ' || i, 'S-' || i from generate_series(1, ${siteCount}) i`;
    await sql`insert into assets (organization_id, asset_type_id, name) select ${org}, ${t.assetTypes[0]!.id}, 'Asset ' || i from generate_series(1, ${Math.round(n / 2)}) i`;
    // Start six hours from now (UTC): exactly DAYS starts fall in [now, now + DAYS days) whatever the time of the run.
    const start = new Date(Date.now() + 6 * 3_600_000).toISOString();
    const user = t.users.inspector.id;
    await sql`
      insert into schedules (organization_id, name, template_id, rrule, time_zone, start_date, start_time, due_within_minutes, assignees, target, leaver_rule, paused_at)
      select ${org}, 'Daily ' || i, ${tpl.id}, 'FREQ=DAILY', 'UTC', ${start.slice(0, 10)}, ${start.slice(11, 16)}, 120,
             jsonb_build_object('userIds', jsonb_build_array(${user}::text), 'groupIds', '[]'::jsonb, 'roleIds', '[]'::jsonb, 'siteIds', '[]'::jsonb),
             jsonb_build_object('kind', 'sites', 'siteIds', jsonb_build_array(s.id::text)), '{"kind":"unassigned"}', now()
      from generate_series(1, ${n}) i
      join lateral (select id from sites where organization_id = ${org} order by code offset ((i - 1) % ${siteCount}) limit 1) s on true`;

    // The neighbour: one daily schedule whose first start was a minute ago, so it opens once made.
    const nb = await ctx.newTenant();
    const nbTpl = await publishedTemplate(ctx.http, nb, 1);
    const ago = new Date(Date.now() - 60_000).toISOString();
    await sql`
      insert into schedules (organization_id, name, template_id, rrule, time_zone, start_date, start_time, due_within_minutes, assignees, target, leaver_rule, paused_at)
      values (${nb.organization.id}, 'Neighbour', ${nbTpl.id}, 'FREQ=DAILY', 'UTC', ${ago.slice(0, 10)}, ${ago.slice(11, 16)}, 120,
              jsonb_build_object('userIds', jsonb_build_array(${nb.users.inspector.id}::text), 'groupIds', '[]'::jsonb, 'roleIds', '[]'::jsonb, 'siteIds', '[]'::jsonb),
              '{"kind":"none"}', '{"kind":"unassigned"}', now())`;

    const initial = ctx.workers.length;
    const saved = { ...ctx.env };
    Object.assign(ctx.env, { SCHEDULE_HORIZON_DAYS: String(DAYS), SCHEDULE_SWEEP_SECONDS: "1" });
    progress("restarting with 2 workers sweeping every second");
    await ctx.setWorkers(2);
    const expected = n * DAYS;
    const begun = performance.now();
    const [unpaused] = await sql<{ at: string }[]>`
      update schedules set paused_at = null where organization_id in (${org}, ${nb.organization.id}) returning now()::text as at`;
    let made = 0;
    for (;;) {
      made = (await sql<{ n: number }[]>`select count(*)::int as n from occurrences where organization_id = ${org}`)[0]!.n;
      if (made >= expected) break;
      if (performance.now() - begun > 30 * 60_000) throw new Error(`only ${made} of ${expected} occurrences after 30 minutes`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - begun) / 1000;
    const [check] = await sql<{ total: number; distinct_starts: number; short: number }[]>`
      select count(*)::int as total, count(distinct (schedule_id, target_key, start_at))::int as distinct_starts,
             (select count(*)::int from (select s.id from schedules s left join occurrences o on o.schedule_id = s.id
               where s.organization_id = ${org} group by s.id having count(o.id) <> ${DAYS}) x) as short
      from occurrences where organization_id = ${org}`;
    const duplicates = check!.total - check!.distinct_starts;
    const [neighbour] = await sql<{ s: number | null }[]>`
      select extract(epoch from min(opened_at) - ${unpaused!.at}::timestamptz)::float8 as s from occurrences where organization_id = ${nb.organization.id}`;
    const neighbourOpenS = neighbour?.s === null || neighbour?.s === undefined ? null : round(neighbour.s);
    progress(`the neighbour's occurrence opened ${neighbourOpenS ?? "never"} s after the unpause`);
    progress(`${check!.total} occurrences in ${round(seconds)} s; ${duplicates} duplicates, ${check!.short} schedules without exactly ${DAYS}`);
    Object.keys(ctx.env).forEach((k) => delete ctx.env[k]);
    Object.assign(ctx.env, saved);
    await ctx.setWorkers(initial);

    // One user's own work: the first day's occurrences of 1 schedule in 50 open and assigned to them.
    await sql`
      update occurrences set state = 'OPEN', opened_at = now(), assignee_user_ids = array[${user}]::uuid[]
      where organization_id = ${org} and start_at < now() + interval '1 day'
        and schedule_id in (select id from schedules where organization_id = ${org} and (substring(name from 7)::int % 50) = 0)`;
    await sql`analyze occurrences`;
    const token = (await ctx.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password })).body.accessToken as string;
    const list = () => ctx.http.get("/api/occurrences?state=OPEN", { auth: { bearer: token } });
    const warm = await list();
    if (warm.status !== 200) throw new Error(`GET /api/occurrences answered ${warm.status}: ${warm.text.slice(0, 300)}`);
    const ms: number[] = [];
    for (let i = 0; i < LIST_REQUESTS; i++) ms.push((await timed(list)).ms);
    progress(`GET /api/occurrences (${warm.body.pagination.total} open for the user): p95 ${round(p95(ms))} ms`);
    const perS = check!.total / seconds;
    const row = latencyRow("schedules", `${n} daily schedules materialized ${DAYS} days ahead by 2 workers`, [seconds * 1000]);
    row.throughput = { value: round(perS), unit: "occurrences/s" };
    row.extra = `${check!.total} occurrences, ${duplicates} duplicates, ${check!.short} schedules missing some; a neighbour organization's occurrence opened ${neighbourOpenS ?? "never"} s after the unpause`;
    return {
      name: "schedules",
      rows: [row, latencyRow("schedules", `GET /api/occurrences of one user among ${check!.total} occurrences`, ms)],
      metrics: {
        schedules: n,
        occurrences: check!.total,
        materializeSeconds: round(seconds),
        occurrencesPerS: round(perS),
        duplicates,
        schedulesMissingOccurrences: check!.short,
        listP95Ms: round(p95(ms)),
        neighbourOpenS: neighbourOpenS ?? -1,
      },
      samples: { list: ms },
      notes: duplicates || check!.short ? [`schedules: ${duplicates} duplicates, ${check!.short} schedules without exactly ${DAYS} occurrences`] : [],
    };
  },
};
