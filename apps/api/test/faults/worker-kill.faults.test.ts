import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultStack, type FaultStack } from "@insp/testing";
import { dataUrl, importBody, png, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import {
  caller,
  employees,
  expectAllCreatedOnce,
  expectNoDuplicates,
  expectRecovered,
  finalSyncAnswer,
  processedItems,
  report,
  slowInserts,
  until,
} from "./faults.fixtures.ts";

/** kill -9 of a worker process while it holds jobs: another worker takes them over. */

let stack: FaultStack;
beforeAll(async () => {
  stack = await startFaultStack({ workers: 2 });
});
afterAll(() => stack?.stop());

const lastItemDoneAt = async (orgId: string) => {
  const [row] = await stack.db.sql<
    { last: number }[]
  >`select (extract(epoch from max(updated_at)) * 1000)::float8 as last from sync_request_items where organization_id = ${orgId}`;
  return row!.last;
};

describe("a worker killed with SIGKILL", () => {
  it("mid-batch: its in-flight employees are taken over by the other worker; every employee exactly once", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const sent = employees(t, 500);
    // A slow database (20 ms per employee insert) so the kill lands while both workers hold employees.
    const restore = await slowInserts(stack, "employees", 0.02);
    try {
      const answer = api.post({ employees: sent });
      // Late in the batch, so what is left after the kill is mostly what the killed worker held.
      await until("most of the batch processed", async () => (await processedItems(stack, t.organization.id)) >= 400);
      const killedAt = Date.now();
      await stack.killWorker(0);
      expectAllCreatedOnce(await finalSyncAnswer(api, await answer), sent);
      report("worker killed mid-batch: last employee of the batch done after the kill", (await lastItemDoneAt(t.organization.id)) - killedAt);
    } finally {
      await restore();
    }
    await expectNoDuplicates(stack, t.organization.id, sent);
    await stack.startWorker(0);
    await expectRecovered(stack, "worker killed mid-batch");
  });

  it("mid-import: the imports it held finish on the other worker and every client gets its 201, without resending", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    // Each import's transaction takes half a second (and imports of one organization run one
    // after the other, on its inspection counter), so the kill catches some in the middle.
    const restore = await slowInserts(stack, "inspections", 0.5);
    try {
      const auth = { bearer: t.apiKey };
      const posts = Array.from({ length: 10 }, (_, i) =>
        stack.http.post(
          "/api/inspections",
          importBody(t, tpl, {
            answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes"), media: [dataUrl("image/png", png(64, 64, i))] }],
          }),
          {
            auth,
            headers: { "idempotency-key": `fault-${randomUUID()}` },
          },
        ),
      );
      await until("imports running in the workers", async () => {
        const [row] = await stack.db.sql<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where datname = 'inspection_service' and application_name = 'inspection-worker' and xact_start is not null`;
        return row!.n >= 4;
      });
      const killedAt = Date.now();
      await stack.killWorker(0);
      const answers = await Promise.all(posts);
      report("worker killed mid-import: last import answered after the kill", Date.now() - killedAt);
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      expect(new Set(answers.map((a) => a.body.inspectionNumber)).size).toBe(10);
    } finally {
      await restore();
    }
    const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from inspections where organization_id = ${t.organization.id}`;
    expect(row!.n).toBe(10);
    await stack.startWorker(0);
    await expectRecovered(stack, "worker killed mid-import");
  });
});
