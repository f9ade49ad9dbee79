import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { freePort, startStack, type Stack } from "@insp/testing";
import { GENERATED_TYPES_PATH, generateOpenApiTypes } from "../src/openapi/generate.ts";
import { AuthError, RetriesExhaustedError, createInspClient, syncAll, type RetryInfo } from "../src/index.ts";

// The library against the real API and one worker. RATE_LIMIT_PER_MINUTE is low so the
// rate-limit test meets 429s; every test has its own tenant, so its own token and bucket.
const LIMIT = 12;
let stack: Stack;

beforeAll(async () => {
  // A 5 s window: the rate-limit test waits one out instead of a minute.
  stack = await startStack({ workers: 1, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: "5" } });
});
afterAll(async () => {
  await stack?.stop();
});

const clientFor = (t: DemoSeed, extra: Partial<Parameters<typeof createInspClient>[0]> = {}) =>
  createInspClient({ baseUrl: stack.api.baseUrl, clientId: t.oauthClient.clientId, clientSecret: t.oauthClient.clientSecret, ...extra });

const people = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    externalEmployeeId: `${prefix}-${i + 1}`,
    firstName: "Test",
    lastName: `Person ${i + 1}`,
    email: `${prefix.toLowerCase()}-${i + 1}@example.test`,
  }));

const employeeIds = async (orgId: string) =>
  (await stack.db.sql<{ id: string }[]>`select external_employee_id as id from employees where organization_id = ${orgId} order by 1`).map((r) => r.id);

describe("@insp/client against the service", () => {
  it.concurrent(
    "waits out 429s (Retry-After) and still syncs everything",
    async () => {
      const t = await stack.tenant();
      const retries: RetryInfo[] = [];
      const client = clientFor(t, { onRetry: (i) => retries.push(i) });
      const started = Date.now();
      // One employee per request: more requests than the limit allows in a window.
      const summary = await syncAll(client, people("RL", LIMIT + 2), { batchSize: 1, concurrency: 2 });
      expect(summary).toMatchObject({ batches: LIMIT + 2, created: LIMIT + 2, errors: 0 });
      const limited = retries.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited.every((r) => r.fromRetryAfter && r.delayMs > 0 && r.delayMs <= 5_000)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(Math.min(...limited.map((r) => r.delayMs)));
      expect(await employeeIds(t.organization.id)).toHaveLength(LIMIT + 2);
    },
    150_000,
  );

  it.concurrent("fetches a token once, reuses it, and fetches a new one after a 401", async () => {
    const t = await stack.tenant();
    const client = clientFor(t);
    const token = await client.tokens.get();
    expect(token.split(".")).toHaveLength(3);
    expect(await client.tokens.get()).toBe(token);
    // A token the server refuses: the client fetches a new one once and the call succeeds.
    (client.tokens as any).cached = { value: "not-a-valid-token", refreshAt: Number.POSITIVE_INFINITY };
    const res = await client.syncEmployees(people("TK", 1));
    expect(res.results).toHaveLength(1);
    expect(await client.tokens.get()).not.toBe("not-a-valid-token");

    const wrong = createInspClient({ baseUrl: stack.api.baseUrl, clientId: t.oauthClient.clientId, clientSecret: "ics_wrong" });
    await expect(wrong.syncEmployees(people("TK", 1))).rejects.toBeInstanceOf(AuthError);
  });

  it.concurrent("syncs in batches with a key per batch, reporting local and server errors per row", async () => {
    const t = await stack.tenant();
    const client = clientFor(t);
    const input = [...people("B", 5), { externalEmployeeId: "B-bad", email: "not-an-email" }, { externalEmployeeId: "B-role", roles: ["no_such_role"] }];
    const outcomes: { no: number; rows: [number, number]; keys: string; entries: unknown[] }[] = [];
    const summary = await syncAll(client, input, {
      batchSize: 3,
      onBatch: (b, o, answer) => void outcomes.push({ no: b.no, rows: [b.firstRow, b.lastRow], keys: answer?.syncBatchId ?? "", entries: o.entries }),
    });
    expect(summary).toMatchObject({ batches: 2, rows: 7, created: 6, updated: 0, errors: 1, warnings: 1 });
    expect(outcomes.map((o) => [o.no, o.rows, o.keys])).toEqual([
      [1, [1, 3], `${summary.runId}-1`],
      [2, [4, 7], `${summary.runId}-2`],
    ]);
    expect(outcomes[1]!.entries).toEqual([
      { row: 6, externalEmployeeId: "B-bad", kind: "error", message: "Invalid email format" },
      { row: 7, externalEmployeeId: "B-role", kind: "warning", message: "Role 'no_such_role' not found, skipped" },
    ]);
    expect(await employeeIds(t.organization.id)).toEqual(["B-1", "B-2", "B-3", "B-4", "B-5", "B-role"]);
    const requests = await stack.db.sql`select sync_batch_id from sync_requests where organization_id = ${t.organization.id} order by sync_batch_id`;
    expect(requests.map((r) => r.sync_batch_id)).toEqual([`${summary.runId}-1`, `${summary.runId}-2`]);

    // The same run again (a resume after a crash): every batch is replayed, nothing applied twice.
    const again = await syncAll(client, input, { batchSize: 3, runId: summary.runId });
    expect(again).toMatchObject({ batches: 2, replayedBatches: 2, created: 6 });
    expect(await stack.db.sql`select count(*)::int as n from sync_requests where organization_id = ${t.organization.id}`).toEqual([{ n: 2 }]);
  });

  it.concurrent("replays a batch sent again with the same Idempotency-Key", async () => {
    const t = await stack.tenant();
    const client = clientFor(t);
    const batch = people("IK", 3);
    const first = await client.syncEmployees(batch, { idempotencyKey: "ik-test-1" });
    const second = await client.syncEmployees(batch, { idempotencyKey: "ik-test-1" });
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.requestId).toBe(first.requestId);
    expect(second.results).toEqual(first.results);
    expect(await employeeIds(t.organization.id)).toHaveLength(3);
  });

  it.concurrent("async mode: 202, then polls the status until completed", async () => {
    const t = await stack.tenant();
    const client = clientFor(t, { maxPollIntervalMs: 1000 });
    const res = await client.syncEmployees([...people("AS", 20), { externalEmployeeId: "AS-x", status: "GONE" } as any], {
      async: true,
      idempotencyKey: "as-1",
    });
    expect(res.polled).toBe(true);
    expect(res.results).toHaveLength(20);
    expect(res.results.every((r) => r.status === "CREATED" && r.employeeId)).toBe(true);
    expect(res.errors).toEqual([{ externalEmployeeId: "AS-x", message: "Invalid status 'GONE': expected ACTIVE, INACTIVE or TERMINATED" }]);
    expect((await client.getSyncRequest(res.requestId)).status).toBe("completed");
  });

  it.concurrent("dry run: reports what would happen and writes nothing", async () => {
    const t = await stack.tenant();
    const client = clientFor(t);
    const res = await client.syncEmployees(people("DR", 2), { dryRun: true });
    expect(res.results.map((r) => [r.status, r.employeeId])).toEqual([
      ["CREATED", null],
      ["CREATED", null],
    ]);
    expect(await employeeIds(t.organization.id)).toEqual([]);
  });

  it.concurrent("gives up after the allowed attempts when nothing listens", async () => {
    const port = await freePort();
    const retries: RetryInfo[] = [];
    const client = createInspClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: "x",
      clientSecret: "y",
      maxAttempts: 3,
      backoff: { baseMs: 20, capMs: 50 },
      onRetry: (i) => retries.push(i),
    });
    const err = await client.syncEmployees(people("NW", 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).lastStatus).toBeNull();
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([
      [1, null],
      [2, null],
    ]);
  });
});

describe("generated types", () => {
  it("match the running service's /openapi.json (run npm run client:generate when this fails)", async () => {
    const doc: any = await (await fetch(`${stack.api.baseUrl}/openapi.json`)).json();
    const fresh = await generateOpenApiTypes(doc);
    const committed = await readFile(GENERATED_TYPES_PATH, "utf8");
    if (fresh !== committed) {
      const a = committed.split("\n");
      const b = fresh.split("\n");
      const at = a.findIndex((line, i) => line !== b[i]);
      const line = at === -1 ? a.length : at;
      throw new Error(
        `src/generated/openapi.d.ts differs from the API's /openapi.json at line ${line + 1}:\n  committed: ${a[line]}\n  served:    ${b[line]}\nRun the API (npm run start:api) and npm run client:generate, then commit the file.`,
      );
    }
  });
});
