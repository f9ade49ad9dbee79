/** Helpers of the SCIM tests (not a test file): a SCIM client, and checks of answers against RFC 7643 and RFC 7644. */
import { expect } from "vitest";
import { createOAuthClient, type DemoSeed } from "@insp/core";
import type { SqlTx } from "@insp/db";
import { until, type JsonResponse, type Stack } from "@insp/testing";
import { syncToken } from "./employee-sync.fixtures.ts";

export const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

export interface ScimCaller {
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
}

/** An OAuth client of the tenant with scope scim, and a caller with its token (as an identity provider would hold). */
export async function scimCaller(stack: Stack, t: DemoSeed): Promise<ScimCaller> {
  const client = await createOAuthClient(stack.db.db, t.organization.id, "identity provider", undefined, ["scim"]);
  const token = await syncToken(stack, { oauthClient: { clientId: client.clientId, clientSecret: client.clientSecret } });
  return {
    token,
    call: (method, path, body, headers = {}) =>
      stack.http.request(method, `/scim/v2${path}`, {
        auth: { bearer: token },
        ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
        headers: { ...(body === undefined ? {} : { "content-type": "application/scim+json" }), ...headers },
      }),
  };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Every SCIM answer: the status and SCIM's media type (RFC 7644 section 3.1). */
export function expectScim(res: JsonResponse, status: number): void {
  expect({ status: res.status, body: res.status === status ? "" : res.text }).toEqual({ status, body: "" });
  if (status !== 204 && status !== 304) expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
}

/** A resource (RFC 7643 section 3.1): schemas, id, meta with resourceType, created, lastModified, location and version; ETag = meta.version. */
export function expectResource(res: JsonResponse, status: number, resourceType: "User" | "Group"): Record<string, any> {
  expectScim(res, status);
  const r = res.body;
  expect(r.schemas).toContain(resourceType === "User" ? USER : GROUP);
  expect(typeof r.id).toBe("string");
  expect(r.meta).toMatchObject({ resourceType, created: expect.stringMatching(ISO), lastModified: expect.stringMatching(ISO), location: expect.stringMatching(new RegExp(`/scim/v2/${resourceType}s/${r.id}$`)), version: expect.stringMatching(/^W\/".+"$/) });
  expect(res.headers.get("etag")).toBe(r.meta.version);
  if (status === 201) expect(res.headers.get("location")).toBe(r.meta.location);
  if (resourceType === "User") expect(typeof r.userName).toBe("string");
  expect(JSON.stringify(r)).not.toContain(":null"); // absent attributes are left out, never null
  return r;
}

/** A ListResponse (RFC 7644 section 3.4.2): integers, itemsPerPage the page's size, Resources always present. */
export function expectList(res: JsonResponse, totalResults: number, startIndex = 1): Record<string, any>[] {
  expectScim(res, 200);
  expect(res.body.schemas).toEqual([LIST]);
  expect(res.body).toMatchObject({ totalResults, startIndex, itemsPerPage: res.body.Resources.length });
  expect(Array.isArray(res.body.Resources)).toBe(true);
  return res.body.Resources;
}

/** An Error (RFC 7644 section 3.12): the Error schema, status as a string equal to the HTTP status, a detail, and the scimType when one applies. */
export function expectError(res: JsonResponse, status: number, scimType?: string): string {
  expectScim(res, status);
  expect(res.body).toMatchObject({ schemas: [ERROR], status: String(status), detail: expect.any(String) });
  if (scimType) expect(res.body.scimType).toBe(scimType);
  else expect(res.body.scimType).toBeUndefined();
  return res.body.detail;
}

/**
 * Resolves once `n` statements on the test file's database wait for a lock: requests that the
 * test holds up behind a transaction of its own.
 */
export const lockWaiters = (stack: Stack, n: number) =>
  until(
    `${n} statements waiting for a lock`,
    async () => (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0]!.n,
    (waiting) => waiting >= n,
    10_000,
  );

/**
 * In `tx`, the advisory lock a sync worker takes first for the employee with this
 * externalEmployeeId (lockExpression in packages/core/src/employees/sql/locks.ts): from here on the
 * test's transaction is a worker busy with that employee.
 */
export const lockAsWorker = (tx: SqlTx, organizationId: string, externalEmployeeId: string) => tx`select pg_advisory_xact_lock(hashtextextended(${`emp:${organizationId}:${externalEmployeeId}`}, 0))`;
