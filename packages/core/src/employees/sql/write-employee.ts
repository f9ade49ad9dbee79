import type postgres from "postgres";
import type { SqlTx } from "@insp/db";
import type { EmployeeWrites } from "../plan.ts";

/**
 * The one write of an employee's transaction, in plain SQL (postgres.js, prepared once per
 * connection): a batch runs 500 of them, and each statement costs Postgres far more than its
 * round trip. Per employee: the locks (locks.ts, items.ts), ONE read for everything the rules
 * need (read-context.ts), ONE write for everything they decided (data-modifying CTEs, here), and
 * COMMIT; a worker sends them in two round trips (../run.ts).
 */

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * Every write of one employee in ONE statement: data-modifying CTEs for the account, the
 * employee, the assignment changes, the welcome mail and the item's outcome (foreign keys are
 * checked at the end of the statement, so their order does not matter), the successor as its
 * answer. Each combination of parts is its own prepared statement.
 */
export function writeEmployee(tx: SqlTx, w: EmployeeWrites) {
  const org = w.organizationId;
  const eid = w.employeeId;
  const parts: postgres.PendingQuery<postgres.Row[]>[] = [];
  const u = w.user;
  if (u?.kind === "create") {
    parts.push(tx`w_user as (insert into users (id, organization_id, email, username, name, password_hash, must_reset_password)
      values (${u.id}, ${org}, ${u.email}, ${u.username}, ${u.name}, ${u.passwordHash}, ${u.forcePasswordReset}))`);
  } else if (u?.kind === "update") {
    parts.push(tx`w_user as (update users set email = ${u.email}, username = ${u.username}, name = ${u.name},
      disabled = case when ${u.enable} then false else disabled end, updated_at = now() where id = ${u.id} and organization_id = ${org})`);
  } else if (u?.kind === "adopt") {
    parts.push(tx`w_user as (update users set email = ${u.email}, username = ${u.username}, name = ${u.name}, updated_at = now()
      where id = ${u.id} and organization_id = ${org} and is_admin = false)`);
  } else if (u?.kind === "disable") {
    parts.push(
      tx`w_user as (update users set disabled = true, tokens_valid_after = now(), updated_at = now() where id = ${u.id} and organization_id = ${org})`,
    );
  } else if (u?.kind === "enable") {
    parts.push(tx`w_user as (update users set disabled = false, updated_at = now() where id = ${u.id} and organization_id = ${org})`);
  }
  const e = w.employee;
  if (e) {
    const f = e.fields;
    parts.push(
      e.insert
        ? tx`w_employee as (insert into employees (id, organization_id, external_employee_id, status, first_name, last_name, display_name, email, phone,
            job_title, department, supervisor, hire_date, termination_date, metadata, user_id, last_sync_request_id)
          values (${eid}, ${org}, ${e.externalEmployeeId}, ${f.status}, ${f.firstName}, ${f.lastName}, ${f.displayName}, ${f.email}, ${f.phone},
            ${f.jobTitle}, ${f.department}, ${json(f.supervisor)}::jsonb, ${f.hireDate}, ${f.terminationDate}, ${json(f.metadata)}::jsonb, ${e.userId}, ${w.requestId}))`
        : tx`w_employee as (update employees set status = ${f.status}, first_name = ${f.firstName}, last_name = ${f.lastName}, display_name = ${f.displayName},
            email = ${f.email}, phone = ${f.phone}, job_title = ${f.jobTitle}, department = ${f.department}, supervisor = ${json(f.supervisor)}::jsonb,
            hire_date = ${f.hireDate}, termination_date = ${f.terminationDate}, metadata = ${json(f.metadata)}::jsonb, user_id = ${e.userId},
            last_sync_request_id = ${w.requestId}, updated_at = now()
          where id = ${eid} and organization_id = ${org})`,
    );
  }
  if (e) {
    parts.push(
      tx`w_change as (insert into change_events (organization_id, resource_type, resource_id, change) values (${org}, 'employee', ${eid}, ${e.change}))`,
    );
    // The audit entry: the OAuth client that sent the sync request, and its HTTP request id.
    parts.push(tx`w_audit as (insert into audit_log (organization_id, actor_type, actor_id, action, resource_type, resource_id, changed_fields, request_id)
      select ${org}, case when r.client_id is null then 'anonymous' else 'oauth_client' end, r.client_id, ${`employee.${e.change}`}, 'employee', ${eid}, ${e.changedFields}::text[], r.request_id
      from sync_requests r where r.id = ${w.requestId} and r.organization_id = ${org})`);
  }
  const d = w.diff;
  if (d.removeRoles.length)
    parts.push(
      tx`w_roles_out as (delete from employee_roles where employee_id = ${eid} and organization_id = ${org} and role_id = any(${d.removeRoles}::uuid[]))`,
    );
  if (d.addRoles.length)
    parts.push(tx`w_roles_in as (insert into employee_roles (employee_id, role_id, organization_id) select ${eid}, unnest(${d.addRoles}::uuid[]), ${org})`);
  if (d.removeGroups.length)
    parts.push(
      tx`w_groups_out as (delete from employee_groups where employee_id = ${eid} and organization_id = ${org} and group_id = any(${d.removeGroups}::uuid[]))`,
    );
  // A new employee has no assignments yet: plain inserts. Otherwise a put may change the role
  // of an assignment it has (an upsert, which costs Postgres a speculative insertion).
  const fresh = w.employee?.insert === true;
  const upsert = (clause: postgres.PendingQuery<postgres.Row[]>) => (fresh ? tx`` : clause);
  if (d.putGroups.size) {
    parts.push(tx`w_groups_in as (insert into employee_groups (employee_id, group_id, organization_id, member_role)
      select ${eid}, g, ${org}, r from unnest(${[...d.putGroups.keys()]}::uuid[], ${[...d.putGroups.values()]}::text[]) as x(g, r)
      ${upsert(tx`on conflict (employee_id, group_id) do update set member_role = excluded.member_role`)})`);
  }
  if (d.removeSites.length)
    parts.push(
      tx`w_sites_out as (delete from employee_sites where employee_id = ${eid} and organization_id = ${org} and site_id = any(${d.removeSites}::uuid[]))`,
    );
  if (d.putSites.size) {
    parts.push(tx`w_sites_in as (insert into employee_sites (employee_id, site_id, organization_id, site_role)
      select ${eid}, s, ${org}, r from unnest(${[...d.putSites.keys()]}::uuid[], ${[...d.putSites.values()]}::text[]) as x(s, r)
      ${upsert(tx`on conflict (employee_id, site_id) do update set site_role = excluded.site_role`)})`);
  }
  if (w.mail) {
    parts.push(tx`w_mail as (insert into mail_outbox (id, organization_id, user_id, kind, to_address, data)
      values (${w.mail.id}, ${org}, ${w.mail.userId}, 'welcome', ${w.mail.to}, ${json(w.mail.data)}::jsonb))`);
  }
  const it = w.item;
  if (!it) {
    if (parts.length === 0) return tx<{ id: string; idx: number }[]>`select null::uuid as id, null::int as idx where false`;
    return tx<{ id: string; idx: number }[]>`with ${parts.reduce((a, p) => tx`${a}, ${p}`)} select null::uuid as id, null::int as idx where false`;
  }
  // "Not done or failed" rather than "pending": see PENDING in items.ts.
  parts.push(tx`w_item as (update sync_request_items set status = 'done', result = ${json(it.result)}::jsonb, updated_at = now()
    where id = ${it.id} and organization_id = ${org} and status not in ('done', 'failed'))`);
  // The data-modifying CTEs always run; the select sees the other items as they were.
  return tx<{ id: string; idx: number }[]>`with ${parts.reduce((a, p) => tx`${a}, ${p}`)}
    select id, idx from sync_request_items
    where request_id = ${it.requestId} and organization_id = ${org} and status = 'pending' and chain_key = ${it.chainKey}::text and idx > ${it.idx}
    order by idx limit 1`;
}
