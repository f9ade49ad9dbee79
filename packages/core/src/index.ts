/**
 * The public surface of @insp/core: what the api, worker and admin apps may use. Each feature
 * folder's index.ts names its own exports; files inside a feature import each other directly.
 */
export { AppError, badRequest, forbidden, isBlank, isUuid, notFound, unauthorized } from "./errors.ts";
export { etagListMatches, parseETagList } from "./etag.ts";
export { expireKeys, idempotencyKeyOf } from "./idempotency.ts";
export { createLogger, serializeError, type Logger } from "./logger.ts";
export { installProcessGuards } from "./process-guards.ts";
export { checkReadiness } from "./health.ts";
export { API_KEY_PREFIX, generateSecret, hashSecret, safeEqualHex } from "./auth/secrets.ts";
export { MIN_PASSWORD_LENGTH, generateTemporaryPassword, hashPassword, hashTemporaryPassword, verifyPassword } from "./auth/passwords.ts";
export { TokenService } from "./auth/tokens.ts";
export { authenticateApiKey, authenticateClient, changePassword, login, principalFromToken, type PasswordGuard, type Principal } from "./auth/credentials.ts";
export { whoAmI } from "./auth/whoami.ts";
export { createApiKey, createOAuthClient, createOrganization, listings } from "./directory/admin.ts";
export * from "./credentials/index.ts";
export { getUser, inviteUser, listUsers, resetUserPassword, updateUser, userETag } from "./users/index.ts";
export { seedDemo, type DemoSeed } from "./directory/seed.ts";
export * from "./directory/index.ts";
export * from "./templates/index.ts";
export * from "./inspections/index.ts";
export * from "./actions/index.ts";
export * from "./schedules/index.ts";
export * from "./media/index.ts";
export * from "./exports/index.ts";
export * from "./reports/index.ts";
export * from "./scim/index.ts";
export * from "./employees/index.ts";
export * from "./mail/index.ts";
export * from "./changes/index.ts";
export * from "./feeds/index.ts";
export * from "./webhooks/index.ts";
export * from "./audit/index.ts";
