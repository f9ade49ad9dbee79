import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { ADMIN_CLI, createSchedule, materializeOccurrences, openOccurrences, reassignLeavers, seedDemo, type DemoSeed } from "../src/index.ts";

/**
 * The schedule sweep's services against a real database (docs/schedules.md): two sweeps racing
 * make each occurrence once; a sweep whose mark is behind makes what it missed; a leaver's open
 * occurrences go to whom the leaver rule says.
 */

let db: TestDatabase;
let t: DemoSeed;
let templateId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
  [{ id: templateId }] = (await db.sql`
    insert into templates (organization_id, title, type, status) values (${t.organization.id}, 'Audit', 'AUDIT', 'PUBLISHED') returning id`) as unknown as [
    { id: string },
  ];
});
afterAll(async () => {
  await db?.close();
});

/** A daily UTC schedule whose first start was a minute ago. */
async function daily(extra: Record<string, unknown> = {}) {
  const start = new Date(Date.now() - 60_000).toISOString();
  return createSchedule(db.db, t.organization.id, ADMIN_CLI, {
    name: "Daily",
    templateId,
    recurrence: { rrule: "FREQ=DAILY" },
    timeZone: "UTC",
    startDate: start.slice(0, 10),
    startTime: start.slice(11, 16),
    dueWithinMinutes: 60,
    assignees: { userIds: [], groupIds: [], roleIds: [], siteIds: [] },
    target: { kind: "sites", siteIds: [t.sites[0]!.id] },
    mustComplete: "ONE",
    canLateSubmit: false,
    reminderMinutesBefore: null,
    remindByEmail: false,
    leaverRule: { kind: "site_manager" },
    paused: false,
    ...extra,
  });
}

const starts = async (scheduleId: string) =>
  (await db.sql<{ s: string }[]>`select start_at::text as s from occurrences where schedule_id = ${scheduleId} order by start_at`).map((r) => r.s);

/** An employee with the user, in `status`, holding `roles` at the first site. */
async function employee(userId: string, status: string, roles: string[] = []) {
  const [e] = await db.sql<{ id: string }[]>`
    insert into employees (organization_id, external_employee_id, status, user_id) values (${t.organization.id}, ${`E-${userId}`}, ${status}, ${userId})
    on conflict (organization_id, external_employee_id) do update set status = excluded.status returning id`;
  await db.sql`insert into employee_sites (employee_id, site_id, organization_id) values (${e!.id}, ${t.sites[0]!.id}, ${t.organization.id}) on conflict do nothing`;
  for (const role of roles)
    await db.sql`insert into employee_roles (employee_id, role_id, organization_id)
      select ${e!.id}, id, ${t.organization.id} from roles where organization_id = ${t.organization.id} and name = ${role} on conflict do nothing`;
}

describe("schedule sweep services", () => {
  it("two sweeps racing make each occurrence once, 14 days ahead", async () => {
    const s = await daily();
    const [a, b] = await Promise.all([materializeOccurrences(db.db, 14), materializeOccurrences(db.db, 14)]);
    expect(a.occurrences + b.occurrences).toBe(15);
    expect(new Set(await starts(s.id)).size).toBe(15);
    // Again: nothing new (the mark is ahead).
    expect((await materializeOccurrences(db.db, 14)).occurrences).toBe(0);
  });

  it("a mark left behind (a worker that slept) makes the missing starts, and no others", async () => {
    const s = await daily();
    await materializeOccurrences(db.db, 14);
    const before = await starts(s.id);
    await db.sql`delete from occurrences where schedule_id = ${s.id} and start_at > now() + interval '3 days'`;
    await db.sql`update schedules set materialized_until = now() - interval '2 days' where id = ${s.id}`;
    await materializeOccurrences(db.db, 14);
    expect(await starts(s.id)).toEqual(before);
    // A clock that jumped back: the same range again makes nothing.
    await db.sql`update schedules set materialized_until = now() - interval '2 days' where id = ${s.id}`;
    expect((await materializeOccurrences(db.db, 14)).occurrences).toBe(0);
  });

  it("a leaver's open occurrences go to the site's site_manager, a named user, or nobody (flagged)", async () => {
    const [leaver, manager, named] = [
      t.users.inspector.id,
      t.users.admin.id,
      (
        await db.sql<{ id: string }[]>`
      insert into users (organization_id, email, username) values (${t.organization.id}, 'named@example.test', 'named') returning id`
      )[0]!.id,
    ];
    await employee(leaver, "ACTIVE");
    await employee(manager, "ACTIVE", ["site_manager"]);
    const toManager = await daily({ assignees: { userIds: [leaver], groupIds: [], roleIds: [], siteIds: [] } });
    const toNamed = await daily({ assignees: { userIds: [leaver], groupIds: [], roleIds: [], siteIds: [] }, leaverRule: { kind: "user", userId: named } });
    const toNobody = await daily({ assignees: { userIds: [leaver], groupIds: [], roleIds: [], siteIds: [] }, leaverRule: { kind: "unassigned" } });
    await materializeOccurrences(db.db, 14);
    await openOccurrences(db.db);
    expect(await reassignLeavers(db.db)).toBe(0);

    await employee(leaver, "TERMINATED");
    expect(await reassignLeavers(db.db)).toBe(3);
    const open = async (scheduleId: string) =>
      (
        await db.sql<{ a: string[]; flag: boolean }[]>`
        select assignee_user_ids::text[] as a, needs_assignee as flag from occurrences where schedule_id = ${scheduleId} and state = 'OPEN'`
      )[0];
    expect(await open(toManager.id)).toEqual({ a: [manager], flag: false });
    expect(await open(toNamed.id)).toEqual({ a: [named], flag: false });
    expect(await open(toNobody.id)).toEqual({ a: [], flag: true });
    const [{ n }] = (await db.sql`
      select count(*)::int as n from change_events where resource_type = 'occurrence' and change = 'reassigned' and organization_id = ${t.organization.id}`) as unknown as [
      { n: number },
    ];
    expect(n).toBe(3);
    expect(await reassignLeavers(db.db)).toBe(0);
  });

  it("one organization's many new schedules do not hold back another's: a batch takes each organization's turn", async () => {
    // 250 new schedules of this organization (three batches of 100; new ones go first within an
    // organization), and one of another organization's whose horizon is due to be extended.
    const s = await daily();
    await db.sql`update schedules set materialized_until = now() + interval '400 days' where organization_id = ${t.organization.id} and id <> ${s.id}`;
    await db.sql`
      insert into schedules (organization_id, name, template_id, rrule, time_zone, start_date, start_time, due_within_minutes, assignees, target, must_complete, leaver_rule)
      select organization_id, name || ' ' || i, template_id, rrule, time_zone, start_date, start_time, due_within_minutes, assignees, target, must_complete, leaver_rule
      from schedules, generate_series(1, 249) i where id = ${s.id}`;
    const other = await seedDemo(db.db);
    const [{ id: theirTemplate }] = (await db.sql`
      insert into templates (organization_id, title, type, status) values (${other.organization.id}, 'Audit', 'AUDIT', 'PUBLISHED') returning id`) as unknown as [
      { id: string },
    ];
    const theirs = await createSchedule(db.db, other.organization.id, ADMIN_CLI, {
      name: "Theirs",
      templateId: theirTemplate,
      recurrence: { rrule: "FREQ=DAILY" },
      timeZone: "UTC",
      startDate: new Date().toISOString().slice(0, 10),
      startTime: "23:59",
      dueWithinMinutes: 1,
      assignees: { userIds: [], groupIds: [], roleIds: [], siteIds: [] },
      target: { kind: "none" },
      mustComplete: "ONE",
      canLateSubmit: false,
      reminderMinutesBefore: null,
      remindByEmail: false,
      leaverRule: { kind: "unassigned" },
      paused: false,
    });
    await db.sql`update schedules set materialized_until = now() where id = ${theirs.id}`;
    expect((await materializeOccurrences(db.db, 14, 100)).schedules).toBe(100);
    const [{ extended }] =
      (await db.sql`select materialized_until > now() + interval '13 days' as extended from schedules where id = ${theirs.id}`) as unknown as [
        { extended: boolean },
      ];
    expect(extended).toBe(true);
    // The rest are made by the batches after.
    while ((await materializeOccurrences(db.db, 14, 100)).schedules === 100);
    const [{ n }] = (await db.sql`select count(*)::int as n from schedules where materialized_until is null`) as unknown as [{ n: number }];
    expect(n).toBe(0);
  });
});
