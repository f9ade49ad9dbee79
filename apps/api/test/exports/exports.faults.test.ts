import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultStack, type FaultStack } from "@insp/testing";
import { report, until } from "../faults/faults.fixtures.ts";
import { importBody, importOk, publishedAudit } from "../fixtures/inspections.fixtures.ts";

/** kill -9 of the workers in the middle of an export: a restarted worker writes it again from the start; no half file is ever served. */

let stack: FaultStack;
beforeAll(async () => {
  stack = await startFaultStack({ workers: 2 });
});
afterAll(() => stack?.stop());

const ROWS = 20_000;

describe("an export whose worker is killed with SIGKILL", () => {
  it("is finished by a restarted worker: the file is complete, and nothing is served before it is", async () => {
    const t = await stack.tenant();
    const auth = { auth: { bearer: t.apiKey } };
    const tpl = await publishedAudit(stack, t);
    await importOk(stack, t, importBody(t, tpl));
    await stack.db.sql`
      insert into inspections (organization_id, inspection_number, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, created_at, updated_at)
      select organization_id, 'BULK-' || g, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, now() - g * interval '1 second', now()
      from inspections, generate_series(1, ${ROWS - 1}::int) g where organization_id = ${t.organization.id}`;
    // Each page's progress update takes 100 ms (a slow database), so the export runs for seconds.
    await stack.db.sql.unsafe(`
      create or replace function fault_slow_export() returns trigger language plpgsql as $$ begin if new.rows_written > 0 then perform pg_sleep(0.1); end if; return new; end $$;
      create trigger fault_slow_export before update on inspection_exports for each row execute function fault_slow_export();`);
    try {
      const posted = await stack.http.post("/api/exports", { format: "csv" }, auth);
      expect(posted.status).toBe(202);
      const id = posted.body.id as string;
      await until("export half-way", async () => (await stack.http.get(`/api/exports/${id}`, auth)).body.rowsWritten >= 5_000);
      // Both workers: whichever holds the job dies in the middle of it.
      await Promise.all([stack.killWorker(0), stack.killWorker(1)]);
      const killedAt = Date.now();
      const orphan = (await stack.http.get(`/api/exports/${id}`, auth)).body;
      expect(orphan).toMatchObject({ status: "RUNNING", downloadUrl: null, byteSize: null });
      expect((await stack.http.get(`/api/exports/${id}/download`, auth)).status).toBe(409);
      await stack.startWorker(0);
      // While it runs again: never served, and rowsWritten started over.
      let sawRestart = false;
      await until(
        "export finished after the restart",
        async () => {
          const b = (await stack.http.get(`/api/exports/${id}`, auth)).body;
          if (b.status !== "SUCCEEDED") {
            expect(b.status).toBe("RUNNING");
            if (b.rowsWritten < orphan.rowsWritten) sawRestart = true;
            expect((await stack.http.get(`/api/exports/${id}/download`, auth)).status).toBe(409);
          }
          return b.status === "SUCCEEDED";
        },
        120_000,
        200,
      );
      report("export: workers killed mid-export, SUCCEEDED after the kill", Date.now() - killedAt);
      expect(sawRestart).toBe(true);
      const [row] = await stack.db.sql<
        { attempts: number; rows_written: number; byte_size: number }[]
      >`select attempts, rows_written, byte_size::int from inspection_exports where id = ${id}`;
      expect(row!.attempts).toBeGreaterThanOrEqual(2);
      expect(row!.rows_written).toBe(ROWS);
      const res = await fetch(`${stack.api.baseUrl}/api/exports/${id}/download`, { headers: { authorization: `Bearer ${t.apiKey}` } });
      const text = await res.text();
      expect(Buffer.byteLength(text) + 3).toBe(row!.byte_size);
      const records: string[][] = parse(text, { bom: true });
      expect(records).toHaveLength(ROWS + 1);
      expect(new Set(records.slice(1).map((r) => r[0])).size).toBe(ROWS);
      // The killed run's spool file is gone (the next run removed it).
      const spool = path.join(stack.env.MEDIA_DIR!, "tmp");
      expect(existsSync(spool) ? readdirSync(spool).filter((f) => f.endsWith(".export")) : []).toEqual([]);
    } finally {
      await stack.db.sql.unsafe("drop trigger if exists fault_slow_export on inspection_exports");
    }
    await stack.startWorker(1);
  });
});
