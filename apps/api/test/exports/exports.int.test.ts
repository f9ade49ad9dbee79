import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FsMediaStore, deleteExpiredExports, type DemoSeed } from "@insp/core";
import { createDb, type DbHandle } from "@insp/db";
import { startStack, until, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk, png, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

let stack: Stack;
let dbHandle: DbHandle;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
  dbHandle = createDb(stack.db.url, { max: 2 });
});
afterAll(async () => {
  await dbHandle?.close();
  await stack?.stop();
});

const auth = (t: DemoSeed) => ({ auth: { bearer: t.apiKey } });

async function requestExport(t: DemoSeed, body: unknown): Promise<string> {
  const res = await stack.http.post("/api/exports", body, auth(t));
  if (res.status !== 202) throw new Error(`export refused: ${res.status} ${res.text}`);
  expect(res.body).toEqual({ id: expect.any(String), status: "QUEUED", statusUrl: `/api/exports/${res.body.id}` });
  return res.body.id;
}

async function finished(t: DemoSeed, id: string) {
  return (await until(
    "export finished",
    async () => (await stack.http.get(`/api/exports/${id}`, auth(t))).body,
    (b) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(b.status),
    60_000,
  )) as Record<string, any>;
}

async function download(t: DemoSeed, id: string): Promise<Response> {
  return fetch(`${stack.api.baseUrl}/api/exports/${id}/download`, { headers: { authorization: `Bearer ${t.apiKey}` } });
}

/** Exports `body` as CSV and answers its records (objects by header), its header row and the raw text. */
async function csvExport(t: DemoSeed, body: Record<string, unknown>) {
  const id = await requestExport(t, { format: "csv", ...body });
  const done = await finished(t, id);
  expect(done).toMatchObject({ status: "SUCCEEDED", downloadUrl: `/api/exports/${id}/download` });
  const res = await download(t, id);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(Buffer.byteLength(text)).toBeGreaterThan(0);
  const rows: string[][] = parse(text, { bom: true });
  const [header, ...data] = rows;
  const records = data.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
  expect(done.rowsWritten).toBe(records.length);
  return { id, done, res, text, header: header!, records };
}

const ids = (records: Record<string, string>[]) => records.map((r) => r.id).sort();

/** The fields of a CSV text as written (quotes kept), record by record: a quoted field may hold commas and line breaks. */
function rawFields(text: string): string[][] {
  const rows: string[][] = [[]];
  for (const m of text.matchAll(/("(?:[^"]|"")*"|[^,"\r\n]*)(,|\r\n)/gs)) {
    rows.at(-1)!.push(m[1]!);
    if (m[2] === "\r\n") rows.push([]);
  }
  rows.pop();
  return rows;
}

/** Inspections of one template with the list's columns set to known values. */
async function seeded(t: DemoSeed) {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const make = async (extra: Record<string, unknown>, set: { review: string; flagged: number; pct: number | null; created: string }) => {
    const { id } = await importOk(stack, t, importBody(t, tpl, extra));
    await stack.db
      .sql`update inspections set review_state = ${set.review}, flagged_count = ${set.flagged}, score_percentage = ${set.pct}, created_at = ${set.created}::timestamptz where id = ${id}`;
    return id;
  };
  const a = await make({}, { review: "APPROVED", flagged: 0, pct: 95, created: "2026-01-10T08:00:00Z" });
  const b = await make({}, { review: "HAS_ISSUES", flagged: 2, pct: 40, created: "2026-02-10T08:00:00Z" });
  const c = await make({ status: "IN_PROGRESS", answers: [] }, { review: "RECEIVED", flagged: 0, pct: null, created: "2026-03-10T08:00:00Z" });
  const other = await createTemplate(stack, t, auditTemplateBody(t, { name: "Other audit" }));
  const { id: d } = await importOk(stack, t, importBody(t, other));
  return { tpl, other, a, b, c, d };
}

describe("exports", () => {
  it("CSV: every summary column, oldest first, and every filter of the list honoured", async () => {
    const t = await stack.tenant();
    const s = await seeded(t);
    const all = await csvExport(t, {});
    expect(all.header.slice(0, 5)).toEqual(["id", "inspectionNumber", "templateId", "templateTitle", "templateVersion"]);
    expect(all.header).toEqual(expect.arrayContaining(["score", "scorePercentage", "flaggedCount", "reviewState", "latitude", "longitude"]));
    // Oldest first (createdAt, then id).
    expect(all.records.map((r) => r.id)).toEqual([s.a, s.b, s.c, s.d]);
    expect(all.records[0]).toMatchObject({
      id: s.a,
      reviewState: "APPROVED",
      flaggedCount: "0",
      scorePercentage: "95",
      status: "COMPLETED",
      templateTitle: "Plant audit",
      createdAt: "2026-01-10T08:00:00.000Z",
    });
    expect(all.records[2]).toMatchObject({ id: s.c, status: "IN_PROGRESS", scorePercentage: "" });
    expect(all.res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(all.res.headers.get("content-disposition")).toMatch(/^attachment; filename="inspections-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(all.done.byteSize).toBe(Buffer.byteLength(all.text) + 3); // + the UTF-8 byte order mark
    expect(all.done.expiresAt).toEqual(expect.any(String));

    const cases: [Record<string, unknown>, string[]][] = [
      [{ templateId: s.tpl.id }, [s.a, s.b, s.c]],
      [{ status: "IN_PROGRESS" }, [s.c]],
      [{ reviewState: "HAS_ISSUES" }, [s.b]],
      [{ flagged: true }, [s.b]],
      [{ flagged: false }, [s.a, s.c, s.d]],
      [{ minScorePercentage: 50 }, [s.a]],
      [{ maxScorePercentage: 50 }, [s.b]],
      [{ minScorePercentage: 30, maxScorePercentage: 96 }, [s.a, s.b]],
      [{ createdSince: "2026-02-01T00:00:00Z", createdUntil: "2026-03-10T08:00:00Z" }, [s.b]],
      [{ createdSince: "2026-02-10" }, [s.b, s.c, s.d]],
      [{ siteId: t.sites[1]!.id }, []],
      [{ templateId: "not-a-uuid-at-all" }, []],
    ];
    for (const [filter, expected] of cases) {
      if (filter.templateId === "not-a-uuid-at-all") {
        // A template that is not the organization's is refused before anything is queued.
        expect((await stack.http.post("/api/exports", { format: "csv", filter }, auth(t))).status).toBe(400);
        continue;
      }
      const { records } = await csvExport(t, { filter });
      expect(ids(records), JSON.stringify(filter)).toEqual([...expected].sort());
    }
  });

  it("CSV escapes formula-looking cells and quotes commas, quotes and newlines (RFC 4180); XLSX holds the same rows", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const nasty = ['=HYPERLINK("http://evil")', "+1+2", "-3", "@SUM(A1)", "\tTab", 'a, "quoted"\nsecond line', "plain"];
    const made: string[] = [];
    for (const text of nasty)
      made.push(
        (
          await importOk(
            stack,
            t,
            importBody(t, tpl, {
              answers: [
                { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
                { questionId: tpl.q.remarks!.id, answerText: text },
              ],
            }),
          )
        ).id,
      );
    const { records, text, header } = await csvExport(t, { filter: { templateId: tpl.id }, includeAnswers: true });
    expect(header.slice(-7)).toEqual(["brakes", "brake_issue", "leak_size", "temperature", "inspected_on", "powered", "remarks"]);
    expect(records.map((r) => r.remarks)).toEqual(['\'=HYPERLINK("http://evil")', "'+1+2", "'-3", "'@SUM(A1)", "'\tTab", 'a, "quoted"\nsecond line', "plain"]);
    expect(records.every((r) => r.brakes === "Yes")).toBe(true);
    expect(text).toContain('"a, ""quoted""\nsecond line"');
    expect(text).toContain('"\'=HYPERLINK(""http://evil"")"');
    // Records end with CRLF.
    expect(text.endsWith("\r\n")).toBe(true);

    const id = await requestExport(t, { format: "xlsx", filter: { templateId: tpl.id }, includeAnswers: true });
    expect(await finished(t, id)).toMatchObject({ status: "SUCCEEDED", rowsWritten: nasty.length });
    const res = await download(t, id);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toMatch(/filename="inspections-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet("Inspections")!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(header);
    expect(sheet.rowCount).toBe(nasty.length + 1);
    const remarksCol = header.indexOf("remarks");
    // XLSX cells are typed: text is a string cell, never a formula, so it is kept exactly as answered.
    expect([...Array(nasty.length).keys()].map((i) => values(i + 2)[remarksCol])).toEqual(nasty);
    expect(sheet.getRow(2).getCell(remarksCol + 1).type).toBe(ExcelJS.ValueType.String);
    expect(values(2)[0]).toBe(made[0]);
    // Numbers stay numbers in XLSX.
    expect(typeof values(2)[header.indexOf("flaggedCount")]).toBe("number");
  });

  it("CSV quotes every text field, so a spreadsheet splitting at ';' never opens part of an answer as a formula; numbers stay bare", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const answers = ["x;=1+1", "plain", "a;b;@SUM(A1)"];
    for (const text of answers)
      await importOk(
        stack,
        t,
        importBody(t, tpl, {
          answers: [
            { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
            { questionId: tpl.q.remarks!.id, answerText: text },
          ],
        }),
      );
    const { text, header, records } = await csvExport(t, { filter: { templateId: tpl.id }, includeAnswers: true });
    expect(records.map((r) => r.remarks)).toEqual(answers);
    // The raw file: the answers enclosed in quotes whole, never bare.
    for (const answer of answers) expect(text).toContain(`,"${answer}"`);
    expect(text).not.toMatch(/(^|,)x;=1\+1(,|\r\n)/m);
    // Every field of every record, header included: quoted text, a bare number, or empty (no value).
    const fields = rawFields(text.replace(/^\uFEFF/, ""));
    expect(fields.length).toBe(records.length + 1);
    for (const row of fields) {
      expect(row.length).toBe(header.length);
      for (const field of row) expect(field, `a bare field that is not a number: ${field}`).toMatch(/^("(?:[^"]|"")*"|-?\d+(\.\d+)?|)$/s);
    }
    const [first] = fields.slice(1);
    expect(first![header.indexOf("remarks")]).toBe('"x;=1+1"');
    expect(first![header.indexOf("flaggedCount")]).toMatch(/^\d+$/);
    expect(first![header.indexOf("templateTitle")]).toBe('"Plant audit"');
  });

  it("answers by the rule the PDF report follows: options' labels joined with '; ', a number with its unit, a date-time in UTC; the note in the cell", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const photo = `data:image/png;base64,${png(2, 2).toString("base64")}`;
    await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no"), note: "pads worn", media: [photo] },
          // A multiple choice is answered by its options' values: the seed's "Condition" type labels them Leak and Rust.
          { questionId: tpl.q.brake_issue!.id, answerJson: ["leak", "rust"] },
          { questionId: tpl.q.leak_size!.id, answerNumber: 7 },
          { questionId: tpl.q.temperature!.id, answerNumber: 21.5, unitId: "celsius" },
          { questionId: tpl.q.inspected_on!.id, answerDate: "2026-03-01T10:30:00+01:00" },
        ],
      }),
    );
    const { records } = await csvExport(t, { filter: { templateId: tpl.id }, includeAnswers: true });
    expect(records.map((r) => [r.brakes, r.brake_issue, r.leak_size, r.temperature, r.inspected_on])).toEqual([
      ["No | note: pads worn", "Leak; Rust", "7", "21.5 celsius", "2026-03-01T09:30:00.000Z"],
    ]);
  });

  it("answers across two template versions: a question kept by key is one column", async () => {
    const t = await stack.tenant();
    const tpl: Tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const v1 = await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: tpl.q.remarks!.id, answerText: "first version" },
          { questionId: tpl.q.powered!.id, answerBoolean: true },
        ],
      }),
    );
    const body = auditTemplateBody(t, { name: "Plant audit (2027)" }) as { sections: { questions: Record<string, unknown>[] }[] };
    body.sections[1]!.questions = [{ key: "noise", text: "Any noise?" }, ...body.sections[1]!.questions.filter((q) => q.key !== "powered")];
    const auth2 = auth(t);
    const made = await stack.http.post(`/api/templates/${tpl.id}/versions`, body, auth2);
    expect(made.status).toBe(201);
    expect((await stack.http.post(`/api/templates/${tpl.id}/publish`, {}, auth2)).status).toBe(200);
    const v2q = Object.fromEntries([...made.body.template.sections.flatMap((x: any) => x.questions)].map((q: any) => [q.key, q]));
    const v2 = await importOk(stack, t, {
      templateId: tpl.id,
      conductedBy: t.users.inspector.id,
      siteId: t.sites[0]!.id,
      answers: [
        { questionId: v2q.brakes.id, responseOptionId: v2q.brakes.options.find((o: any) => o.value === "yes").id },
        { questionId: v2q.remarks.id, answerText: "second version" },
        { questionId: v2q.noise.id, answerText: "rattles" },
      ],
    });
    const { header, records } = await csvExport(t, { filter: { templateId: tpl.id }, includeAnswers: true });
    // Newest version's order first, then what only older versions asked.
    expect(header.filter((h) => h === "remarks")).toHaveLength(1);
    expect(header.slice(-8)).toEqual(["brakes", "brake_issue", "leak_size", "noise", "temperature", "inspected_on", "remarks", "powered"]);
    const byId = Object.fromEntries(records.map((r) => [r.id, r]));
    expect(byId[v1.id]).toMatchObject({ templateVersion: "1", remarks: "first version", powered: "Yes", noise: "", brakes: "Yes" });
    expect(byId[v2.id]).toMatchObject({ templateVersion: "2", remarks: "second version", powered: "", noise: "rattles", brakes: "Yes" });
    // includeAnswers needs a template.
    expect(await stack.http.post("/api/exports", { format: "csv", includeAnswers: true }, auth(t))).toMatchObject({ status: 400 });
  });

  it("validates the body", async () => {
    const t = await stack.tenant();
    for (const body of [
      {},
      { format: "pdf" },
      { format: "csv", filter: { status: "DONE" } },
      { format: "csv", filter: { nope: 1 } },
      { format: "csv", filter: { createdSince: "yesterday" } },
      { format: "csv", filter: { flagged: "yes" } },
      { format: "csv", filter: { bbox: "1,2,3" } },
    ]) {
      const res = await stack.http.post("/api/exports", body, auth(t));
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await stack.http.post("/api/exports", { format: "csv", filter: { bbox: "13.08,52.33,13.76,52.68" } }, auth(t))).status).toBe(202);
  });

  it("cancelling a running export stops it at its next page and removes what it wrote; a finished one cannot be cancelled", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    await importOk(stack, t, importBody(t, tpl));
    // 30,000 copies of it: an export of a few seconds.
    await stack.db.sql`
      insert into inspections (organization_id, inspection_number, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, created_at, updated_at)
      select organization_id, 'BULK-' || g, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, now() - g * interval '1 second', now()
      from inspections, generate_series(1, 30000) g where organization_id = ${t.organization.id}`;
    const id = await requestExport(t, { format: "csv" });
    await until(
      "export running",
      async () => (await stack.http.get(`/api/exports/${id}`, auth(t))).body,
      (b) => b.status === "RUNNING" && b.rowsWritten > 0,
    );
    const cancelled = await stack.http.request("DELETE", `/api/exports/${id}`, auth(t));
    expect(cancelled).toMatchObject({ status: 200, body: { id, status: "CANCELLED", downloadUrl: null } });
    // It stops: rows_written stops growing, no file is stored, none is served.
    await new Promise((r) => setTimeout(r, 1500));
    const [row] = await stack.db.sql`select status, rows_written, storage_key from inspection_exports where id = ${id}`;
    expect(row).toMatchObject({ status: "CANCELLED", storage_key: null });
    expect(row!.rows_written).toBeLessThan(30_001);
    await new Promise((r) => setTimeout(r, 500));
    expect((await stack.db.sql`select rows_written from inspection_exports where id = ${id}`)[0]!.rows_written).toBe(row!.rows_written);
    expect((await download(t, id)).status).toBe(409);
    // The worker's temporary file is gone too.
    const spool = path.join(stack.env.MEDIA_DIR!, "tmp");
    expect(existsSync(spool) ? readdirSync(spool).filter((f) => f.endsWith(".export")) : []).toEqual([]);
    // Again: the same answer. A finished export: 409.
    expect((await stack.http.request("DELETE", `/api/exports/${id}`, auth(t))).body.status).toBe("CANCELLED");
    const small = await stack.tenant();
    const done = await requestExport(small, { format: "csv" });
    expect((await finished(small, done)).status).toBe("SUCCEEDED");
    expect((await stack.http.request("DELETE", `/api/exports/${done}`, auth(small))).status).toBe(409);
  });

  it("retention: the sweep deletes the file and the row of exports finished more than EXPORT_RETENTION_HOURS ago", async () => {
    const t = await stack.tenant();
    await importOk(stack, t, importBody(t, await createTemplate(stack, t, auditTemplateBody(t))));
    const [old, fresh] = [await requestExport(t, { format: "csv" }), await requestExport(t, { format: "xlsx" })];
    await finished(t, old);
    await finished(t, fresh);
    const [{ storage_key: key }] = (await stack.db.sql`select storage_key from inspection_exports where id = ${old}`) as unknown as [{ storage_key: string }];
    const file = path.join(stack.env.MEDIA_DIR!, key);
    expect(existsSync(file)).toBe(true);
    await stack.db.sql`update inspection_exports set finished_at = now() - interval '25 hours' where id = ${old}`;
    const deleted = await deleteExpiredExports(dbHandle.db, new FsMediaStore(stack.env.MEDIA_DIR!), 24);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    expect((await stack.http.get(`/api/exports/${old}`, auth(t))).status).toBe(404);
    expect((await stack.http.get(`/api/exports/${fresh}`, auth(t))).body.status).toBe("SUCCEEDED");
    expect((await download(t, fresh)).status).toBe(200);
  });

  it("tenancy: another organization's export is a 404 everywhere and absent from its list; users of the organization may export", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const id = await requestExport(t, { format: "csv" });
    await finished(t, id);
    for (const res of [
      await stack.http.get(`/api/exports/${id}`, auth(other)),
      await stack.http.get(`/api/exports/${id}/download`, auth(other)),
      await stack.http.request("DELETE", `/api/exports/${id}`, auth(other)),
      await stack.http.get(`/api/exports/not-a-uuid`, auth(other)),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await stack.http.get("/api/exports", auth(other))).body).toMatchObject({ exports: [], pagination: { total: 0 } });
    const mine = (await stack.http.get("/api/exports", auth(t))).body;
    expect(mine).toMatchObject({ exports: [{ id, status: "SUCCEEDED" }], pagination: { total: 1, hasMore: false } });
    const user = { auth: { bearer: await userToken(stack, t.users.inspector) } };
    const byUser = await stack.http.post("/api/exports", { format: "xlsx" }, user);
    expect(byUser.status).toBe(202);
    expect((await stack.http.get(`/api/exports/${byUser.body.id}`, user)).body.createdBy).toEqual({ type: "user", id: t.users.inspector.id });
    expect((await stack.http.get("/api/exports")).status).toBe(401);
  });

  it("at most EXPORTS_MAX_RUNNING_PER_ORG (3) queued or running exports per organization: 429 past it", async () => {
    const t = await stack.tenant();
    // Three exports that are running as far as the limit can tell (no job: a worker would finish them).
    await stack.db.sql`
      insert into inspection_exports (organization_id, format, status, created_by_type)
      select ${t.organization.id}, 'csv', s, 'api_key' from unnest(array['QUEUED', 'RUNNING', 'RUNNING']) s`;
    const refused = await stack.http.post("/api/exports", { format: "csv" }, auth(t));
    expect(refused).toMatchObject({
      status: 429,
      body: {
        error:
          "This organization already has 3 exports queued or running (at most 3: EXPORTS_MAX_RUNNING_PER_ORG); wait until one has finished, or cancel one (DELETE /api/exports/{id})",
      },
    });
    expect(refused.headers.get("retry-after")).toBe("30");
    // Another organization is not affected; cancelling one makes room.
    expect((await stack.http.post("/api/exports", { format: "csv" }, auth(await stack.tenant()))).status).toBe(202);
    const [queued] = await stack.db.sql`select id from inspection_exports where organization_id = ${t.organization.id} and status = 'QUEUED'`;
    expect((await stack.http.request("DELETE", `/api/exports/${queued!.id}`, auth(t))).status).toBe(200);
    expect((await stack.http.post("/api/exports", { format: "csv" }, auth(t))).status).toBe(202);
  });
});
