import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@insp/db";
import { apiKeys, employeeRoles, employees, oauthClients, roles, users } from "@insp/db/schema";
import { recordAudit } from "../audit/index.ts";
import { AppError, unauthorized } from "../errors.ts";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from "./passwords.ts";
import { hashSecret, safeEqualHex } from "./secrets.ts";
import type { TokenClaims, TokenService } from "./tokens.ts";

/** Who is calling, as fixed by the credential. `organizationId` scopes every query. */
export type Principal =
  | { kind: "apiKey"; organizationId: string; apiKeyId: string; scopes: readonly string[] }
  | { kind: "user"; organizationId: string; userId: string; isAdmin: boolean; mustResetPassword: boolean }
  | { kind: "client"; organizationId: string; clientId: string; scopes: string[] };

const LAST_USE_INTERVAL_MS = 60_000;
/** API key id -> when this process last sent its lastUsedAt update (one entry per key in use). */
const lastUseSent = new Map<string, number>();

/** The key's row by its hash, in plain SQL: it runs before every API-key request (Drizzle's query building cost more than the lookup). */
export async function authenticateApiKey(db: Db, key: string, pepper?: string): Promise<Principal | null> {
  const [row] = await db.$client<{ id: string; organizationId: string; scopes: string[]; expired: string | null }[]>`
    select id, organization_id as "organizationId", scopes,
      case when expires_at <= now() then to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end as expired
    from api_keys where key_hash = ${hashSecret(key, pepper)} and revoked_at is null limit 1`;
  if (!row) return null;
  // An expired key is refused like a revoked one, but says why: its owner knows what to renew.
  if (row.expired) throw unauthorized(`API key expired at ${row.expired}: create a new one`);
  // Last use, at most once a minute per key; not awaited, a lost update is harmless. This
  // process sends the update at most once a minute per key too: sent with every request, it
  // was one more statement per request for nothing (bench/README.md, list).
  const now = Date.now();
  if ((lastUseSent.get(row.id) ?? 0) <= now - LAST_USE_INTERVAL_MS) {
    lastUseSent.set(row.id, now);
    db.update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, row.id), sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - interval '1 minute')`))
      .then(
        () => {},
        () => {},
      );
  }
  return { kind: "apiKey", organizationId: row.organizationId, apiKeyId: row.id, scopes: row.scopes };
}

/**
 * OAuth client by id and secret (constant-time compare): its current secret, or the previous one
 * until the rotation's grace ends (previous_secret_expires_at, by the database's clock); null when
 * unknown, revoked or wrong. Records the client's last use, at most once a minute.
 */
export async function authenticateClient(db: DbOrTx, clientId: string, secret: string, pepper?: string) {
  const [row] = await db
    .select({
      id: oauthClients.id,
      clientId: oauthClients.clientId,
      organizationId: oauthClients.organizationId,
      scopes: oauthClients.scopes,
      secretHash: oauthClients.secretHash,
      revokedAt: oauthClients.revokedAt,
      previousSecretHash: sql<string | null>`case when ${oauthClients.previousSecretExpiresAt} > now() then ${oauthClients.previousSecretHash} end`,
    })
    .from(oauthClients)
    .where(eq(oauthClients.clientId, clientId))
    .limit(1);
  const presented = hashSecret(secret, pepper);
  if (!row || row.revokedAt) return null;
  const current = safeEqualHex(row.secretHash, presented);
  const previous = row.previousSecretHash !== null && safeEqualHex(row.previousSecretHash, presented);
  if (!current && !previous) return null;
  await db
    .update(oauthClients)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(oauthClients.id, row.id), sql`(${oauthClients.lastUsedAt} is null or ${oauthClients.lastUsedAt} < now() - interval '1 minute')`));
  return { clientId: row.clientId, organizationId: row.organizationId, scopes: row.scopes };
}

/**
 * Checks a verified token against the current state of its subject: a revoked client,
 * or a disabled user, or a user token issued before a password change, is refused.
 */
export async function principalFromToken(db: DbOrTx, claims: TokenClaims): Promise<Principal | null> {
  if (claims.use === "client") {
    const [row] = await db
      .select({ organizationId: oauthClients.organizationId, revokedAt: oauthClients.revokedAt })
      .from(oauthClients)
      .where(eq(oauthClients.clientId, claims.sub))
      .limit(1);
    if (!row || row.revokedAt || row.organizationId !== claims.org) return null;
    return { kind: "client", organizationId: row.organizationId, clientId: claims.sub, scopes: claims.scope.split(" ").filter(Boolean) };
  }
  const user = await loadUserAuth(db, claims.sub);
  if (!user || user.disabled || user.organizationId !== claims.org) return null;
  if (claims.iat * 1000 < user.tokensValidAfter.getTime()) return null;
  return { kind: "user", organizationId: user.organizationId, userId: user.id, isAdmin: user.isAdmin, mustResetPassword: user.mustResetPassword };
}

/** A user is an admin by flag, or through the `admin` role of their linked employee. */
async function loadUserAuth(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      email: users.email,
      disabled: users.disabled,
      mustResetPassword: users.mustResetPassword,
      passwordHash: users.passwordHash,
      tokensValidAfter: users.tokensValidAfter,
      isAdmin: sql<boolean>`${users.isAdmin} or exists (
        select 1 from ${employees} e join ${employeeRoles} er on er.employee_id = e.id join ${roles} r on r.id = er.role_id
        where e.user_id = "users"."id" and r.name = 'admin')`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export interface LoginResult {
  accessToken: string;
  expiresIn: number;
  mustResetPassword: boolean;
}

/**
 * Wraps one password check of the account `email` names (known or not): answers the verdict of
 * `check`, or throws without running it (the API's guessing limit, docs/authentication.md). The
 * default only runs the check.
 */
export type PasswordGuard = (email: string, check: () => Promise<boolean>) => Promise<boolean>;
const unguarded: PasswordGuard = (_email, check) => check();

const INVALID_LOGIN = "Invalid email or password";

/** Signs in; every attempt on a known e-mail is audited (user.login, user.login_failed), under `requestId`. */
export async function login(
  db: DbOrTx,
  tokens: TokenService,
  email: string,
  password: string,
  ttlSeconds: number,
  requestId: string | null = null,
  guard: PasswordGuard = unguarded,
): Promise<LoginResult> {
  const [user] = await db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      passwordHash: users.passwordHash,
      disabled: users.disabled,
      mustResetPassword: users.mustResetPassword,
    })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  // verifyPassword costs one argon2id check for unknown users too, so response time does not
  // reveal which e-mails exist. A disabled account's right password is a failure like any other.
  const ok = await guard(email, async () => (await verifyPassword(user?.passwordHash ?? null, password)) && !!user && !user.disabled);
  if (!user || !ok) {
    if (user)
      await recordAudit(
        db,
        { actorType: "anonymous", actorId: null, requestId },
        { organizationId: user.organizationId, action: "user.login_failed", resourceType: "user", resourceId: user.id },
      );
    throw unauthorized(INVALID_LOGIN);
  }
  await recordAudit(
    db,
    { actorType: "user", actorId: user.id, requestId },
    { organizationId: user.organizationId, action: "user.login", resourceType: "user", resourceId: user.id },
  );
  const accessToken = await tokens.sign({ use: "user", sub: user.id, org: user.organizationId, scope: "user" }, ttlSeconds);
  return { accessToken, expiresIn: ttlSeconds, mustResetPassword: user.mustResetPassword };
}

/**
 * The new password is checked before the current one, so that only a wrong currentPassword
 * reaches the guard as a failed check (a too short new one is not a guess).
 */
export async function changePassword(
  db: Db,
  userId: string,
  currentPassword: string,
  newPassword: string,
  requestId: string | null = null,
  guard: PasswordGuard = unguarded,
): Promise<void> {
  const user = await loadUserAuth(db, userId);
  if (!user || user.disabled) throw unauthorized();
  if (newPassword.length < MIN_PASSWORD_LENGTH) throw new AppError("invalid", `newPassword must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (newPassword === currentPassword) throw new AppError("invalid", "newPassword must differ from currentPassword");
  if (!(await guard(user.email, () => verifyPassword(user.passwordHash, currentPassword)))) throw new AppError("invalid", "currentPassword is incorrect");
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, mustResetPassword: false, tokensValidAfter: sql`now()` })
      .where(eq(users.id, userId));
    await recordAudit(
      tx,
      { actorType: "user", actorId: userId, requestId },
      { organizationId: user.organizationId, action: "user.password_changed", resourceType: "user", resourceId: userId, changedFields: ["password"] },
    );
  });
}
