import { rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { DemoSeed } from "@insp/core";
import { createApiKey } from "@insp/core";
import { Queues, createRedis } from "@insp/queue";
import { startStack, until, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk, png, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

/** GET with the raw bytes (the harness's client reads text). */
async function getPdf(t: DemoSeed | string, id: string, headers: Record<string, string> = {}) {
  const bearer = typeof t === "string" ? t : t.apiKey;
  const res = await fetch(`${stack.http.baseUrl}/api/inspections/${id}/report.pdf`, { headers: { authorization: `Bearer ${bearer}`, ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString("utf8")) };
}

/** pdf.js reads the 14 standard PDF fonts' metrics from its own folder (the report uses Helvetica). */
const standardFontDataUrl = path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts") + path.sep;

/** Every page's text, pages joined by newlines. */
async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ("str" in it ? it.str : "")).join(" "));
  }
  await doc.destroy();
  return { text: pages.join("\n").replace(/\s+/g, " "), pages: doc.numPages };
}

/** A completed "Plant audit" with a flagged answer, a note, an image and a corrective action. */
async function inspection(t: DemoSeed): Promise<{ id: string; inspectionNumber: string; tpl: Tpl }> {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t, { name: "Forklift check" }));
  const body = importBody(t, tpl, {
    answers: [
      { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
      { questionId: tpl.q.temperature!.id, answerNumber: 21.5, unitId: "celsius" },
      { questionId: tpl.q.inspected_on!.id, answerDate: "2026-03-01T10:30:00+01:00" },
      { questionId: tpl.q.powered!.id, answerBoolean: true, media: [png(1200, 900, 7).toString("base64")] },
      { questionId: tpl.q.remarks!.id, answerText: "Mast chain looks worn", note: "Checked by the night shift" },
    ],
  });
  const made = await importOk(stack, t, body);
  const action = await stack.http.post(
    "/api/actions",
    {
      title: "Replace the mast chain",
      inspectionId: made.id,
      questionId: tpl.q.remarks!.id,
      assigneeId: t.users.inspector.id,
      dueAt: "2030-01-15T00:00:00.000Z",
    },
    { auth: { bearer: t.apiKey } },
  );
  expect(action.status).toBe(201);
  return { ...made, tpl };
}

const reportRows = (inspectionId: string) =>
  stack.db.sql`select id, status, storage_key, pages, byte_size from inspection_reports where inspection_id = ${inspectionId} order by created_at`;
async function reportJobs(): Promise<number> {
  const queues = new Queues(createRedis({ REDIS_URL: stack.env.REDIS_URL! }, "producer"), stack.env.QUEUE_PREFIX!);
  try {
    return (await queues.queue("inspection-report").getJobs(["completed", "failed", "active", "waiting", "prioritized", "delayed"])).length;
  } finally {
    await queues.close();
  }
}

describe("GET /api/inspections/{id}/report.pdf", () => {
  it("renders the inspection as a PDF with its header, answers, notes, score and actions, and serves it again from the store while nothing changes", async () => {
    const t = await stack.tenant();
    const { id, inspectionNumber, tpl } = await inspection(t);
    const jobsBefore = await reportJobs();

    const first = await getPdf(t, id);
    expect(first.status, first.bytes.toString("utf8").slice(0, 300)).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/pdf");
    expect(first.headers.get("content-disposition")).toBe(`attachment; filename="${inspectionNumber}-forklift-check.pdf"`);
    expect(first.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"report-[0-9a-f-]{36}"$/);

    const { text, pages } = await pdfText(first.bytes);
    for (const s of [
      "Forklift check",
      inspectionNumber,
      "Brakes OK?",
      "Yes",
      "Temperature",
      "21.5 celsius",
      "Inspected on",
      "2026-03-01T09:30:00.000Z",
      "Powered?",
      "Mast chain looks worn",
      "Note: Checked by the night shift",
      "Replace the mast chain",
      "RECEIVED",
      "2030-01-15",
      `page 1 of ${pages}`,
    ]) {
      expect(text, s).toContain(s);
    }
    expect(text).toMatch(/Score \d+ \/ \d+/);
    expect(text).toContain(t.sites[0]!.name);
    // The option label, not its value or id.
    expect(text).not.toContain(tpl.opt("brakes", "yes"));

    const [row] = await reportRows(id);
    expect(row).toMatchObject({ status: "SUCCEEDED", pages });
    expect(Number(row!.byte_size)).toBe(first.bytes.length);
    // The image was scaled down and recompressed, never embedded at its full 1200 x 900 x 3 bytes.
    expect(first.bytes.length).toBeLessThan(1200 * 900 * 3);

    // Unchanged: the same file, the same row, no second job; If-None-Match is a 304.
    const again = await getPdf(t, id);
    expect(again.status).toBe(200);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await reportRows(id)).toHaveLength(1);
    expect((await reportJobs()) - jobsBefore).toBe(1);
    expect((await getPdf(t, id, { "if-none-match": etag })).status).toBe(304);

    // The status resource of that report.
    const status = await stack.http.get(`/api/inspections/${id}/reports/${row!.id}`, { auth: { bearer: t.apiKey } });
    expect(status).toMatchObject({
      status: 200,
      body: {
        id: row!.id,
        status: "SUCCEEDED",
        pages,
        downloadUrl: `/api/inspections/${id}/report.pdf`,
        statusUrl: `/api/inspections/${id}/reports/${row!.id}`,
      },
    });
  });

  it("places images one below the other, scaled to the page: four photos of one answer take more than one page", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const photos = [1, 2, 3, 4].map((seed) => png(1600, 1200, seed).toString("base64"));
    const { id } = await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: tpl.q.remarks!.id, answerText: "four photos", media: photos },
        ],
      }),
    );
    const res = await getPdf(t, id);
    expect(res.status).toBe(200);
    // Each is at most a third of a page high: four of them and the header do not fit on one page.
    const { text, pages } = await pdfText(res.bytes);
    expect(pages).toBeGreaterThan(1);
    expect(pages).toBeLessThan(5);
    expect(text).toContain("four photos");
  });

  it("renders a new report after a PATCH, with the new answer, and deletes the old one with its file", async () => {
    const t = await stack.tenant();
    const { id, tpl } = await inspection(t);
    const first = await getPdf(t, id);
    expect(first.status).toBe(200);
    const [old] = await reportRows(id);

    const detail = await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey } });
    const patched = await stack.http.patch(
      `/api/inspections/${id}`,
      { answers: [{ questionId: tpl.q.temperature!.id, answerNumber: 37.25 }] },
      { auth: { bearer: t.apiKey }, headers: { "if-match": detail.headers.get("etag")! } },
    );
    expect(patched.status).toBe(200);

    const second = await getPdf(t, id);
    expect(second.status).toBe(200);
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
    const { text } = await pdfText(second.bytes);
    expect(text).toContain("37.25");
    expect(text).not.toContain("21.5");
    // The old report is gone: its row, its status URL and its file.
    const rows = await reportRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(old!.id);
    expect((await stack.http.get(`/api/inspections/${id}/reports/${old!.id}`, { auth: { bearer: t.apiKey } })).status).toBe(404);
    expect(existsSync(path.join(stack.env.MEDIA_DIR!, old!.storage_key as string))).toBe(false);
    expect(existsSync(path.join(stack.env.MEDIA_DIR!, rows[0]!.storage_key as string))).toBe(true);

    // A new corrective action changes what the report prints: another report.
    await stack.http.post("/api/actions", { title: "Check the battery", inspectionId: id, questionId: tpl.q.powered!.id }, { auth: { bearer: t.apiKey } });
    const third = await getPdf(t, id);
    expect(third.headers.get("etag")).not.toBe(second.headers.get("etag"));
    expect((await pdfText(third.bytes)).text).toContain("Check the battery");
  });

  it("answers 202 with a status URL when the report is not ready within REPORT_WAIT_SECONDS, shares one rendering between requests, and the status URL follows it", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    const queues = new Queues(createRedis({ REDIS_URL: stack.env.REDIS_URL! }, "producer"), stack.env.QUEUE_PREFIX!);
    let pending: Awaited<ReturnType<typeof getPdf>>[];
    await queues.queue("inspection-report").pause();
    try {
      pending = await Promise.all([getPdf(t, id), getPdf(t, id)]);
    } finally {
      await queues.queue("inspection-report").resume();
      await queues.close();
    }
    for (const p of pending) {
      expect(p.status).toBe(202);
      expect(p.headers.get("retry-after")).toBe("5");
    }
    const [a, b] = pending.map((p) => p.json());
    // Two requests, one report.
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ status: "QUEUED", statusUrl: `/api/inspections/${id}/reports/${a.id}` });
    expect(await reportRows(id)).toHaveLength(1);

    const done = await until(
      "the report rendered",
      async () => (await stack.http.get(a.statusUrl, { auth: { bearer: t.apiKey } })).body,
      (body) => body.status === "SUCCEEDED",
    );
    expect(done).toMatchObject({ downloadUrl: `/api/inspections/${id}/report.pdf`, error: null, attempts: 1 });
    const pdf = await getPdf(t, id);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("etag")).toBe(`"report-${a.id}"`);
  });

  it("a report whose job ended without settling it (a worker that died, Postgres away at the end) is rendered again by the next request", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    expect((await getPdf(t, id)).status).toBe(200);
    // The row says RUNNING while its job is over (BullMQ keeps the completed job, and with it its id).
    await stack.db.sql`update inspection_reports set status = 'RUNNING', storage_key = null where inspection_id = ${id}`;
    const again = await getPdf(t, id);
    expect(again.status).toBe(200);
    expect((await pdfText(again.bytes)).text).toContain("Mast chain looks worn");
    expect(await reportRows(id)).toMatchObject([{ status: "SUCCEEDED" }]);
  });

  it("a report that cannot be rendered is answered with the reason, not a 500", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    // The image's bytes are lost from the store: the worker cannot draw it.
    const [m] = await stack.db
      .sql`select m.storage_key from media m join answer_media am on am.media_id = m.id join inspection_answers a on a.id = am.answer_id where a.inspection_id = ${id}`;
    await rm(path.join(stack.env.MEDIA_DIR!, m!.storage_key as string));
    const res = await getPdf(t, id);
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ error: expect.stringMatching(/could not be rendered: an image of the inspection is missing from the media store$/) });
    const status = await stack.http.get(res.json().statusUrl, { auth: { bearer: t.apiKey } });
    expect(status.body).toMatchObject({ status: "FAILED", error: "an image of the inspection is missing from the media store", downloadUrl: null });
  });

  it("is the same permission as reading the inspection: another organization's inspection is 404, a key without inspections:read is 403", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const { id } = await inspection(t);
    const foreign = await getPdf(other, id);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual({ error: `Inspection ${id} not found` });
    expect(await stack.db.sql`select 1 from inspection_reports where inspection_id = ${id}`).toHaveLength(0);
    expect((await getPdf(t, "not-a-uuid")).status).toBe(404);

    const mediaOnly = (await createApiKey(stack.db.db, t.organization.id, "media only", undefined, undefined, ["media:read"])).apiKey;
    const denied = await getPdf(mediaOnly, id);
    expect(denied.status).toBe(403);
    expect((await fetch(`${stack.http.baseUrl}/api/inspections/${id}/report.pdf`)).status).toBe(401);

    // The other organization cannot read this one's report status either.
    const made = await getPdf(t, id);
    expect(made.status).toBe(200);
    const [row] = await reportRows(id);
    expect((await stack.http.get(`/api/inspections/${id}/reports/${row!.id}`, { auth: { bearer: other.apiKey } })).status).toBe(404);
  });
});
