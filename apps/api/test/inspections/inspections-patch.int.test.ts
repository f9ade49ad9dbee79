import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, until, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk, jpeg, noisyPng, type Tpl } from "../fixtures/inspections.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

/** An IN_PROGRESS inspection of a published "Plant audit" with one answer (remarks), and its ETag. */
async function draft(t: DemoSeed): Promise<{ id: string; tpl: Tpl; etag: string }> {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const { id } = await importOk(stack, t, importBody(t, tpl, { status: "IN_PROGRESS", answers: [{ questionId: tpl.q.remarks!.id, answerText: "started" }] }));
  const res = await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey } });
  return { id, tpl, etag: res.headers.get("etag")! };
}

const patch = (t: DemoSeed, id: string, body: unknown, etag?: string, query = "") =>
  stack.http.patch(`/api/inspections/${id}${query}`, body, { auth: { bearer: t.apiKey }, headers: etag === undefined ? {} : { "if-match": etag } });

describe("PATCH /api/inspections/{id}", () => {
  it("needs If-Match: 428 without it, 412 when stale or weak, and each accepted change is a new revision with a new ETag", async () => {
    const t = await stack.tenant();
    const { id, tpl, etag } = await draft(t);
    // The revision, a fingerprint of the names it shows (inspector, site, template version), the representation.
    expect(etag).toMatch(/^"r1-[0-9a-f]{8}"$/);
    const add = { answers: [{ questionId: tpl.q.temperature!.id, answerNumber: 21.5 }] };

    const none = await patch(t, id, add);
    expect(none).toMatchObject({
      status: 428,
      body: { error: "If-Match is required: send the ETag of GET /api/inspections/{id}, so that a change made meanwhile is not overwritten" },
    });
    expect(await patch(t, id, add, '"r7"')).toMatchObject({
      status: 412,
      body: { error: "The inspection has changed since you read it (it is at revision 1); GET it again and reapply your change with its new ETag" },
    });
    expect((await patch(t, id, add, 'W/"r1"')).status).toBe(412);

    const ok = await patch(t, id, add, etag);
    expect(ok.status).toBe(200);
    const r2 = ok.headers.get("etag")!;
    expect(r2).toMatch(/^"r2-[0-9a-f]{8}"$/);
    expect(ok.body).toMatchObject({ id, revision: 2, status: "IN_PROGRESS" });
    expect(ok.body.answers.map((a: { questionId: string }) => a.questionId)).toEqual([tpl.q.remarks!.id, tpl.q.temperature!.id]);
    // The ETag read before is stale now; If-None-Match with the new one is a 304.
    expect((await patch(t, id, add, etag)).status).toBe(412);
    const cached = await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey }, headers: { "if-none-match": r2 } });
    expect(cached.status).toBe(304);
    const byUrl = (await stack.http.get(`/api/inspections/${id}?images=url`, { auth: { bearer: t.apiKey } })).headers.get("etag")!;
    expect(byUrl).toBe(r2.replace(/"$/, '.url"'));
    // A renamed site is a new representation (no 304), not a new revision: If-Match with the old tag still works.
    await stack.db.sql`update sites set name = 'Renamed plant' where id = ${t.sites[0]!.id}`;
    expect((await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey }, headers: { "if-none-match": r2 } })).status).toBe(200);
    // Either representation's ETag names the revision; so does the bare "r2", and a list of tags matches when any does.
    expect((await patch(t, id, { answers: [{ questionId: tpl.q.temperature!.id, answerNumber: 22 }] }, `"r1", ${byUrl}`)).headers.get("etag")).toMatch(/^"r3-/);
    // The same values again change nothing: no new revision.
    const same = await patch(t, id, { answers: [{ questionId: tpl.q.temperature!.id, answerNumber: 22 }] }, '"r3"');
    expect(same.status).toBe(200);
    expect(same.body.revision).toBe(3);
    // If-Match: * skips the check.
    expect((await patch(t, id, { removeAnswers: [tpl.q.temperature!.id] }, "*")).body.revision).toBe(4);
  });

  it("validates the answers it ends with like an import, and completing needs every visible required question", async () => {
    const t = await stack.tenant();
    const { id, tpl, etag } = await draft(t);
    // Completing without the required "brakes": the import's message.
    const early = await patch(t, id, { status: "COMPLETED" }, etag);
    expect(early).toMatchObject({ status: 400, body: { error: "Inspection validation failed", details: ["Required question 'Brakes OK?' is not answered"] } });
    // Hidden questions, bad values, unknown questions and option requirements, all at once.
    const bad = await patch(
      t,
      id,
      {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no") },
          { questionId: tpl.q.leak_size!.id, answerNumber: 3 },
          { questionId: tpl.q.temperature!.id, answerText: "warm" },
          { questionId: "00000000-0000-4000-8000-000000000000", answerText: "x" },
        ],
        removeAnswers: [tpl.q.powered!.id],
      },
      etag,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      "removeAnswers: question 'Powered?' has no answer to remove",
      "Question '00000000-0000-4000-8000-000000000000' is not part of this template",
      "Answer to 'Temperature' must be a number",
      "Question 'Leak size in cm' is not shown: its trigger condition is not met by the answer to 'What is wrong with the brakes?' (it is not answered)",
      "Answer to 'Brakes OK?': option 'No' requires a note",
      "Answer to 'Brakes OK?': option 'No' requires a photo (media)",
    ]);
    expect((await stack.http.get(`/api/inspections/${id}/revisions`, { auth: { bearer: t.apiKey } })).body.revisions).toHaveLength(1);
    // A completedAt while it stays IN_PROGRESS is refused too.
    expect((await patch(t, id, { completedAt: "2026-01-01T00:00:00Z" }, etag)).body.details).toEqual([
      "completedAt must not be given for an IN_PROGRESS inspection",
    ]);

    const done = await patch(t, id, { status: "COMPLETED", answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") }] }, etag);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "COMPLETED", revision: 2, completedAt: expect.any(String) });
    expect(Date.now() - Date.parse(done.body.completedAt)).toBeLessThan(60_000);
    const list = await stack.http.get(`/api/inspections?status=COMPLETED`, { auth: { bearer: t.apiKey } });
    expect(list.body.inspections.map((i: { id: string }) => i.id)).toContain(id);
  });

  it("a COMPLETED inspection can be corrected (each correction a revision) but stays complete and never goes back to IN_PROGRESS", async () => {
    const t = await stack.tenant();
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const { id } = await importOk(stack, t, importBody(t, tpl, { completedAt: "2026-03-01T09:30:00Z", startedAt: "2026-03-01T08:00:00Z" }));
    const back = await patch(t, id, { status: "IN_PROGRESS" }, '"r1"');
    expect(back).toMatchObject({ status: 409, body: { error: "A COMPLETED inspection cannot go back to IN_PROGRESS" } });
    const unanswered = await patch(t, id, { removeAnswers: [tpl.q.brakes!.id] }, '"r1"');
    expect(unanswered.body.details).toEqual(["Required question 'Brakes OK?' is not answered"]);
    const fixed = await patch(t, id, { answers: [{ questionId: tpl.q.remarks!.id, answerText: "added after the visit" }] }, '"r1"');
    expect(fixed.body).toMatchObject({ status: "COMPLETED", revision: 2, completedAt: "2026-03-01T09:30:00.000Z" });
    expect((await patch(t, id, { completedAt: "2026-03-01T07:00:00Z" }, '"r2"')).body.details).toEqual(["completedAt is before startedAt"]);
    const moved = await patch(t, id, { completedAt: "2026-03-01T10:00:00Z" }, '"r2"');
    expect(moved.body).toMatchObject({ revision: 3, completedAt: "2026-03-01T10:00:00.000Z" });
  });

  it("keeps every revision: the list says who changed what, and each can be read as it was, images included", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const { id, tpl } = await draft(t);
    const [png, jpg] = [noisyPng(20, 10), jpeg(4, 3)];
    const up = await fetch(`${stack.http.baseUrl}/api/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
      body: png,
    });
    const { mediaId } = (await up.json()) as { mediaId: string };
    // r2: an image by reference on remarks (changed) and a new answer with a base64 image.
    const r2 = await patch(
      t,
      id,
      {
        answers: [
          { questionId: tpl.q.remarks!.id, answerText: "with photo", mediaIds: [mediaId] },
          { questionId: tpl.q.powered!.id, answerBoolean: true, media: [jpg.toString("base64")] },
        ],
      },
      '"r1"',
      "?images=url",
    );
    expect(r2.status).toBe(200);
    expect(r2.headers.get("etag")).toMatch(/^"r2-[0-9a-f]{8}\.url"$/);
    expect(r2.body.answers.map((a: { images: { mimeType: string }[] }) => a.images.map((i) => i.mimeType))).toEqual([["image/png"], ["image/jpeg"]]);
    // r3: remarks' image dropped (only the value given), powered removed, completed.
    const r3 = await patch(
      t,
      id,
      {
        status: "COMPLETED",
        answers: [
          { questionId: tpl.q.remarks!.id, answerText: "no photo after all" },
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
        ],
        removeAnswers: [tpl.q.powered!.id],
      },
      '"r2"',
    );
    expect(r3.status).toBe(200);
    expect(r3.body.answers.map((a: { questionId: string; images: unknown[] }) => [a.questionId, a.images.length])).toEqual([
      [tpl.q.remarks!.id, 0],
      [tpl.q.brakes!.id, 0],
    ]);

    const revisions = await stack.http.get(`/api/inspections/${id}/revisions`, { auth });
    expect(revisions.status).toBe(200);
    const actor = { type: "api_key", id: expect.any(String) };
    expect(revisions.body.revisions).toEqual([
      {
        revision: 1,
        createdAt: expect.any(String),
        status: "IN_PROGRESS",
        completedAt: null,
        actor,
        requestId: expect.any(String),
        changes: { added: [tpl.q.remarks!.id], changed: [], removed: [] },
      },
      {
        revision: 2,
        createdAt: expect.any(String),
        status: "IN_PROGRESS",
        completedAt: null,
        actor,
        requestId: expect.any(String),
        changes: { added: [tpl.q.powered!.id], changed: [tpl.q.remarks!.id], removed: [] },
      },
      {
        revision: 3,
        createdAt: expect.any(String),
        status: "COMPLETED",
        completedAt: expect.any(String),
        actor,
        requestId: expect.any(String),
        changes: { added: [tpl.q.brakes!.id], changed: [tpl.q.remarks!.id], removed: [tpl.q.powered!.id], status: { from: "IN_PROGRESS", to: "COMPLETED" } },
      },
    ]);

    const first = await stack.http.get(`/api/inspections/${id}/revisions/1`, { auth });
    expect(first.body).toMatchObject({ revision: 1, status: "IN_PROGRESS", completedAt: null });
    expect(first.body.answers.map((a: { answerText: string }) => a.answerText)).toEqual(["started"]);
    const second = await stack.http.get(`/api/inspections/${id}/revisions/2`, { auth });
    expect(second.body).toMatchObject({ revision: 2, status: "IN_PROGRESS" });
    expect(second.body.answers.map((a: { answerText: string | null; answerBoolean: boolean | null }) => a.answerText ?? a.answerBoolean)).toEqual([
      "with photo",
      true,
    ]);
    // An old revision's images are still served: what it referenced is kept.
    expect(second.body.answers[0].images[0].imgBlobSrc).toBe(`data:image/png;base64,${png.toString("base64")}`);
    expect(second.body.answers[1].images[0].imgBlobSrc).toBe(`data:image/jpeg;base64,${jpg.toString("base64")}`);
    const current = await stack.http.get(`/api/inspections/${id}/revisions/3`, { auth });
    expect(current.body).toEqual((await stack.http.get(`/api/inspections/${id}`, { auth })).body);
    expect(await stack.http.get(`/api/inspections/${id}/revisions/4`, { auth })).toMatchObject({
      status: 404,
      body: { error: `Inspection ${id} has no revision 4` },
    });
    expect((await stack.http.get(`/api/inspections/${id}/revisions/zero`, { auth })).status).toBe(400);
    // The list with includeAnswers shows the current answers only.
    const listed = await stack.http.get("/api/inspections?includeAnswers=true", { auth });
    expect(listed.body.inspections.find((i: { id: string }) => i.id === id).answers.map((a: { answerText: string | null }) => a.answerText)).toEqual([
      "no photo after all",
      null,
    ]);
  });

  it("of two PATCHes with the same ETag, one wins and the other gets 412; the change log, webhooks' source and audit see each change", async () => {
    const t = await stack.tenant();
    const { id, tpl, etag } = await draft(t);
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((v) => patch(t, id, { answers: [{ questionId: tpl.q.remarks!.id, answerText: `writer ${v}` }] }, etag)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey } })).body.answers[0].answerText).toBe(winner.body.answers[0].answerText);
    await patch(t, id, { status: "COMPLETED", answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") }] }, '"r2"');

    // A feed shows a change once every older transaction of this database has ended: poll.
    const changes = await until(
      "the feed's changes",
      async () => (await stack.http.get("/api/feed/inspections", { auth: { bearer: t.apiKey } })).body.items.map((i: { change: string }) => i.change),
      (c: string[]) => c.length >= 4,
    );
    expect(changes).toEqual(["created", "updated", "updated", "completed"]);
    const audit = await stack.http.get(`/api/audit?resourceId=${id}&action=inspection.updated`, { auth: { bearer: t.apiKey } });
    expect(audit.body.items.map((i: { changedFields: string[] }) => i.changedFields)).toEqual([["answers", "status", "completedAt"], ["answers"]]);
  });

  it("is sealed per organization and checks its input: another tenant's inspection is a 404, bad bodies are 400s", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const { id, tpl, etag } = await draft(t);
    const theirs = await stack.http.patch(
      `/api/inspections/${id}`,
      { removeAnswers: [tpl.q.remarks!.id] },
      { auth: { bearer: other.apiKey }, headers: { "if-match": etag } },
    );
    expect(theirs).toMatchObject({ status: 404, body: { error: `Inspection ${id} not found` } });
    expect((await stack.http.get(`/api/inspections/${id}/revisions`, { auth: { bearer: other.apiKey } })).status).toBe(404);
    expect((await stack.http.get(`/api/inspections/${id}/revisions/1`, { auth: { bearer: other.apiKey } })).status).toBe(404);
    expect((await stack.http.patch(`/api/inspections/${id}`, { removeAnswers: [] }, { auth: null, headers: { "if-match": etag } })).status).toBe(401);
    expect((await patch(t, "not-a-uuid", { status: "COMPLETED" }, etag)).status).toBe(404);
    expect(await patch(t, id, {}, etag)).toMatchObject({
      status: 400,
      body: { error: "Invalid request body", details: ["give at least one of status, completedAt, answers, removeAnswers, location"] },
    });
    expect((await patch(t, id, { status: "DONE" }, etag)).status).toBe(400);
    expect((await patch(t, id, { conductedBy: t.users.admin.id }, etag)).body.details).toEqual(['Unrecognized key: "conductedBy"']);
    const both = await patch(t, id, { answers: [{ questionId: tpl.q.remarks!.id, answerText: "x" }], removeAnswers: [tpl.q.remarks!.id] }, etag);
    expect(both.body.details).toEqual(["removeAnswers: question 'Remarks' is also answered in this request"]);
    // Another organization's uploaded image cannot be referenced.
    const up = await fetch(`${stack.http.baseUrl}/api/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.apiKey}`, "content-type": "image/png" },
      body: noisyPng(3, 3),
    });
    const { mediaId } = (await up.json()) as { mediaId: string };
    const stolen = await patch(t, id, { answers: [{ questionId: tpl.q.remarks!.id, answerText: "x", mediaIds: [mediaId] }] }, etag);
    expect(stolen.body.details).toEqual([`Answer to 'Remarks': mediaId '${mediaId}' not found (upload it with POST /api/media)`]);
  });
});
