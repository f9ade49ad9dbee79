import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { users } from "@insp/db/schema";
import { UNUSABLE_PASSWORD } from "../auth/passwords.ts";
import type { LinkedUser } from "./store.ts";

/**
 * User accounts of synced employees. The employee's roles apply to its account
 * through the employee link (auth/credentials.ts: role `admin` makes an admin).
 */

export interface AccountValues {
  email: string;
  username: string;
  name: string | null;
}

/**
 * A new account. With forcePasswordReset it has a password nobody knows and must
 * reset it: the welcome mail job sets a temporary password at delivery (mail/deliver.ts),
 * so the password is never stored in plain text nor put in a job payload.
 */
export async function createUserAccount(tx: DbOrTx, organizationId: string, id: string, v: AccountValues, forcePasswordReset: boolean): Promise<void> {
  await tx
    .insert(users)
    .values({ id, organizationId, email: v.email, username: v.username, name: v.name, passwordHash: forcePasswordReset ? UNUSABLE_PASSWORD : null, mustResetPassword: forcePasswordReset });
}

/**
 * Brings an existing account in line with the employee; no write when nothing differs.
 * `enable` (the employee comes back to ACTIVE) re-enables an account the sync disabled;
 * otherwise a disabled account stays disabled (see sync-employee.ts, planAccount).
 */
export async function updateUserAccount(tx: DbOrTx, organizationId: string, current: LinkedUser, v: AccountValues, enable: boolean): Promise<void> {
  const reEnable = enable && current.disabled;
  if (current.email === v.email && current.username === v.username && current.name === v.name && !reEnable) return;
  await tx
    .update(users)
    .set({ email: v.email, username: v.username, name: v.name, ...(reEnable ? { disabled: false } : {}), updatedAt: sql`now()` })
    .where(and(eq(users.id, current.id), eq(users.organizationId, organizationId)));
}

/**
 * Links an account that exists in the organization without an employee (e.g. made with the
 * admin CLI). Never an administrator's (the caller refuses those), and a disabled account
 * stays disabled: a sync must not revive an account someone else turned off.
 */
export async function adoptUserAccount(tx: DbOrTx, organizationId: string, userId: string, v: AccountValues): Promise<void> {
  await tx
    .update(users)
    .set({ email: v.email, username: v.username, name: v.name, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId), eq(users.isAdmin, false)));
}

/**
 * INACTIVE and TERMINATED disable the account: login is refused and tokens issued
 * before now stop working (tokensValidAfter). Coming back to ACTIVE enables it again.
 */
export async function setAccountDisabled(tx: DbOrTx, organizationId: string, userId: string, disabled: boolean): Promise<void> {
  await tx
    .update(users)
    .set(disabled ? { disabled: true, tokensValidAfter: sql`now()`, updatedAt: sql`now()` } : { disabled: false, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
}
