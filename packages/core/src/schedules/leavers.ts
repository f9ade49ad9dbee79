import { sql } from "drizzle-orm";
import type { Db, Tx } from "@insp/db";
import type { LeaverRule, ScheduleAssignees } from "@insp/db/schema";
import { recordChange } from "../changes/index.ts";

/**
 * People leave (docs/schedules.md, "When people leave"): an OPEN or LATE occurrence assigned to a
 * user whose employee record the HR sync or SCIM made INACTIVE or TERMINATED (or whose user is
 * disabled) is given to whom the schedule's leaver rule says: the site_manager(s) of the
 * occurrence's site, a named user, or nobody (then `needsAssignee` is set). UPCOMING occurrences
 * are assigned when they open, and a leaver named on the schedule is replaced then, the same way.
 * Runs in the schedule sweep, after opening; every change is an occurrence.reassigned event, so
 * nothing is dropped silently.
 */

interface Claimed {
  id: string;
  organization_id: string;
  site_id: string | null;
  assignee_user_ids: string[];
  leavers: string[];
  leaver_rule: LeaverRule | null;
  assignees: ScheduleAssignees | null;
}

/** Users who left: an employee INACTIVE or TERMINATED, or a disabled user. */
const LEAVERS = sql`(select array(
  select user_id from employees where status in ('INACTIVE', 'TERMINATED') and user_id is not null
  union select id from users where disabled) as ids)`;

/** The ACTIVE employees' users holding the role site_manager at one of `siteIds`. */
async function siteManagers(tx: Tx, organizationId: string, siteIds: string[]): Promise<string[]> {
  if (!siteIds.length) return [];
  const rows = await tx.execute<{ id: string }>(sql`
    select distinct u.id from employees e
      join employee_roles er on er.employee_id = e.id
      join roles r on r.id = er.role_id and r.name = 'site_manager'
      join employee_sites es on es.employee_id = e.id and es.site_id = any(${`{${siteIds.join(",")}}`}::uuid[])
      join users u on u.id = e.user_id and not u.disabled
    where e.organization_id = ${organizationId} and e.status = 'ACTIVE'
    order by u.id`);
  return rows.map((r) => r.id);
}

async function replacementsOf(tx: Tx, o: Claimed, leavers: Set<string>): Promise<string[]> {
  const rule = o.leaver_rule ?? { kind: "unassigned" };
  if (rule.kind === "user") return leavers.has(rule.userId) ? [] : [rule.userId];
  if (rule.kind === "site_manager")
    return (await siteManagers(tx, o.organization_id, o.site_id ? [o.site_id] : (o.assignees?.siteIds ?? []))).filter((u) => !leavers.has(u));
  return [];
}

/** Reassigns up to `batch` occurrences held by leavers; returns how many. Claimed with skip locked: once across workers. */
export async function reassignLeavers(db: Db, batch = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx.execute<Claimed & Record<string, unknown>>(sql`
      with l as ${LEAVERS}
      select o.id, o.organization_id, o.site_id, o.assignee_user_ids,
             array(select u from unnest(o.assignee_user_ids) u, l where u = any(l.ids)) as leavers,
             s.leaver_rule, s.assignees
      from occurrences o left join schedules s on s.id = o.schedule_id
      where o.state in ('OPEN', 'LATE') and o.assignee_user_ids && (select ids from l)
      limit ${batch}
      for update of o skip locked`);
    for (const o of claimed) {
      const gone = new Set(o.leavers);
      const kept = o.assignee_user_ids.filter((u) => !gone.has(u));
      const added = await replacementsOf(tx, o, gone);
      const next = [...new Set([...kept, ...added])].sort();
      await tx.execute(sql`
        update occurrences set assignee_user_ids = ${`{${next.join(",")}}`}::uuid[], needs_assignee = ${added.length === 0}, updated_at = now()
        where id = ${o.id}`);
      await recordChange(tx, { organizationId: o.organization_id, resourceType: "occurrence", resourceId: o.id, change: "reassigned" });
    }
    return claimed.length;
  });
}
