import type { SqlTx } from "@insp/db";
import type { EmailHolders, EmployeeContext, EmployeeState } from "../plan.ts";
import type { EmployeeFields, EmployeeStatus, ResolvedRefs, SyncEmployee } from "../types.ts";

/**
 * The read of one employee's transaction, in plain SQL (postgres.js): everything the rules
 * (../plan.ts) need, in ONE statement whose keys (the externalEmployeeId, the e-mail, the names
 * and ids it refers to) are taken from the employee record itself, in SQL. A worker reads the
 * record from its sync item, so the read needs nothing but the item's id and goes out with
 * BEGIN and the lock (../run.ts: two round trips per employee); a dry run binds the record as a
 * parameter. toEmployeeContext parses its answer.
 *
 * One flat row, no aggregates and no CTEs: Postgres builds the executor state of a statement's
 * whole plan every time it runs it, and the earlier form (CTEs, json_agg, 70 plan nodes) cost
 * 430 us of Postgres CPU per run against 300 us for this one (35 nodes; bench/README.md, issue 24).
 */

/**
 * The statement, over a one-row source `i` (organization_id, input: the SyncEmployee as stored,
 * status, and the item's columns). What it looks up, from the record:
 * - the employee by (organization, externalEmployeeId), with its account and assignments;
 * - the e-mail it ends with (the record's when it has the key, null clearing it; else the
 *   stored one), who else holds it: another employee of the organization, the user with it in
 *   any organization (users are unique by e-mail) and the employee linked to that user;
 * - with an account to manage (ACTIVE with userAccount): a user of the organization, other than
 *   the employee's own, whose username is the account's (userAccount.username, else the e-mail);
 * - only for ACTIVE records: the organization's roles and groups by the names and external ids
 *   it gives, and its sites among the ids it gives that are UUIDs (in any case); archived ones
 *   are missing, as if they did not exist (docs/organization-administration.md).
 * Pairs come back as text, the 36 characters of an id followed by the name or role ('=' marks
 * a role, so that none and an empty one differ).
 */
const readFrom = (source: string) => `
select i.id, i.request_id, i.idx, i.chain_key, i.status, i.input,
  e.id as e_id, e.status as e_status, e.first_name, e.last_name, e.display_name, e.email as e_email, e.phone, e.job_title, e.department,
  e.supervisor, e.hire_date, e.termination_date, e.metadata, e.user_id,
  u.email as u_email, u.username as u_username, u.name as u_name, u.disabled as u_disabled,
  case when e.id is not null then array(select er.role_id::text || r.name from employee_roles er join roles r on r.id = er.role_id where er.employee_id = e.id) end as roles,
  case when e.id is not null then array(select eg.group_id::text || coalesce('=' || eg.member_role, '') from employee_groups eg where eg.employee_id = e.id) end as groups,
  case when e.id is not null then array(select es.site_id::text || coalesce('=' || es.site_role, '') from employee_sites es where es.employee_id = e.id) end as sites,
  (v.unchanged_since is null or e.updated_at <= v.unchanged_since) as unchanged,
  m.email,
  v.live and exists (select 1 from employees x where x.organization_id = i.organization_id and lower(x.email) = lower(m.email) and x.external_employee_id <> v.ext) as other_employee,
  ub.id as ub_id, ub.organization_id as ub_org, ub.employee_id as ub_employee, ub.is_admin as ub_admin,
  v.live and v.account and exists (select 1 from users un where un.organization_id = i.organization_id
    and lower(un.username) = lower(coalesce(v.username, m.email)) and lower(un.email) <> lower(m.email) and un.id is distinct from e.user_id) as username_taken,
  array(select r.id::text || r.name from roles r where r.organization_id = i.organization_id and r.archived_at is null and r.name = any(array(select jsonb_array_elements_text(v.roles)))) as ref_roles,
  array(select g.id::text || g.name from groups g where g.organization_id = i.organization_id and g.archived_at is null and g.name = any(array(select x->>'groupName' from jsonb_array_elements(v.groups) as x))) as ref_groups,
  array(select g.id::text || g.external_id from groups g where g.organization_id = i.organization_id and g.archived_at is null
    and g.external_id = any(array(select x->>'externalGroupId' from jsonb_array_elements(v.groups) as x))) as ref_group_ext_ids,
  array(select s.id from sites s where s.organization_id = i.organization_id and s.archived_at is null and s.id = any(array(select lower(x->>'id') from jsonb_array_elements(v.sites) as x
    where lower(x->>'id') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')::uuid[])) as ref_sites
from ${source}
  cross join lateral (select i.status = 'pending' and i.input is not null as live, i.input->>'externalEmployeeId' as ext,
    i.input->>'status' = 'ACTIVE' and jsonb_typeof(i.input->'userAccount') = 'object' as account, i.input->'userAccount'->>'username' as username,
    (i.input->>'onlyIfActiveAndUnchangedSince')::timestamptz as unchanged_since,
    case when i.input->>'status' = 'ACTIVE' and jsonb_typeof(i.input->'roles') = 'array' then i.input->'roles' else '[]' end as roles,
    case when i.input->>'status' = 'ACTIVE' and jsonb_typeof(i.input->'groups') = 'array' then i.input->'groups' else '[]' end as groups,
    case when i.input->>'status' = 'ACTIVE' and jsonb_typeof(i.input->'sites') = 'array' then i.input->'sites' else '[]' end as sites) as v
  left join employees e on v.live and e.organization_id = i.organization_id and e.external_employee_id = v.ext
  left join users u on u.id = e.user_id
  cross join lateral (select nullif(case when i.input ? 'email' then i.input->>'email' else e.email end, '') as email) as m
  left join lateral (select ue.id, ue.organization_id, ue.is_admin, (select e2.id from employees e2 where e2.user_id = ue.id) as employee_id
    from users ue where v.live and lower(ue.email) = lower(m.email)) as ub on true`;

/** A worker's item, read after its lock was granted (a run of the same item that finished meanwhile shows). */
const FROM_ITEM = readFrom(`sync_request_items i`) + `\nwhere i.id = $1 and i.request_id = $2 and i.organization_id = $3`;
/** A dry run's record, as if it were a pending item. */
const FROM_RECORD = readFrom(`(select $1::uuid as organization_id, $2::jsonb as input, 'pending' as status,
    null::uuid as id, null::uuid as request_id, null::int as idx, null::text as chain_key) as i`);

export type ContextRow = {
  id: string | null;
  request_id: string | null;
  idx: number | null;
  chain_key: string | null;
  status: string;
  input: unknown;
  e_id: string | null;
  e_status: EmployeeStatus;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  e_email: string | null;
  phone: string | null;
  job_title: string | null;
  department: string | null;
  supervisor: EmployeeFields["supervisor"];
  hire_date: string | null;
  termination_date: string | null;
  metadata: EmployeeFields["metadata"];
  user_id: string | null;
  u_email: string | null;
  u_username: string | null;
  u_name: string | null;
  u_disabled: boolean | null;
  roles: string[] | null;
  groups: string[] | null;
  sites: string[] | null;
  unchanged: boolean | null;
  email: string | null;
  other_employee: boolean;
  ub_id: string | null;
  ub_org: string | null;
  ub_employee: string | null;
  ub_admin: boolean | null;
  username_taken: boolean;
  ref_roles: string[];
  ref_groups: string[];
  ref_group_ext_ids: string[];
  ref_sites: string[];
};

/** The context of a record the caller has locked (dry runs, after lockEmployee). */
export function readEmployeeContext(tx: SqlTx, organizationId: string, employee: SyncEmployee) {
  return tx.unsafe<ContextRow[]>(FROM_RECORD, [organizationId, JSON.stringify(employee)], { prepare: true });
}

/**
 * The item and its employee's context, the keys taken from the item's input: no answer of an
 * earlier statement is needed, so it goes out together with the lock statement. No row when
 * the item does not exist; no employee context when it is not pending.
 */
export function readItemContext(tx: SqlTx, organizationId: string, requestId: string, itemId: string) {
  return tx.unsafe<ContextRow[]>(FROM_ITEM, [itemId, requestId, organizationId], { prepare: true });
}

const ID = 36; // characters of a UUID as text
/** '<id><name>' pairs as a map. */
const pairs = (xs: string[] | null) => new Map((xs ?? []).map((x) => [x.slice(0, ID), x.slice(ID)] as const));
/** '<id>' or '<id>=<role>' pairs as a map (null: no role). */
const roled = (xs: string[] | null) => new Map((xs ?? []).map((x) => [x.slice(0, ID), x.length > ID ? x.slice(ID + 1) : null] as const));

/** The parsed answer of readEmployeeContext / readItemContext. */
export function toEmployeeContext(r: ContextRow): EmployeeContext {
  const state: EmployeeState | null = r.e_id
    ? {
        id: r.e_id,
        userId: r.user_id,
        user: r.user_id ? { id: r.user_id, email: r.u_email!, username: r.u_username!, name: r.u_name, disabled: !!r.u_disabled } : null,
        fields: {
          status: r.e_status,
          firstName: r.first_name,
          lastName: r.last_name,
          displayName: r.display_name,
          email: r.e_email,
          phone: r.phone,
          jobTitle: r.job_title,
          department: r.department,
          supervisor: r.supervisor,
          hireDate: r.hire_date,
          terminationDate: r.termination_date,
          metadata: r.metadata,
        },
        assignments: { roles: pairs(r.roles), groups: roled(r.groups), sites: roled(r.sites) },
        unchanged: r.unchanged !== false,
      }
    : null;
  const holders: EmailHolders | null = r.email
    ? {
        otherEmployee: r.other_employee,
        userByEmail: r.ub_id ? { id: r.ub_id, organizationId: r.ub_org!, employeeId: r.ub_employee, isAdmin: !!r.ub_admin } : null,
        usernameTaken: r.username_taken,
      }
    : null;
  const refs: ResolvedRefs = {
    rolesByName: new Map([...pairs(r.ref_roles)].map(([id, name]) => [name, id])),
    groupsByName: new Map([...pairs(r.ref_groups)].map(([id, name]) => [name, id])),
    groupsByExternalId: new Map([...pairs(r.ref_group_ext_ids)].map(([id, ext]) => [ext, id])),
    sites: new Set(r.ref_sites),
  };
  return { state, holders, refs };
}
