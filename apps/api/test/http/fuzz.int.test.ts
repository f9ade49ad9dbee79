import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { DemoSeed } from "@insp/core";
import { coercionSweepRequests, operationsOf, requestArbitrary, startStack, type FuzzOperation, type FuzzRequest, type Stack } from "@insp/testing";
import { syncCaller, syncToken } from "../fixtures/employee-sync.fixtures.ts";
import { importBody, importOk, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import { scimCaller } from "../fixtures/scim.fixtures.ts";

/**
 * Generated requests for every operation of /openapi.json (valid ones from its schemas, and
 * hostile ones: requests.ts and mutations.ts name the families). FUZZ_CASES per operation
 * (default 100, so `npm test` stays under ten minutes on two cores; each run draws new cases,
 * and `npm run test:fuzz` runs 5,000); FUZZ_SEED repeats a run. Whatever comes in: no 5xx, every answer JSON
 * (an `error` string when it is an error), and the API and the worker still alive.
 */

const CASES = Number(process.env.FUZZ_CASES ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 8;

let stack: Stack;
let t: DemoSeed;
let doc: any;
let ops: FuzzOperation[];
const knownIds: string[] = [];
let hints: Record<string, unknown[]> = {};
/** The resource each sweep (coercionSweepRequests) writes to, by operation path: real ones, so that its traps get past "not found". */
let pathIds: Record<string, string> = {};
const auth: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack({
    workers: 1,
    env: {
      RATE_LIMIT_PER_MINUTE: "1000000",
      RATE_LIMIT_ORG_PER_MINUTE: "1000000",
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: "1000000",
      AUTH_FAILURES_PER_MINUTE: "1000000",
    },
  });
  t = await stack.tenant();
  const tpl = await publishedAudit(stack, t);
  const inspection = await importOk(stack, t, importBody(t, tpl));
  const sync = await syncCaller(stack, t);
  const synced = await sync.sync([{ externalEmployeeId: "FUZZ-1", email: "fuzz-1@example.test", userAccount: {} }]);
  const login = await stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password });
  const action = (
    await stack.http.post("/api/actions", { title: "Fuzz", inspectionId: inspection.id, questionId: tpl.q.brakes!.id }, { auth: { bearer: t.apiKey } })
  ).body as { id: string };
  const exported = (await stack.http.post("/api/exports", { format: "csv" }, { auth: { bearer: t.apiKey } })).body as { id: string };
  knownIds.push(
    exported.id,
    tpl.id,
    inspection.id,
    synced.requestId,
    synced.results[0].employeeId,
    t.users.admin.id,
    t.users.inspector.id,
    action.id,
    ...t.sites.map((s) => s.id),
    ...t.assetTypes.map((a) => a.id),
    ...t.responseTypes.map((r) => r.id),
    ...Object.values(tpl.q).flatMap((q) => [q.id, ...q.options.map((o) => o.id)]),
  );
  pathIds = {
    "/api/inspections/{id}": inspection.id,
    "/api/actions/{id}": action.id,
    "/api/exports/{id}": exported.id,
    "/api/exports/{id}/download": exported.id,
    "/api/templates/{id}/versions": tpl.id,
    "/scim/v2/Users/{id}": synced.results[0].employeeId,
    "/scim/v2/Groups/{id}": t.groups[0]!.id,
  };
  const questions = Object.values(tpl.q);
  hints = {
    templateId: [tpl.id],
    createdBy: [t.users.admin.id],
    conductedBy: [t.users.inspector.id, t.users.admin.id],
    assigneeId: [t.users.inspector.id, t.users.admin.id, null],
    inspectionId: [inspection.id],
    priority: ["LOW", "MEDIUM", "HIGH"],
    siteId: t.sites.map((s) => s.id),
    id: t.sites.map((s) => s.id),
    questionId: questions.map((q) => q.id),
    responseOptionId: questions.flatMap((q) => q.options.map((o) => o.id)),
    responseTypeId: t.responseTypes.map((r) => r.id),
    assetTypeId: t.assetTypes.map((a) => a.id),
    status: ["COMPLETED", "IN_PROGRESS", "ACTIVE", "INACTIVE", "TERMINATED", "OPEN", "DONE", "CANCELLED"],
    type: ["AUDIT", "ASSET"],
    roles: [["inspector"], ["site_manager"], ["admin"]],
    email: [t.users.inspector.email, "new.person@example.test"],
    grant_type: ["client_credentials"],
    client_id: [t.oauthClient.clientId],
    client_secret: [t.oauthClient.clientSecret],
    password: [t.users.inspector.password],
  };
  auth.apiKey = `Bearer ${t.apiKey}`;
  auth.basic = `Basic ${Buffer.from(`${t.apiKey}:`).toString("base64")}`;
  auth.oauth2 = `Bearer ${await syncToken(stack, t)}`;
  auth.user = `Bearer ${login.body.accessToken}`;
  auth.scim = `Bearer ${(await scimCaller(stack, t)).token}`;
  auth.default = `Basic ${Buffer.from(`${t.oauthClient.clientId}:${t.oauthClient.clientSecret}`).toString("base64")}`;
  doc = (await stack.http.get("/openapi.json")).body;
  ops = operationsOf(doc);
  console.log(`[fuzz] ${ops.length} operations, ${CASES} cases each, FUZZ_SEED=${SEED}`);
});
afterAll(() => stack?.stop());

interface Finding {
  request: string;
  status: number;
  problem: string;
  body: string;
}

/** Answers per status code, printed per operation so a run shows how deep the cases got. */
const statuses = new Map<number, number>();

async function send(r: FuzzRequest): Promise<Finding | null> {
  let res: Response;
  try {
    const body = r.method === "GET" || r.method === "HEAD" ? undefined : r.body;
    res = await fetch(`${stack.api.baseUrl}${r.url}`, { method: r.method, headers: r.headers, body, redirect: "manual" });
  } catch (err) {
    // fetch itself refuses some header values: nothing was sent, nothing to check. Anything
    // else (a refused connection, a reset) means the API went away, which is a finding.
    const cause = (err as { cause?: { name?: string; message?: string } }).cause;
    if (cause?.name === "InvalidArgumentError" || /header/i.test(cause?.message ?? "")) return null;
    // Past 16 KB of URL and headers the server answers 431 and closes while the client may
    // still be writing: a reset on such a request is that answer, not a crash (checked below).
    const headBytes = r.url.length + JSON.stringify(r.headers).length;
    if (headBytes > 16_000 && /ECONNRESET|EPIPE|other side closed/.test(String(cause?.message ?? err)) && (await fetch(`${stack.api.baseUrl}/healthz`)).ok)
      return null;
    return { request: show(r), status: 0, problem: `no answer: ${String(cause ?? err)}`, body: "" };
  }
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const text = await res.text();
  const problem = (msg: string) => ({ request: show(r), status: res.status, problem: msg, body: text.slice(0, 300) });
  if (res.status >= 500) return problem("server error");
  if (res.status === 204 || res.status === 304) return null;
  // The one documented answer that is not JSON: a PDF report of an inspection (GET .../report.pdf).
  if (res.status === 200 && /^application\/pdf$/.test(res.headers.get("content-type") ?? "") && text.startsWith("%PDF-")) return null;
  // And an export's file (GET /api/exports/{id}/download).
  if (
    res.status === 200 &&
    r.url.startsWith("/api/exports/") &&
    /^text\/csv; charset=utf-8$|^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet$/.test(res.headers.get("content-type") ?? "")
  )
    return null;
  if (!/^application\/(scim\+)?json/.test(res.headers.get("content-type") ?? "")) return problem(`content-type ${res.headers.get("content-type")}`);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return problem("body is not JSON");
  }
  // SCIM answers errors as RFC 7644 says, with `detail`; everything else with `error`.
  // (A 431 comes from the HTTP server itself, before any route: `error` there too.)
  const message = r.url.startsWith("/scim/") ? (body?.detail ?? body?.error) : body?.error;
  if (res.status >= 400 && typeof message !== "string") return problem("error answer without an `error` string (`detail` for SCIM)");
  // A value coerced to text that could not be (String() of {"toString": 1}), answered as a client error instead of a 500.
  if (/Cannot convert object to primitive value/.test(text)) return problem("a value of the request was coerced to text");
  return null;
}

function show(r: FuzzRequest): string {
  return `${r.method} ${r.url.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 200)} ${r.body === undefined ? "" : r.body.slice(0, 300)}`;
}

async function runAll(requests: FuzzRequest[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const f = await send(requests[next++]!);
        if (f) findings.push(f);
      }
    }),
  );
  return findings;
}

const SLOTS = 150;

describe("fuzzing every operation of /openapi.json", () => {
  it("covers every documented operation", () => {
    expect(ops.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        "POST /api/templates",
        "POST /api/inspections",
        "POST /api/v1/sync/employees",
        "GET /api/inspections",
        "GET /api/v1/employees",
        "POST /oauth/token",
        "POST /api/auth/login",
      ]),
    );
  });

  it("has a test slot for every operation (raise SLOTS when this fails)", () => {
    expect(ops.length).toBeLessThanOrEqual(SLOTS);
  });

  // One test per operation, each with its own seed derived from FUZZ_SEED (tests are made before
  // /openapi.json is read: SLOTS of them, the ones past the last operation skipped).
  for (let i = 0; i < SLOTS; i++) {
    it(`operation ${i + 1}: no 5xx, every answer JSON`, async (ctx) => {
      const op = ops[i];
      if (!op) return ctx.skip();
      const creds = { ...auth, apiKey: op.path === "/api/auth/password" ? auth.user! : auth.apiKey! };
      const schemas = { components: doc.components?.schemas ?? {}, knownIds, hints };
      // The random cases, then the coercion-trap sweep: every node of one full body in turn (mutations.ts).
      const requests = [
        ...fc.sample(requestArbitrary(op, schemas, creds), { numRuns: CASES, seed: SEED + i }),
        ...coercionSweepRequests(op, schemas, creds, SEED + i, pathIds),
      ];
      statuses.clear();
      const findings = await runAll(requests);
      console.log(
        `[fuzz] ${op.method} ${op.path} (${requests.length} cases): ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([code, n]) => `${code}x${n}`)
          .join(" ")}`,
      );
      if (findings.length && process.env.FUZZ_SHOW_ERRORS)
        console.log(
          stack.api
            .output()
            .split("\n")
            .filter((l) => l.includes('"level":50'))
            .map((l) => {
              try {
                const j = JSON.parse(l);
                return `${j.err?.type}: ${j.err?.message} ${j.msg} @ ${String(j.err?.stack).split("\n").slice(1, 4).join(" | ")}`;
              } catch {
                return l.slice(0, 300);
              }
            })
            .filter((v, i, a) => a.indexOf(v) === i)
            .join("\n"),
        );
      expect(findings.slice(0, 5), `${op.method} ${op.path}: ${findings.length} of ${requests.length} cases failed (FUZZ_SEED=${SEED})`).toEqual([]);
      // Still alive after each operation's cases.
      expect((await stack.http.get("/healthz")).status).toBe(200);
      expect(stack.workers[0]!.child.exitCode).toBeNull();
    }, 300_000);
  }
});
