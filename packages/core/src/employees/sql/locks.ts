import type { SqlTx } from "@insp/db";

/**
 * The advisory locks of an employee sync, in plain SQL (postgres.js): every write of an employee
 * (a sync item, a dry run, a SCIM write) first takes the locks of its externalEmployeeId and its
 * e-mail, so concurrent writers of one employee or one e-mail run one after another.
 */

/**
 * The SQL of the employee's transaction-scoped advisory locks: 'emp:<org>:<externalEmployeeId>'
 * and, when the sync sets an e-mail, 'email:<lower(email)>' (users are unique by e-mail across
 * organizations), taken in sorted order so concurrent transactions never deadlock on them. An
 * expression over `org`, `ext` and `email` (SQL text of the caller's statement).
 */
export const lockExpression = (org: string, ext: string, email: string) => `(
  select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
  from unnest((select array_agg(k order by k) from unnest(array['emp:' || ${org} || ':' || ${ext}, 'email:' || lower(nullif(${email}, ''))]) as k where k is not null)) as k)`;

/** Takes the employee's locks (dry runs and SCIM; a worker takes them with the item: items.ts lockItem). */
export async function lockEmployee(tx: SqlTx, organizationId: string, externalEmployeeId: string, email: string | null | undefined): Promise<void> {
  await tx.unsafe(`select ${lockExpression("$1::text", "$2::text", "$3::text")}`, [organizationId, externalEmployeeId, email ?? null]);
}

/**
 * The locks of several employees in ONE statement, all keys sorted together (the same keys and
 * order as lockExpression): for writes that touch more than one externalEmployeeId or e-mail
 * (a SCIM externalId rename holds the old and the new id, a group write its members). Take them
 * before any row lock, as the workers do.
 */
export async function lockEmployees(
  tx: SqlTx,
  organizationId: string,
  externalEmployeeIds: readonly string[],
  emails: readonly (string | null | undefined)[],
): Promise<void> {
  const exts = [...new Set(externalEmployeeIds)];
  const mails = [...new Set(emails.filter((e): e is string => !!e))];
  if (!exts.length && !mails.length) return;
  await tx`select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
    from unnest((select array_agg(distinct k order by k) from (
      select 'emp:' || ${organizationId}::text || ':' || x as k from unnest(${exts}::text[]) as x
      union all
      select 'email:' || lower(nullif(y, '')) from unnest(${mails}::text[]) as y) as keys where k is not null)) as k`;
}
