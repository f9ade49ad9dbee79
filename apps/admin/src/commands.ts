import type { Db } from "@insp/db";
import {
  AppError,
  createAsset,
  createAssetType,
  listAssets,
  createGroup,
  createOrganization,
  createResponseType,
  createRole,
  createSite,
  inviteUser,
  generateTemporaryPassword,
  isUuid,
  issueApiKey,
  issueOAuthClient,
  listApiKeys,
  listOAuthClients,
  listAssetTypes,
  listGroups,
  listResponseTypes,
  listRoles,
  listSites,
  listUsers,
  listings,
  rotateOAuthClientSecret,
  revokeApiKey,
  revokeOAuthClient,
  seedDemo,
  ADMIN_CLI,
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  approveSession,
  cancelSession,
  eraseEmployee,
  listSessions,
  type SecretBox,
  type SyncServices,
  type TargetPolicy,
  type WebhookEventType,
} from "@insp/core";
import {
  ALL_API_KEY_SCOPES,
  CreateGroupBody,
  CreateAssetBody,
  CreateAssetTypeBody,
  CreateResponseTypeBody,
  CreateRoleBody,
  CreateSiteBody,
  CreateWebhookBody,
  SCIM_SCOPE,
  SYNC_SCOPE,
  isApiKeyScope,
  type ApiKeyScope,
  type z,
} from "@insp/contracts";

type Flags = Record<string, string | boolean | string[] | undefined>;

/** The scopes an OAuth client may hold. */
const SCOPES = [SYNC_SCOPE, SCIM_SCOPE];
interface CommandContext {
  db: Db;
  /** Queues for commands that start work (approving a sync session); made on first use. */
  sync: () => Promise<SyncServices>;
  pepper?: string;
  webhooks: { box: SecretBox; policy: TargetPolicy };
  flags: Flags;
  positionals: string[];
}
/** `usesQueue`: the command calls ctx.sync(), so it needs Redis (the others need only Postgres). */
type Command = { usage: string; summary: string; usesQueue?: boolean; run: (ctx: CommandContext) => Promise<unknown> };

const str = (flags: Flags, name: string, required = true): string => {
  const v = flags[name];
  if (typeof v === "string" && v.trim()) return v.trim();
  if (required) throw new AppError("invalid", `--${name} is required`);
  return "";
};
/** A body checked with the API's own schema; its messages name the field, as the API's 400 does. */
function parsed<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AppError("invalid", r.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  return r.data;
}

const org = (flags: Flags) => {
  const id = str(flags, "org");
  if (!isUuid(id)) throw new AppError("invalid", "--org must be an organization id (UUID)");
  return id;
};

/** A --field value: JSON when it parses (a number, true, a quoted string), else the text itself. */
const jsonOrText = (v: string): unknown => {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** Every page of a credentials list (the same service as GET /api/api-keys, /api/oauth-clients). */
async function allPages<T>(page: (q: { limit: number; offset: number }) => Promise<[T[], boolean]>): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const [rows, more] = await page({ limit: 100, offset });
    all.push(...rows);
    if (!more) return all;
  }
}

/** Every page of a directory list service, archived rows included. */
const directoryPages = <T>(page: (q: { limit: number; offset: number; includeArchived: true }) => Promise<[T[], { pagination: { hasMore: boolean } }]>) =>
  allPages<T>((q) => page({ ...q, includeArchived: true }).then(([rows, p]) => [rows, p.pagination.hasMore]));

const LISTS = {
  orgs: (ctx: CommandContext) => listings.organizations(ctx.db),
  "api-keys": (ctx: CommandContext) => allPages((q) => listApiKeys(ctx.db, org(ctx.flags), "admin_cli", q).then((p) => [p.apiKeys, p.pagination.hasMore])),
  "oauth-clients": (ctx: CommandContext) =>
    allPages((q) => listOAuthClients(ctx.db, org(ctx.flags), "admin_cli", q).then((p) => [p.oauthClients, p.pagination.hasMore])),
  // The same list services as GET /api/users, /api/sites, ... (archived rows included), with the columns an operator reads.
  users: (ctx: CommandContext) =>
    allPages((q) =>
      listUsers(ctx.db, org(ctx.flags), "admin_cli", q).then((p) => [
        p.users.map(({ id, email, name, isAdmin, disabled, mustResetPassword, managedByHrSync }) => ({
          id,
          email,
          name,
          isAdmin,
          disabled,
          mustResetPassword,
          managedByHrSync,
        })),
        p.pagination.hasMore,
      ]),
    ),
  sites: (ctx: CommandContext) =>
    directoryPages((q) => listSites(ctx.db, org(ctx.flags), q).then((p) => [p.sites.map(({ id, name, code, archived }) => ({ id, name, code, archived })), p])),
  groups: (ctx: CommandContext) =>
    directoryPages((q) =>
      listGroups(ctx.db, org(ctx.flags), q).then((p) => [
        p.groups.map(({ id, name, externalGroupId, archived }) => ({ id, name, externalGroupId, archived })),
        p,
      ]),
    ),
  roles: (ctx: CommandContext) =>
    directoryPages((q) =>
      listRoles(ctx.db, org(ctx.flags), q).then((p) => [p.roles.map(({ id, name, holders, archived }) => ({ id, name, holders, archived })), p]),
    ),
  "asset-types": (ctx: CommandContext) =>
    directoryPages((q) => listAssetTypes(ctx.db, org(ctx.flags), q).then((p) => [p.assetTypes.map(({ id, name, archived }) => ({ id, name, archived })), p])),
  assets: (ctx: CommandContext) =>
    directoryPages((q) =>
      listAssets(ctx.db, org(ctx.flags), q).then((p) => [
        p.assets.map(({ id, name, code, status, assetTypeId, siteId, archived }) => ({ id, name, code, status, assetTypeId, siteId, archived })),
        p,
      ]),
    ),
  "response-types": (ctx: CommandContext) =>
    directoryPages((q) =>
      listResponseTypes(ctx.db, org(ctx.flags), q).then((p) => [
        p.responseTypes.map(({ id, name, inputType, options, archived }) => ({
          id,
          name,
          inputType,
          options: options.map((o) => ({ id: o.id, label: o.label, value: o.value })),
          archived,
        })),
        p,
      ]),
    ),
  webhooks: (ctx: CommandContext) => listEndpoints(ctx.db, org(ctx.flags), "admin_cli"),
  "sync-sessions": (ctx: CommandContext) =>
    listSessions(ctx.db, org(ctx.flags)).then((rows) =>
      rows.map(({ sessionId, status, scope, batches, employeesSeen, createdAt, expiresAt, wouldDeactivate, deactivated }) => ({
        sessionId,
        status,
        scope: JSON.stringify(scope),
        batches,
        employeesSeen,
        createdAt,
        expiresAt,
        wouldDeactivate: wouldDeactivate?.length ?? null,
        deactivated: deactivated?.length ?? null,
      })),
    ),
} as const;

/** Every operator command. Secrets are printed once, on creation, and stored only as hashes. */
export const commands: Record<string, Command> = {
  "seed-demo": {
    usage: "seed-demo [--name N]",
    summary: "Create a complete demo organization (new on every call) and print its credentials",
    run: (ctx) => seedDemo(ctx.db, { pepper: ctx.pepper, name: str(ctx.flags, "name", false) || undefined }),
  },
  "create-org": { usage: "create-org --name N", summary: "Create an organization", run: (ctx) => createOrganization(ctx.db, str(ctx.flags, "name")) },
  "create-api-key": {
    usage: "create-api-key --org ID [--name N] [--scope S ...] [--expires-at ISO_DATE_TIME]",
    summary: `Create an API key (shown once) with these scopes (repeat --scope; default: all of ${ALL_API_KEY_SCOPES.join(", ")})`,
    run: (ctx) => {
      const raw = ctx.flags.scope;
      const scopes = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [...ALL_API_KEY_SCOPES];
      const unknown = scopes.filter((s) => !isApiKeyScope(s));
      if (unknown.length) throw new AppError("invalid", `--scope must be one of ${ALL_API_KEY_SCOPES.join(", ")} (got ${unknown.join(", ")})`);
      const expiresAt = str(ctx.flags, "expires-at", false) || null;
      const name = str(ctx.flags, "name", false) || "api key";
      return issueApiKey(ctx.db, org(ctx.flags), "admin_cli", { name, scopes: scopes as ApiKeyScope[], expiresAt }, { pepper: ctx.pepper });
    },
  },
  "create-oauth-client": {
    usage: `create-oauth-client --org ID [--name N] [--scope ${SCOPES.join("|")} ...]`,
    summary: "Create an OAuth client (secret shown once): scope employees:sync (the default) for employee sync, scim for SCIM 2.0 provisioning",
    run: (ctx) => {
      const raw = ctx.flags.scope;
      const scopes = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [SYNC_SCOPE];
      const unknown = scopes.filter((s) => !SCOPES.includes(s));
      if (unknown.length) throw new AppError("invalid", `--scope must be one of ${SCOPES.join(", ")} (got ${unknown.join(", ")})`);
      const name = str(ctx.flags, "name", false) || "oauth client";
      return issueOAuthClient(ctx.db, org(ctx.flags), "admin_cli", { name, scopes: [...new Set(scopes)] }, { pepper: ctx.pepper });
    },
  },
  "create-user": {
    usage: "create-user --org ID --email E [--name N] [--password P] [--admin]",
    summary: "Create a user (a password is generated and printed when none is given)",
    run: async (ctx) => {
      // The same core function as POST /api/users (its checks and audit entry); the operator may set the password.
      const password = str(ctx.flags, "password", false) || generateTemporaryPassword();
      const { user } = await inviteUser(ctx.db, org(ctx.flags), "admin_cli", {
        email: str(ctx.flags, "email"),
        name: str(ctx.flags, "name", false) || undefined,
        password,
        isAdmin: ctx.flags.admin === true,
      });
      return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, password };
    },
  },
  // The same core functions and body schemas as POST /api/sites, /api/groups and /api/roles: same checks, same events.
  "create-site": {
    usage: "create-site --org ID --name N --code C [--address A] [--latitude L --longitude L] [--parent SITE_ID]",
    summary: "Create a site (as POST /api/sites)",
    run: (ctx) => {
      const opt = (name: string) => str(ctx.flags, name, false) || undefined;
      const num = (name: string) => (opt(name) === undefined ? undefined : Number(opt(name)));
      const body = parsed(CreateSiteBody, {
        name: str(ctx.flags, "name"),
        code: str(ctx.flags, "code"),
        address: opt("address"),
        latitude: num("latitude"),
        longitude: num("longitude"),
        parentSiteId: opt("parent"),
      });
      return createSite(ctx.db, org(ctx.flags), ADMIN_CLI, body);
    },
  },
  "create-group": {
    usage: "create-group --org ID --name N [--external-id X]",
    summary: "Create a group (as POST /api/groups)",
    run: (ctx) =>
      createGroup(
        ctx.db,
        org(ctx.flags),
        ADMIN_CLI,
        parsed(CreateGroupBody, { name: str(ctx.flags, "name"), externalGroupId: str(ctx.flags, "external-id", false) || undefined }),
      ),
  },
  "create-role": {
    usage: "create-role --org ID --name N",
    summary: "Create a role (as POST /api/roles)",
    run: (ctx) => createRole(ctx.db, org(ctx.flags), ADMIN_CLI, parsed(CreateRoleBody, { name: str(ctx.flags, "name") })),
  },
  "create-asset-type": {
    usage: "create-asset-type --org ID --name N [--field name:text|number|date|boolean[:required] ...]",
    summary: "Create an asset type (as POST /api/asset-types)",
    run: (ctx) => {
      const raw = ctx.flags.field;
      const fields = (Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : []).map((f) => {
        const [name, type, required] = f.split(":");
        return { name, type, required: required === "required" };
      });
      return createAssetType(
        ctx.db,
        org(ctx.flags),
        ADMIN_CLI,
        parsed(CreateAssetTypeBody, { name: str(ctx.flags, "name"), ...(fields.length ? { fields } : {}) }),
      );
    },
  },
  "create-asset": {
    usage: "create-asset --org ID --name N --code C --type ASSET_TYPE_ID [--site SITE_ID] [--status ACTIVE|RETIRED] [--field name=value ...]",
    summary: 'Create an asset (as POST /api/assets); a field value is read as JSON when it parses (2500, true, "007"), else as text',
    run: (ctx) => {
      const raw = ctx.flags.field;
      const fields = Object.fromEntries(
        (Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : []).map((f) => {
          const i = f.indexOf("=");
          return [i === -1 ? f : f.slice(0, i), jsonOrText(i === -1 ? "" : f.slice(i + 1))];
        }),
      );
      const opt = (name: string) => str(ctx.flags, name, false) || undefined;
      const body = {
        name: str(ctx.flags, "name"),
        code: str(ctx.flags, "code"),
        assetTypeId: str(ctx.flags, "type"),
        siteId: opt("site"),
        status: opt("status"),
        fields,
      };
      return createAsset(ctx.db, org(ctx.flags), ADMIN_CLI, parsed(CreateAssetBody, body));
    },
  },
  "create-response-type": {
    usage: "create-response-type --org ID --name N --input-type SELECT|MULTI_SELECT|TEXT|NUMBER|DATE|BOOLEAN [--option Label=value ...]",
    summary: "Create a response type, with options for choice types (as POST /api/response-types)",
    run: (ctx) => {
      const raw = ctx.flags.option;
      const opts = (Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : []).map((o) => {
        const i = o.indexOf("=");
        return i === -1 ? { label: o, value: o.toLowerCase() } : { label: o.slice(0, i), value: o.slice(i + 1) };
      });
      const input = { name: str(ctx.flags, "name"), inputType: str(ctx.flags, "input-type"), ...(opts.length ? { options: opts } : {}) };
      return createResponseType(ctx.db, org(ctx.flags), ADMIN_CLI, parsed(CreateResponseTypeBody, input));
    },
  },
  list: {
    usage: `list <${Object.keys(LISTS).join("|")}> [--org ID]`,
    summary: "List organizations or an organization's keys, clients, users and reference data (never secrets)",
    run: (ctx) => {
      const what = ctx.positionals[0] as keyof typeof LISTS | undefined;
      if (!what || !(what in LISTS)) throw new AppError("invalid", `list needs one of: ${Object.keys(LISTS).join(", ")}`);
      return LISTS[what](ctx);
    },
  },
  "create-webhook": {
    usage: "create-webhook --org ID --url URL --event TYPE [--event TYPE ...] [--description D]",
    summary: "Register a webhook endpoint; its signing secret is shown once",
    run: (ctx) => {
      const raw = ctx.flags.event;
      const body = CreateWebhookBody.safeParse({
        url: str(ctx.flags, "url"),
        events: Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [],
        description: str(ctx.flags, "description", false) || undefined,
      });
      if (!body.success) throw new AppError("invalid", body.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
      return createEndpoint(
        ctx.db,
        ctx.webhooks.box,
        ctx.webhooks.policy,
        org(ctx.flags),
        { ...body.data, events: body.data.events as WebhookEventType[] },
        ADMIN_CLI,
      );
    },
  },
  "rotate-webhook-secret": {
    usage: "rotate-webhook-secret --org ID --id ENDPOINT_ID",
    summary: "New signing secret for a webhook endpoint (the previous one keeps signing for 24 h)",
    run: (ctx) => rotateEndpointSecret(ctx.db, ctx.webhooks.box, org(ctx.flags), str(ctx.flags, "id"), "admin_cli", ADMIN_CLI),
  },
  "delete-webhook": {
    usage: "delete-webhook --org ID --id ENDPOINT_ID",
    summary: "Delete a webhook endpoint and its deliveries",
    run: async (ctx) => {
      await deleteEndpoint(ctx.db, org(ctx.flags), str(ctx.flags, "id"), "admin_cli", ADMIN_CLI);
      return { deleted: true };
    },
  },
  "approve-sync-session": {
    usage: "approve-sync-session --org ID --id SESSION_ID",
    summary: "Approve a quarantined sync session: deactivate the employees its commit listed (still ACTIVE and still absent)",
    usesQueue: true,
    run: async (ctx) => (await approveSession(await ctx.sync(), org(ctx.flags), str(ctx.flags, "id"), ADMIN_CLI)).session,
  },
  "cancel-sync-session": {
    usage: "cancel-sync-session --org ID --id SESSION_ID",
    summary: "Cancel an open or quarantined sync session: nobody is deactivated",
    run: (ctx) => cancelSession(ctx.db, org(ctx.flags), str(ctx.flags, "id"), ADMIN_CLI),
  },
  "erase-employee": {
    usage: "erase-employee --org ID --id EMPLOYEE_ID",
    summary: "Erase a former (INACTIVE or TERMINATED) employee's personal data, as POST /api/v1/employees/{id}/erase (docs/erasure.md)",
    run: (ctx) => eraseEmployee(ctx.db, org(ctx.flags), "admin_cli", str(ctx.flags, "id"), ADMIN_CLI),
  },
  "revoke-api-key": {
    usage: "revoke-api-key --org ID --id KEY_ID",
    summary: "Revoke an API key",
    run: (ctx) => revokeApiKey(ctx.db, org(ctx.flags), "admin_cli", str(ctx.flags, "id")),
  },
  "revoke-oauth-client": {
    usage: "revoke-oauth-client --org ID --client-id CLIENT_ID",
    summary: "Revoke an OAuth client; its tokens stop working at once",
    run: (ctx) => revokeOAuthClient(ctx.db, org(ctx.flags), "admin_cli", str(ctx.flags, "client-id")),
  },
  "rotate-oauth-client-secret": {
    usage: "rotate-oauth-client-secret --org ID --client-id CLIENT_ID [--grace-seconds S]",
    summary: "New client secret (shown once); the previous one is still accepted for --grace-seconds (default 86400)",
    run: (ctx) => {
      const grace = Number(str(ctx.flags, "grace-seconds", false) || 86_400);
      if (!Number.isInteger(grace) || grace < 0 || grace > 2_592_000) throw new AppError("invalid", "--grace-seconds must be a whole number from 0 to 2592000");
      return rotateOAuthClientSecret(ctx.db, org(ctx.flags), "admin_cli", str(ctx.flags, "client-id"), grace, { pepper: ctx.pepper });
    },
  },
};
