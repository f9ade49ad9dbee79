import { IdParam, errorResponses, isoTimestamp, pageQuery } from "./common.ts";
import { registry, z } from "./openapi.ts";
import { defineOperation, keyOrUser } from "./operation.ts";

/**
 * The organization's users (extension, docs/users.md): listed, read and invited by admin users and
 * API keys with users:manage (reading too: a user list is e-mail addresses, not directory data).
 */

export const USER_NAME_MAX = 200;
export const USER_EMAIL_MAX = 254;

export const InviteUserBody = z
  .strictObject({
    email: z
      .email({ message: "email must be an e-mail address" })
      .max(USER_EMAIL_MAX, `email must be at most ${USER_EMAIL_MAX} characters`)
      .openapi({ description: "Unique across all organizations (409 when already used); also the username." }),
    name: z
      .string()
      .trim()
      .min(1, "name must not be empty")
      .max(USER_NAME_MAX, `name must be at most ${USER_NAME_MAX} characters`)
      .nullable()
      .optional()
      .openapi({ description: "The name shown in the app and the welcome mail." }),
    isAdmin: z.boolean({ message: "isAdmin must be true or false" }).optional().openapi({ description: "Default false." }),
  })
  .openapi("UserInviteRequest");
export type InviteUserBody = z.output<typeof InviteUserBody>;

/** `true`/`false`, or absent for both (no default); anything else is a 400. */
const flag = (what: string) =>
  z
    .enum(["true", "false"], { message: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true"))
    .openapi({ type: "boolean", description: what });
export const UserListQuery = z.object({
  ...pageQuery,
  q: z
    .string()
    .max(USER_EMAIL_MAX, `q must be at most ${USER_EMAIL_MAX} characters`)
    .optional()
    .openapi({ description: "Only users whose e-mail or name starts with this (case-insensitive)." }),
  disabled: flag("true: only disabled users; false: only enabled ones; absent: both."),
  isAdmin: flag("true: only admins; false: only non-admins; absent: both."),
});

export const UserView = registry.register(
  "User",
  z.object({
    id: z.uuid(),
    email: z.string(),
    username: z.string(),
    name: z.string().nullable(),
    isAdmin: z.boolean(),
    disabled: z.boolean().openapi({ description: "A disabled user cannot sign in and their tokens are refused." }),
    mustResetPassword: z.boolean().openapi({ description: "true until the user has chosen a password (after an invitation)." }),
    employeeId: z.uuid().nullable().openapi({ description: "The employee record (HR sync) this user belongs to; null: none." }),
    externalEmployeeId: z.string().nullable().openapi({ description: "That employee's id in the HR system." }),
    managedByHrSync: z.boolean().openapi({ description: "true when linked to an employee: the HR sync owns hrOwnedFields." }),
    hrOwnedFields: z.array(z.string()).openapi({ description: "Fields the HR sync writes for this user (name, email, disabled); empty when not linked." }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  }),
);
const CreatedUser = registry.register(
  "InvitedUser",
  UserView.extend({ welcomeMailQueued: z.boolean().openapi({ description: "The welcome mail with a temporary password is on its way." }) }),
);
const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });
const UserList = registry.register("UserList", z.object({ users: z.array(UserView), pagination }));

const manage = keyOrUser("users:manage");
const who = "Admin users, and API keys with users:manage (another user: 403).";
const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export const listUsersOp = defineOperation({
  method: "get",
  path: "/api/users",
  summary: "List users; extension",
  description: `${who} By e-mail. Each with its employee link (employeeId, externalEmployeeId, managedByHrSync). Never a password or its hash.`,
  auth: manage,
  request: { query: UserListQuery },
  responses: { 200: json(UserList, "A page of users"), ...errorResponses(400, 401, 403, 429) },
});

export const getUserOp = defineOperation({
  method: "get",
  path: "/api/users/{id}",
  summary: "One user; extension",
  description: `${who} Another organization's user is a 404.`,
  auth: manage,
  request: { params: IdParam },
  responses: { 200: json(UserView, "The user"), ...errorResponses(401, 403, 404, 429) },
});

export const inviteUserOp = defineOperation({
  method: "post",
  path: "/api/users",
  summary: "Invite a user; extension",
  description:
    `${who} Creates the user with mustResetPassword and sends the same welcome mail as the HR sync, with a temporary password made at sending ` +
    "(it exists only in the mail); the user must choose a password (POST /api/auth/password) before anything else. An e-mail already used (in any organization) is a 409.",
  auth: manage,
  request: {
    body: { content: { "application/json": { schema: InviteUserBody, example: { email: "jane.doe@example.com", name: "Jane Doe", isAdmin: false } } } },
  },
  responses: { 201: json(CreatedUser, "The user; the welcome mail is queued"), ...errorResponses(400, 401, 403, 409, 429) },
});

export const PatchUserBody = z
  .strictObject({
    name: z.string().trim().min(1, "name must not be empty").max(USER_NAME_MAX, `name must be at most ${USER_NAME_MAX} characters`).nullable().optional(),
    isAdmin: z.boolean({ message: "isAdmin must be true or false" }).optional(),
    disabled: z
      .boolean({ message: "disabled must be true or false" })
      .optional()
      .openapi({ description: "true: the user can no longer sign in and their tokens are refused at once." }),
  })
  .openapi("UserPatchRequest");

const IfMatch = z.object({ "if-match": z.string().openapi({ example: '"3f1c0a9b2d4e5f60718a"', description: "The ETag of GET /api/users/{id}." }) });

export const patchUserOp = defineOperation({
  method: "patch",
  path: "/api/users/{id}",
  summary: "Change a user; extension",
  description:
    `${who} Send If-Match with the ETag of GET /api/users/{id} (428 without it, 412 when the user changed since). ` +
    "For a user linked to an employee (managedByHrSync), the fields in hrOwnedFields (name, email, disabled) belong to the HR sync: changing one is a 409 naming it. " +
    "Disabling or demoting the organization's last active admin is a 409. Disabling (or demoting) refuses the user's tokens at once.",
  auth: manage,
  request: {
    params: IdParam,
    headers: IfMatch,
    body: { content: { "application/json": { schema: PatchUserBody, example: { disabled: true } } } },
  },
  responses: { 200: json(UserView, "The user as changed (with its new ETag)"), ...errorResponses(400, 401, 403, 404, 409, 412, 428, 429) },
});

export const resetUserPasswordOp = defineOperation({
  method: "post",
  path: "/api/users/{id}/reset-password",
  summary: "Mail a user a new temporary password; extension",
  description:
    `${who} The user's password and their tokens stop working at once; a welcome mail with a new temporary password (made at sending) is queued, ` +
    "and the user must choose a password (POST /api/auth/password) after signing in with it. A disabled user is a 409.",
  auth: manage,
  request: { params: IdParam },
  responses: { 200: json(CreatedUser, "The user; the mail is queued"), ...errorResponses(401, 403, 404, 409, 429) },
});
