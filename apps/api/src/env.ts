import { z } from "zod";
import {
  ConfigError,
  baseEnvShape,
  boolVar,
  intVar,
  loadEnv,
  requireInProduction,
  requireMediaSettings,
  requireRedisSettings,
  trustProxyVar,
} from "@insp/config";

/** The API's configuration, parsed once at start-up; docs/configuration.md is generated from it. */
export const apiEnvShape = {
  ...baseEnvShape,
  PORT: intVar(3000, 0, 65535).describe("Listen port of the API (0: any free port)."),
  HOST: z.string().default("0.0.0.0").describe("Listen address of the API."),
  HSTS_MAX_AGE_SECONDS: intVar(0, 0, 63_072_000).describe(
    "Strict-Transport-Security max-age on every answer, for a service reached over HTTPS only (TLS ended by a load balancer or ingress): browsers then refuse plain HTTP to this host for that long. 0: no HSTS header (the default, right for plain-HTTP runs). Does not cover subdomains.",
  ),
  RATE_LIMIT_PER_MINUTE: intVar(1000, 1, 1_000_000).describe(
    "Requests per principal (an API key, an OAuth client whatever token it presents, a user) per minute; a sync request counts once.",
  ),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: intVar(1000, 1, 1_000_000).describe(
    "Requests per client address per minute that no principal answers for: without a credential (health, /openapi.json, /docs, login, the OAuth token) or to a path that does not authenticate.",
  ),
  RATE_LIMIT_ORG_PER_MINUTE: intVar(5000, 1, 10_000_000).describe(
    "Requests per organization per minute, all its keys, clients and users together, so that many credentials of one tenant cannot take the whole service.",
  ),
  AUTH_FAILURES_PER_MINUTE: intVar(60, 1, 1_000_000).describe("Failed authentications (401) per client address per minute before 429."),
  LOGIN_FAILURES_BEFORE_BACKOFF: intVar(5, 1, 1000).describe(
    "Wrong passwords for one account (at POST /api/auth/login, or a wrong currentPassword at POST /api/auth/password), from any address, before it goes into back-off: the last of them starts a wait of LOGIN_BACKOFF_FIRST_SECONDS and each further one doubles it, up to LOGIN_BACKOFF_MAX_SECONDS. Meanwhile the account's password checks answer 429, except from an address that signed in to it within the last 30 days.",
  ),
  LOGIN_BACKOFF_FIRST_SECONDS: intVar(1, 1, 86_400).describe(
    "The first back-off of an account (LOGIN_FAILURES_BEFORE_BACKOFF); each further wrong password doubles it.",
  ),
  LOGIN_BACKOFF_MAX_SECONDS: intVar(900, 1, 86_400).describe(
    "The longest back-off of an account; its wrong passwords are forgotten once it has had none for this long (after the end of its back-off).",
  ),
  RATE_LIMIT_WINDOW_SECONDS: intVar(60, 1, 3600).describe(
    "Length of the rate-limit windows: RATE_LIMIT_PER_MINUTE and AUTH_FAILURES_PER_MINUTE are counted per window of this many seconds (default a minute, as their names say).",
  ),
  BODY_LIMIT_MB: intVar(5, 1, 1024).describe("JSON body limit of every route but inspection import (413 past it)."),
  JSON_MAX_VALUES: intVar(200_000, 1_000, 100_000_000).describe(
    "Most values (numbers, strings, arrays, objects...) a JSON body may hold; counted as the body arrives, 413 past it. Bounds the time a body takes to parse, whatever its size: the largest body of the API (a template of hundreds of questions, 500 employees) holds tens of thousands.",
  ),
  INSPECTION_BODY_LIMIT_MB: intVar(50, 1, 2048).describe("JSON body limit of POST /api/inspections, which is also its limit for inline images together."),
  REFUSED_BODY_DRAIN_SECONDS: intVar(30, 0, 600).describe(
    "A body refused for its size (413) is answered with Connection: close, then the rest of it is read and thrown away for at most this long before the connection closes, so that clients sending the whole body before reading get the answer (nginx's lingering_time); 0: close as soon as the answer is out.",
  ),
  REFUSED_BODY_IDLE_SECONDS: intVar(5, 1, 600).describe(
    "The drain after a 413 ends sooner when the client sends nothing for this long (nginx's lingering_timeout).",
  ),
  REFUSED_BODY_DRAIN_MB: intVar(1024, 1, 1_048_576).describe("The drain after a 413 ends sooner once this many MB were thrown away (never held in memory)."),
  SYNC_WAIT_SECONDS: intVar(60, 1, 3600).describe("How long a synchronous sync (or a session's commit) waits before answering 202 with its status URL."),
  SYNC_SESSION_TTL_HOURS: intVar(24, 1, 720).describe("Snapshot sync sessions run out after this long (batches and commits are refused then)."),
  DEACTIVATION_THRESHOLD_PERCENT: intVar(5, 0, 100).describe(
    "Deletion guard: a session commit deactivating more than this % of the ACTIVE employees in scope, and more than DEACTIVATION_THRESHOLD_MIN of them, is quarantined until an administrator approves it.",
  ),
  DEACTIVATION_THRESHOLD_MIN: intVar(10, 0, 10_000_000).describe(
    "Deletion guard: the smallest number of deactivations that can be quarantined (with DEACTIVATION_THRESHOLD_PERCENT).",
  ),
  IMPORT_WAIT_SECONDS: intVar(30, 1, 3600).describe(
    "How long an inspection import waits for its job before answering 503 with its import id (the import goes on).",
  ),
  REPORT_WAIT_SECONDS: intVar(10, 0, 600).describe(
    "How long GET /api/inspections/{id}/report.pdf waits for a report being rendered before answering 202 with its status URL (the rendering goes on).",
  ),
  EXPORTS_MAX_RUNNING_PER_ORG: intVar(3, 1, 1000).describe(
    "CSV/XLSX exports an organization may have QUEUED or RUNNING at once; POST /api/exports past it answers 429.",
  ),
  MEDIA_MAX_IMAGE_MB: intVar(10, 1, 1024).describe("Largest image of an import, a PATCH or an upload (POST /api/media)."),
  SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG: intVar(50_000, 1, 100_000_000).describe(
    "Employees an organization may have queued for sync (recorded, not yet done) at once; a sync request (or a session's batch) that would pass it is refused whole with 429 and Retry-After, before anything is recorded. A session commit's deactivations are never refused, but count.",
  ),
  WEBHOOK_MAX_ENDPOINTS_PER_ORG: intVar(25, 1, 10_000).describe(
    "Webhook endpoints an organization may have; registering one more answers 409 (delete one first).",
  ),
  CREDENTIALS_MAX_ACTIVE_PER_ORG: intVar(50, 1, 10_000).describe(
    "Active API keys an organization may have (neither revoked nor expired), and, counted apart, active OAuth clients; creating one more over HTTP answers 409 (revoke one first). The admin CLI is not limited.",
  ),
  DIRECTORY_MAX_PER_ORG: intVar(100_000, 1, 100_000_000).describe(
    "Rows of each directory kind an organization may have, counted apart: sites, groups (SCIM's too), roles, response types, asset types and assets, archived ones included; creating one more over HTTP or SCIM answers 409 (delete one first). The admin CLI is not limited.",
  ),
  SCHEDULES_MAX_PER_ORG: intVar(20_000, 1, 10_000_000).describe(
    "Schedules an organization may have, paused ones included; POST /api/schedules past it answers 409 (delete one first).",
  ),
  TEMPLATE_VERSIONS_MAX_PER_ORG: intVar(20_000, 1, 10_000_000).describe(
    "Template versions an organization may have, every version of every template counted (archived templates too): a new template or version past it answers 409; templates cannot be deleted (their inspections keep them), so only raising this makes room.",
  ),
  OAUTH_CLIENT_SECRET_GRACE_SECONDS: intVar(86_400, 0, 2_592_000).describe(
    "After an OAuth client's secret is rotated (POST /api/oauth-clients/{clientId}/rotate-secret), how long the previous secret is still accepted at POST /oauth/token, so the HR system can switch without downtime. 0: refused at once.",
  ),
  WEBHOOK_REPLAY_MAX_DELIVERIES: intVar(10_000, 1, 1_000_000).describe(
    "Deliveries one POST /api/webhooks/{id}/replay may create; a replay that would create more answers 422 and creates none (replay a shorter window: a later since, or an until).",
  ),
  MEDIA_MAX_STORED_MB_PER_ORG: intVar(10_240, 1, 1_073_741_824).describe(
    "Image bytes an organization may store, in MB (default 10 GiB; the media table's sizes); an upload, import or PATCH whose new images would pass it answers 413 and stores nothing.",
  ),
  REPORTS_MAX_RENDERING_PER_ORG: intVar(10, 1, 1000).describe(
    "PDF reports an organization may have QUEUED or RUNNING at once; asking for one more report that is not rendered yet answers 429 with Retry-After.",
  ),
  TOKEN_TTL_SECONDS: intVar(3600, 60, 86_400).describe("Lifetime of OAuth client-credentials access tokens."),
  USER_TOKEN_TTL_SECONDS: intVar(900, 60, 86_400).describe("Lifetime of user tokens from POST /api/auth/login."),
  TOKEN_ISSUER: z.string().min(1).default("inspection-service").describe("`iss` of the tokens this API signs (their audience is `<issuer>:api`)."),
  JWT_PRIVATE_KEY: z
    .string()
    .includes("PRIVATE KEY", { message: "must be a PEM private key" })
    .optional()
    .meta({ secret: true })
    .describe("PEM (PKCS#8) EC P-256 key that signs tokens; unset: a key generated once and kept in Postgres, shared by all replicas (set it in production)."),
  SECRET_PEPPER: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .meta({ secret: true })
    .describe("Server-side pepper of API key and client secret hashes (16+ characters); the admin CLI needs the same one."),
  MIGRATE_ON_START: boolVar(true).describe(
    "Apply migrations at start (under an advisory lock, so replicas may start together); `npm start` migrates once itself.",
  ),
  SHUTDOWN_TIMEOUT_SECONDS: intVar(25, 1, 600).describe("On SIGTERM: how long in-flight requests may take before the process exits anyway."),
  TRUST_PROXY: trustProxyVar().describe(
    "Which proxies' `X-Forwarded-For` to believe, so rate limits and sign-in limits see the client's address: `false` (none: the address is the connection's), the number of proxies in front of the API (`1` for one load balancer or ingress: the address is the one it wrote, the right-most), or the proxies' addresses and CIDR ranges, comma-separated (`10.0.0.0/8,loopback`). `true` is refused: it would believe an address any client can write.",
  ),
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, "must be at least 16 characters")
    .optional()
    .meta({ secret: true })
    .describe("GET /metrics on PORT needs `Authorization: Bearer <this>` (16+ characters); unset: /metrics on PORT is 404."),
  METRICS_PORT: intVar(0, 0, 65535).describe(
    "A second listener serving only GET /metrics, without a token, for a private network's scraper (must differ from PORT); 0: none. `npm start` gives the API this port and worker n this port + n.",
  ),
  METRICS_HOST: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("The address the METRICS_PORT listener binds; unset: HOST. 127.0.0.1 keeps it to a scraper on the same host."),
  ADMIN_DASHBOARD_USER: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .optional()
    .describe("The queue dashboard (/admin/queues): operator user name for HTTP Basic; with ADMIN_DASHBOARD_PASSWORD_HASH, else the dashboard is not mounted."),
  ADMIN_DASHBOARD_PASSWORD_HASH: z
    .string()
    .trim()
    .startsWith("$argon2id$", "must be an argon2id hash ($argon2id$...), e.g. from `npm run admin -- hash-password`")
    .optional()
    .describe("argon2id hash of the queue dashboard's operator password (`npm run -s admin -- hash-password` prints one)."),
};

export type ApiEnv = ReturnType<typeof loadApiEnv>;
export function loadApiEnv(source: Record<string, string | undefined> = process.env) {
  const env = loadEnv(apiEnvShape, source);
  requireInProduction(env, ["WEBHOOK_SECRET_KEY"]);
  requireMediaSettings(env);
  requireRedisSettings(env);
  const problems: string[] = [];
  if (!env.ADMIN_DASHBOARD_USER !== !env.ADMIN_DASHBOARD_PASSWORD_HASH)
    problems.push("ADMIN_DASHBOARD_USER and ADMIN_DASHBOARD_PASSWORD_HASH: give both (the queue dashboard is on) or neither (off)");
  if (env.METRICS_PORT && env.METRICS_PORT === env.PORT) problems.push("METRICS_PORT: must differ from PORT");
  if (problems.length) throw new ConfigError(problems);
  return env;
}
