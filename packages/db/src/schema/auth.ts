import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, orgId, ts, updatedAt } from "./columns.ts";

/**
 * Users of all organizations. E-mail is unique across organizations: the sync error
 * "User with that e-mail already exists in a different organization" implies it.
 */
export const users = pgTable(
  "users",
  {
    id: id(),
    organizationId: orgId(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    name: text("name"),
    /** `argon2id$...` for chosen passwords, `sha256$...` for random temporary ones; null: no password yet. */
    passwordHash: text("password_hash"),
    mustResetPassword: boolean("must_reset_password").notNull().default(false),
    isAdmin: boolean("is_admin").notNull().default(false),
    disabled: boolean("disabled").notNull().default(false),
    /** User tokens issued before this instant are refused (disable, password change). */
    tokensValidAfter: ts("tokens_valid_after").notNull().defaultNow(),
    /** The account of an erased employee (docs/erasure.md): its identity is a pseudonym and it stays disabled for good (the check below). */
    erasedAt: ts("erased_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_org_username_key").on(t.organizationId, sql`lower(${t.username})`),
    // Whatever writes a user (the API, the HR sync, SCIM, the CLI), an erased account is never enabled again.
    check("users_erased_disabled_check", sql`${t.erasedAt} is null or ${t.disabled}`),
  ],
);

/** API keys: only a hash is stored; `prefix` is the first characters, for display. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    /** What the key may do (docs/authentication.md, API key scopes); keys made before scopes existed got all of them. */
    scopes: text("scopes").array().notNull(),
    /** Who created it: `{type, id}` of the audit actor (api_key, user, admin_cli). */
    createdByType: text("created_by_type").notNull().default("admin_cli"),
    createdById: text("created_by_id"),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    /** Refused at authentication from this instant on (401, "API key expired"); null: never expires. */
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_org_idx").on(t.organizationId)],
);

/** OAuth 2.0 clients for the client-credentials grant (employee sync). */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: id(),
    organizationId: orgId(),
    name: text("name").notNull(),
    clientId: text("client_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    /** After a rotation the previous secret is still accepted until previousSecretExpiresAt (OAUTH_CLIENT_SECRET_GRACE_HOURS). */
    previousSecretHash: text("previous_secret_hash"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    scopes: text("scopes").array().notNull(),
    createdAt: createdAt(),
    /** Last token issued to it (at most once a minute is recorded). */
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("oauth_clients_client_id_key").on(t.clientId), index("oauth_clients_org_idx").on(t.organizationId)],
);

/**
 * Token signing keys shared by every API replica when no key is configured.
 * Not tenant data. The newest active key signs; all listed keys verify (rotation).
 */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  alg: text("alg").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  publicJwk: jsonb("public_jwk").notNull(),
  createdAt: createdAt(),
  retiredAt: ts("retired_at"),
});
