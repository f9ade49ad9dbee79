import { randomBytes } from "node:crypto";
import type { DemoSeed } from "@insp/core";
import type { JsonResponse, Stack } from "@insp/testing";

/** Shared helpers of the employee-sync tests (not a test file). */

export const SYNC_PATH = "/api/v1/sync/employees";

/** A client-credentials access token of the tenant's OAuth client (scope employees:sync). */
export async function syncToken(stack: Pick<Stack, "http">, t: DemoSeed | { oauthClient: { clientId: string; clientSecret: string } }): Promise<string> {
  const res = await fetch(`${stack.http.baseUrl}/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${t.oauthClient.clientId}:${t.oauthClient.clientSecret}`).toString("base64")}`,
    },
    body: "grant_type=client_credentials",
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export interface SyncCaller {
  token: string;
  post(body: unknown, opts?: { query?: string; headers?: Record<string, string> }): Promise<JsonResponse>;
  get(path: string): Promise<JsonResponse>;
  /** POST `employees` and expect a 200. */
  sync(employees: unknown[], extra?: Record<string, unknown>): Promise<{ results: any[]; errors: any[]; requestId: string; syncBatchId?: string }>;
}

export async function syncCaller(stack: Pick<Stack, "http">, t: DemoSeed): Promise<SyncCaller> {
  const token = await syncToken(stack, t);
  const auth = { bearer: token };
  const post = (body: unknown, opts: { query?: string; headers?: Record<string, string> } = {}) =>
    stack.http.request("POST", `${SYNC_PATH}${opts.query ? `?${opts.query}` : ""}`, { auth, body, headers: opts.headers });
  return {
    token,
    post,
    get: (path) => stack.http.get(path, { auth }),
    async sync(employees, extra = {}) {
      const res = await post({ ...extra, employees });
      if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${res.text.slice(0, 500)}`);
      return res.body;
    },
  };
}

/** A unique external id and e-mail per call, so tests never collide. */
export function uniq(prefix = "E"): { id: string; email: string } {
  const s = randomBytes(4).toString("hex");
  return { id: `${prefix}-${s}`, email: `${prefix.toLowerCase()}-${s}@example.test` };
}

export const countRows = async (stack: Stack, table: "employees" | "users" | "employee_roles" | "employee_groups" | "employee_sites" | "mail_outbox", orgId: string) => {
  const [row] = await stack.db.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table} where organization_id = $1`, [orgId]);
  return row!.n;
};
