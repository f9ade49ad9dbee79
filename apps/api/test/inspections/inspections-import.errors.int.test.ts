import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Queues, createRedis } from "@insp/queue";
import { requeueStalledImports, type DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, createAsset, dataUrl, importBody, png, publishedAudit, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  // Small limits so the tests can cross them; a short wait so a stuck import answers quickly.
  stack = await startStack({ workers: 1, env: { INSPECTION_BODY_LIMIT_MB: "2", MEDIA_MAX_IMAGE_MB: "1", IMPORT_WAIT_SECONDS: "6" } });
});
afterAll(() => stack?.stop());

const post = (t: DemoSeed, body: unknown, headers: Record<string, string> = {}) =>
  stack.http.post("/api/inspections", body, { auth: { bearer: t.apiKey }, headers });
const count = async (table: string, t: DemoSeed) =>
  (await stack.db.sql`select count(*)::int as n from ${stack.db.sql(table)} where organization_id = ${t.organization.id}`)[0]!.n as number;

async function setup(): Promise<{ t: DemoSeed; tpl: Tpl }> {
  const t = await stack.tenant();
  return { t, tpl: await publishedAudit(stack, t) };
}

describe("the template", () => {
  it("unknown or malformed templateId: 404 {error}", async () => {
    const { t, tpl } = await setup();
    for (const templateId of ["7d1c3f5e-1111-4222-8333-944455556666", "not-a-uuid"]) {
      const res = await post(t, importBody(t, tpl, { templateId }));
      expect(res.status).toBe(404);
      expect(res.body.error).toMatch(/Template .* not found/);
    }
  });

  it("a DRAFT template: 400 naming the status", async () => {
    const t = await stack.tenant();
    const draft = await createTemplate(stack, t, auditTemplateBody(t), false);
    const res = await post(t, importBody(t, draft));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Inspection validation failed", details: ["Template 'Plant audit' is DRAFT: only PUBLISHED templates can be imported"] });
  });
});

describe("every violation is reported at once, one message each", () => {
  it("references, unknown and duplicate questions, missing values and values that do not fit", async () => {
    const { t, tpl } = await setup();
    const res = await post(t, {
      templateId: tpl.id,
      conductedBy: "5f1c3f5e-1111-4222-8333-944455556666",
      answers: [
        { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
        { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "na") },
        { questionId: "9a1c3f5e-1111-4222-8333-944455556666", answerText: "?" },
        { questionId: tpl.q.remarks!.id, note: "only a note" },
        { questionId: tpl.q.temperature!.id, answerText: "warm" },
        { questionId: tpl.q.inspected_on!.id, answerDate: "2026-02-30" },
        { questionId: tpl.q.powered!.id, answerText: "maybe" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Inspection validation failed");
    expect(res.body.details).toEqual([
      "conductedBy '5f1c3f5e-1111-4222-8333-944455556666' is not a user of this organization",
      "siteId is required for AUDIT templates",
      "Question '9a1c3f5e-1111-4222-8333-944455556666' is not part of this template",
      "Question 'Brakes OK?' is answered more than once",
      "Answer to 'Remarks' has no value",
      "Answer to 'Temperature' must be a number",
      "Answer to 'Inspected on': answerDate '2026-02-30' is not an ISO 8601 date or date-time",
      "Answer to 'Powered?' must be true or false",
    ]);
    expect(await count("inspection_imports", t)).toBe(0);
  });

  it(`an answerJson array of more than 1000 items is refused at the door; 1000 are checked like any other`, async () => {
    const { t, tpl } = await setup();
    const answers = (answerJson: unknown[]) => [
      { questionId: tpl.q.brakes!.id, answerText: "no", note: "pads worn", media: [png(2, 2).toString("base64")] },
      { questionId: tpl.q.brake_issue!.id, answerJson },
    ];
    const over = await post(t, importBody(t, tpl, { answers: answers(Array.from({ length: 1001 }, () => "rust")) }));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: "Invalid request body", details: ["answers.1.answerJson: answerJson may hold at most 1000 items"] });
    // 1000 unknown tokens: one message listing each distinct token once.
    const unknown = await post(t, importBody(t, tpl, { answers: answers(Array.from({ length: 1000 }, (_, i) => `x${i % 3}`)) }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual(["Answer to 'What is wrong with the brakes?': options 'x0', 'x1', 'x2' are not options of this question"]);
    expect(await count("inspection_imports", t)).toBe(0);
    const ok = await post(t, importBody(t, tpl, { answers: answers(Array.from({ length: 1000 }, () => "rust")) }));
    expect(ok.status).toBe(201);
  });

  it("an option that is not one of the question's options", async () => {
    const { t, tpl } = await setup();
    const res = await post(t, importBody(t, tpl, { answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: randomUUID() }] }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.stringMatching(/^Answer to 'Brakes OK\?': option '.*' is not an option of this question$/)]);
  });

  it("siteId and assetId that are not the organization's", async () => {
    const { t, tpl } = await setup();
    const other = await stack.tenant();
    const otherAsset = await createAsset(stack, other, "Not yours");
    const res = await post(t, importBody(t, tpl, { siteId: other.sites[0]!.id, assetId: otherAsset }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      `siteId '${other.sites[0]!.id}' is not a site of this organization`,
      `assetId '${otherAsset}' is not an asset of this organization`,
    ]);
  });

  it("completedAt on an IN_PROGRESS import, and completedAt before startedAt", async () => {
    const { t, tpl } = await setup();
    const a = await post(t, importBody(t, tpl, { status: "IN_PROGRESS", completedAt: "2026-01-01T00:00:00Z" }));
    expect(a.body.details).toEqual(["completedAt must not be given for an IN_PROGRESS inspection"]);
    const b = await post(t, importBody(t, tpl, { startedAt: "2026-01-02T00:00:00Z", completedAt: "2026-01-01T00:00:00Z" }));
    expect(b.body.details).toEqual(["completedAt is before startedAt"]);
  });

  it("a schema violation (wrong JSON types, bad status) is a 400 naming the field", async () => {
    const { t, tpl } = await setup();
    const res = await post(t, importBody(t, tpl, { status: "DONE", answers: [{ questionId: tpl.q.temperature!.id, answerNumber: "12" }] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request body");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.stringMatching(/^status/), expect.stringMatching(/^answers\.0\.answerNumber/)]));
  });
});

describe("conditional logic: a three-level chain", () => {
  it("rejects an answer to a hidden grandchild (its parent is hidden) and to a hidden child", async () => {
    const { t, tpl } = await setup();
    const res = await post(
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, answerText: "yes" },
          { questionId: tpl.q.brake_issue!.id, answerJson: ["rust"] },
          { questionId: tpl.q.leak_size!.id, answerNumber: 3 },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      "Question 'What is wrong with the brakes?' is not shown: its trigger condition is not met by the answer to 'Brakes OK?'",
      "Question 'Leak size in cm' is not shown: its parent question 'What is wrong with the brakes?' is not shown",
    ]);
  });

  it("rejects a COMPLETED import where the parent is visible and the required child is missing", async () => {
    const { t, tpl } = await setup();
    const res = await post(
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, answerText: "no", note: "worn", media: [png(1, 1).toString("base64")] },
          { questionId: tpl.q.brake_issue!.id, answerJson: ["leak"] },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(["Required question 'Leak size in cm' is not answered"]);
  });

  it("an IN_PROGRESS import still rejects hidden answers", async () => {
    const { t, tpl } = await setup();
    const res = await post(t, importBody(t, tpl, { status: "IN_PROGRESS", answers: [{ questionId: tpl.q.leak_size!.id, answerNumber: 3 }] }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(["Question 'Leak size in cm' is not shown: its parent question 'What is wrong with the brakes?' is not shown"]);
  });

  it("an option that requires a note and a photo needs both", async () => {
    const { t, tpl } = await setup();
    const res = await post(
      t,
      importBody(t, tpl, { status: "IN_PROGRESS", answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no"), note: "  " }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(["Answer to 'Brakes OK?': option 'No' requires a note", "Answer to 'Brakes OK?': option 'No' requires a photo (media)"]);
  });
});

describe("media", () => {
  it("anything but JPEG, PNG, WebP or GIF, corrupt base64, a non-base64 data URL, a broken image: one detail each, nothing stored", async () => {
    const { t, tpl } = await setup();
    const pdf = Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n").toString("base64");
    const brokenPng = png(4, 4).subarray(0, 16).toString("base64");
    const res = await post(
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, answerText: "yes", media: [pdf, "not*base64!", "data:image/png,rawbytes"] },
          { questionId: tpl.q.remarks!.id, answerText: "x", media: [brokenPng, png(2, 2).toString("base64")] },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      "Answer to 'Brakes OK?': media #1 is not a JPEG, PNG, WebP or GIF image",
      "Answer to 'Brakes OK?': media #2 is not valid base64",
      "Answer to 'Brakes OK?': media #3 is a data URL that is not base64-encoded",
      "Answer to 'Remarks': media #1 is a corrupt PNG image (its dimensions cannot be read)",
    ]);
    expect(await count("media", t)).toBe(0);
  });

  it("an image over MEDIA_MAX_IMAGE_MB is a 400 detail naming the question", async () => {
    const { t, tpl } = await setup();
    const big = Buffer.concat([png(1, 1), Buffer.alloc(1_200_000, 7)]);
    const res = await post(t, importBody(t, tpl, { answers: [{ questionId: tpl.q.brakes!.id, answerText: "yes", media: [dataUrl("image/png", big)] }] }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(["Answer to 'Brakes OK?': media #1 is 1.1 MB, over the per-image limit of 1.0 MB (MEDIA_MAX_IMAGE_MB)"]);
  });

  it("a body over INSPECTION_BODY_LIMIT_MB is a 413 {error}", async () => {
    const { t, tpl } = await setup();
    const res = await post(t, importBody(t, tpl, { answers: [{ questionId: tpl.q.remarks!.id, answerText: "x".repeat(2_300_000) }] }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Request body too large (limit 2 MB)" });
  });
});

describe("Idempotency-Key", () => {
  it("the same key with another body is a 422 {error}; a malformed key is a 400", async () => {
    const { t, tpl } = await setup();
    const headers = { "idempotency-key": "k-1" };
    expect((await post(t, importBody(t, tpl), headers)).status).toBe(201);
    const other = await post(t, importBody(t, tpl, { siteId: t.sites[1]!.id }), headers);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: "Idempotency-Key was already used with a different request body" });
    const bad = await post(t, importBody(t, tpl), { "idempotency-key": "x".repeat(300) });
    expect(bad.status).toBe(400);
    expect(await count("inspections", t)).toBe(1);
  });

  it("a validation failure is replayed as the same 400", async () => {
    const { t, tpl } = await setup();
    const body = importBody(t, tpl, { siteId: undefined });
    const first = await post(t, body, { "idempotency-key": "bad-1" });
    const again = await post(t, body, { "idempotency-key": "bad-1" });
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
  });

  it("a key recorded by the previous release (an HTTP status and body, no outcome) is replayed the same: 201, 400 with details, 404", async () => {
    const { t, tpl } = await setup();
    const cases = [
      { key: "old-201", body: importBody(t, tpl) },
      { key: "old-400", body: importBody(t, tpl, { siteId: undefined }) },
      { key: "old-404", body: importBody(t, tpl, { templateId: randomUUID() }) },
    ];
    for (const c of cases) {
      const first = await post(t, c.body, { "idempotency-key": c.key });
      expect(first.status).toBe({ "old-201": 201, "old-400": 400, "old-404": 404 }[c.key]);
      const body = first.status === 201 ? { id: first.body.id, inspectionNumber: first.body.inspectionNumber } : first.body;
      await stack.db.sql`update idempotency_keys set response_status = ${first.status}, response_body = ${JSON.stringify(body)}::jsonb, outcome = null
        where organization_id = ${t.organization.id} and key = ${c.key}`;
      const again = await post(t, c.body, { "idempotency-key": c.key });
      expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([first.status, first.text, "true"]);
    }
    expect(await count("inspections", t)).toBe(1);
  });
});

describe("the worker side", () => {
  it("a worker failure is a 500 JSON error naming the import, not a hang; the key is released for a retry", async () => {
    const { t, tpl } = await setup();
    // Make every insert of this organization's inspections fail inside the worker's transaction.
    const fn = `fail_${t.organization.id.replace(/-/g, "")}`;
    await stack.db.sql.unsafe(`create function ${fn}() returns trigger language plpgsql as $$ begin
      if new.organization_id = '${t.organization.id}' then raise exception 'disk on fire'; end if; return new; end $$`);
    await stack.db.sql.unsafe(`create trigger ${fn} before insert on inspections for each row execute function ${fn}()`);
    try {
      const res = await post(t, importBody(t, tpl), { "idempotency-key": "retry-me" });
      // Not a hang: a request still waiting at IMPORT_WAIT_SECONDS would get the 503, not this 500.
      expect(res.status).toBe(500);
      expect(res.body.error).toMatch(/^Inspection import [0-9a-f-]{36} failed: the worker could not create the inspection/);
      expect(res.body.error).not.toContain("disk on fire");
      expect((await stack.db.sql`select status from inspection_imports where id = ${res.body.importId}`)[0]!.status).toBe("FAILED");
    } finally {
      await stack.db.sql.unsafe(`drop trigger ${fn} on inspections; drop function ${fn}()`);
    }
    const retry = await post(t, importBody(t, tpl), { "idempotency-key": "retry-me" });
    expect(retry.status).toBe(201);
  });

  it("past IMPORT_WAIT_SECONDS the API answers 503 with the import id; the import finishes and the same key collects it", async () => {
    const { t, tpl } = await setup();
    const queue = new Queues(createRedis({ REDIS_URL: stack.env.REDIS_URL! }, "producer"), stack.env.QUEUE_PREFIX!);
    await queue.queue("inspection-import").pause();
    let res;
    try {
      res = await post(t, importBody(t, tpl), { "idempotency-key": "slow-1" });
    } finally {
      await queue.queue("inspection-import").resume();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body).toEqual({ error: expect.stringMatching(/is still being processed/), importId: expect.any(String) });
    expect(res.body.error).toContain(res.body.importId);
    const again = await post(t, importBody(t, tpl), { "idempotency-key": "slow-1" });
    expect(again.status).toBe(201);
    expect(again.body.inspectionNumber).toBe("INS-000001");
    expect(await count("inspections", t)).toBe(1);
    await queue.close();
  });

  it("an import whose job was lost is queued again by the sweep and completes", async () => {
    const { t, tpl } = await setup();
    const queues = new Queues(createRedis({ REDIS_URL: stack.env.REDIS_URL! }, "producer"), stack.env.QUEUE_PREFIX!);
    const queue = queues.queue("inspection-import");
    await queue.pause();
    let res;
    try {
      res = await post(t, importBody(t, tpl), { "idempotency-key": "lost-1" });
      expect(res.status).toBe(503);
      // Redis loses the job (flush, failover): only the import row in Postgres is left.
      await queue.remove(`import_${res.body.importId}`);
      expect(await requeueStalledImports(stack.db.db, queues, 0)).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.resume();
    }
    const again = await post(t, importBody(t, tpl), { "idempotency-key": "lost-1" });
    expect(again.status).toBe(201);
    expect((await stack.db.sql`select status from inspection_imports where id = ${res.body.importId}`)[0]!.status).toBe("DONE");
    await queues.close();
  });
});
