/**
 * Review of inspections (states, who may review, comments, the approved-then-patched rule) against
 * the real API and worker processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { startStack, until, type Stack } from "@insp/testing";
import { auditTemplateBody, createTemplate, importBody, importOk, type Tpl } from "../fixtures/inspections.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const key = (t: DemoSeed) => ({ auth: { bearer: t.apiKey } });
const review = (auth: { auth: { bearer: string } }, id: string, body: unknown) => stack.http.post(`/api/inspections/${id}/review`, body, auth);

async function inspection(t: DemoSeed, extra: Record<string, unknown> = {}): Promise<{ id: string; tpl: Tpl }> {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const { id } = await importOk(stack, t, importBody(t, tpl, extra));
  return { id, tpl };
}

describe("POST /api/inspections/{id}/review", () => {
  it("moves between RECEIVED, HAS_ISSUES, APPROVED and REJECTED; HAS_ISSUES and REJECTED need a comment; the state shows everywhere and filters the list", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    const other = await inspection(t);
    const detail = await stack.http.get(`/api/inspections/${id}`, key(t));
    expect(detail.body.reviewState).toBe("RECEIVED");
    const etag = detail.headers.get("etag")!;

    for (const state of ["HAS_ISSUES", "REJECTED"]) {
      for (const body of [{ state }, { state, comment: "   " }]) {
        const res = await review(key(t), id, body);
        expect(res.status).toBe(400);
        expect(res.body.details).toEqual([`comment: a review that sets ${state} needs a comment saying why`]);
      }
    }
    expect((await review(key(t), id, { state: "DONE" })).body.details).toEqual(["state: state must be one of RECEIVED, HAS_ISSUES, APPROVED, REJECTED"]);
    expect((await review(key(t), id, { state: "APPROVED", comment: "x".repeat(10_001) })).status).toBe(400);

    const issues = await review(key(t), id, { state: "HAS_ISSUES", comment: "Photo of the brakes missing" });
    expect(issues.status).toBe(200);
    expect(issues.body).toMatchObject({
      inspectionId: id,
      reviewState: "HAS_ISSUES",
      previousState: "RECEIVED",
      comment: { kind: "review", reviewState: "HAS_ISSUES", body: "Photo of the brakes missing", author: { type: "api_key" } },
    });
    const approved = await review(key(t), id, { state: "APPROVED" });
    expect(approved.body).toMatchObject({ reviewState: "APPROVED", previousState: "HAS_ISSUES", comment: null });

    // The detail is a new representation (no 304 with the old ETag), the list shows and filters the state.
    expect((await stack.http.get(`/api/inspections/${id}`, { ...key(t), headers: { "if-none-match": etag } })).status).toBe(200);
    const list = async (q: string) => (await stack.http.get(`/api/inspections?${q}`, key(t))).body;
    expect((await list("reviewState=APPROVED")).inspections.map((i: any) => [i.id, i.reviewState])).toEqual([[id, "APPROVED"]]);
    expect((await list("reviewState=RECEIVED")).inspections.map((i: any) => i.id)).toEqual([other.id]);
    expect((await stack.http.get("/api/inspections?reviewState=OK", key(t))).status).toBe(400);

    // Webhooks' source (the change log, through the feed) and the audit log see each review.
    // A change appears in a feed once every transaction older than it has ended, on the whole server: polled.
    const changes = (body: any) => body.items.filter((i: any) => i.id === id).map((i: any) => i.change);
    const feed = await until(
      "reviews in the feed",
      async () => (await stack.http.get("/api/feed/inspections?limit=100", key(t))).body,
      (b) => changes(b).length === 3,
    );
    expect(changes(feed)).toEqual(["created", "reviewed", "reviewed"]);
    expect(feed.items.find((i: any) => i.change === "reviewed").resource.reviewState).toBe("APPROVED");
    const audit = await stack.http.get(`/api/audit?action=inspection.reviewed&resourceId=${id}`, key(t));
    expect(audit.body.items.map((e: any) => e.changedFields)).toEqual([["reviewState"], ["reviewState", "comment"]]);
  });

  it("admin users and keys allowed to write inspections review; other users, keys without the scope and the inspector of the inspection may not", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    const byAdmin = await inspection(t, { conductedBy: t.users.admin.id });
    const inspector = { auth: { bearer: await userToken(stack, t.users.inspector) } };
    const admin = { auth: { bearer: await userToken(stack, t.users.admin) } };
    expect(await review(inspector, id, { state: "APPROVED" })).toMatchObject({ status: 403, body: { error: "Only admin users can review inspections" } });
    const own = { status: 403, body: { error: "You cannot review an inspection you conducted, imported or changed" } };
    expect(await review(admin, byAdmin.id, { state: "APPROVED" })).toMatchObject(own);
    expect((await review(admin, id, { state: "APPROVED" })).body).toMatchObject({ reviewState: "APPROVED", comment: null });
    // An admin who changed someone else's inspection cannot approve the result either.
    const changed = await inspection(t);
    const patched = await stack.http.patch(
      `/api/inspections/${changed.id}`,
      { answers: [{ questionId: changed.tpl.q.remarks!.id, answerText: "mine now" }] },
      { ...admin, headers: { "if-match": "*" } },
    );
    expect(patched.status).toBe(200);
    expect(await review(admin, changed.id, { state: "APPROVED" })).toMatchObject(own);
    const readOnly = (await createApiKey(stack.db.db, t.organization.id, "reader", undefined, undefined, ["inspections:read"])).apiKey;
    expect(await review({ auth: { bearer: readOnly } }, id, { state: "REJECTED", comment: "no" })).toMatchObject({
      status: 403,
      body: { error: "API key lacks the scope inspections:write" },
    });
    const stranger = await stack.tenant();
    expect((await review(key(stranger), id, { state: "APPROVED" })).status).toBe(404);
    expect((await review(key(t), "not-a-uuid", { state: "APPROVED" })).status).toBe(404);
  });
});

describe("comments", () => {
  it("anyone of the organization comments; newest last, paged, author and time kept; bodies are checked", async () => {
    const t = await stack.tenant();
    const { id } = await inspection(t);
    const inspector = { auth: { bearer: await userToken(stack, t.users.inspector) } };
    const first = await stack.http.post(`/api/inspections/${id}/comments`, { body: "Brakes re-checked after the repair" }, inspector);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      kind: "comment",
      reviewState: null,
      body: "Brakes re-checked after the repair",
      author: { type: "user", id: t.users.inspector.id, name: "Demo Inspector" },
    });
    await review(key(t), id, { state: "REJECTED", comment: "Wrong asset" });
    await stack.http.post(`/api/inspections/${id}/comments`, { body: "Asset corrected" }, key(t));
    const page1 = await stack.http.get(`/api/inspections/${id}/comments?limit=2`, key(t));
    expect(page1.body.comments.map((c: any) => [c.kind, c.body])).toEqual([
      ["comment", "Brakes re-checked after the repair"],
      ["review", "Wrong asset"],
    ]);
    expect(page1.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const page2 = await stack.http.get(`/api/inspections/${id}/comments?limit=2&offset=2`, key(t));
    expect(page2.body.comments.map((c: any) => c.body)).toEqual(["Asset corrected"]);
    expect(page2.body.pagination.hasMore).toBe(false);

    for (const body of [{}, { body: "  " }, { body: "x".repeat(10_001) }, { body: 5 }, { body: "ok", extra: 1 }]) {
      expect((await stack.http.post(`/api/inspections/${id}/comments`, body, key(t))).status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await stack.http.post(`/api/inspections/${id}/comments`, { body: "x".repeat(10_000) }, key(t))).status).toBe(201);
    const stranger = await stack.tenant();
    expect((await stack.http.get(`/api/inspections/${id}/comments`, key(stranger))).status).toBe(404);
    expect((await stack.http.post(`/api/inspections/${id}/comments`, { body: "hi" }, key(stranger))).status).toBe(404);
  });
});

describe("an approved inspection that changes", () => {
  it("goes back to RECEIVED with a system comment saying so; a change of another state keeps it", async () => {
    const t = await stack.tenant();
    const { id, tpl } = await inspection(t);
    await review(key(t), id, { state: "APPROVED" });
    let etag = (await stack.http.get(`/api/inspections/${id}`, key(t))).headers.get("etag")!;
    const patched = await stack.http.patch(
      `/api/inspections/${id}`,
      { answers: [{ questionId: tpl.q.remarks!.id, answerText: "added later" }] },
      { ...key(t), headers: { "if-match": etag } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.reviewState).toBe("RECEIVED");
    const comments = (await stack.http.get(`/api/inspections/${id}/comments`, key(t))).body.comments;
    expect(comments.at(-1)).toMatchObject({
      kind: "system",
      reviewState: "RECEIVED",
      body: "Changed after approval (revision 2): the review state is back to RECEIVED",
      author: { type: "system", id: null },
    });

    await review(key(t), id, { state: "HAS_ISSUES", comment: "Remarks unclear" });
    etag = (await stack.http.get(`/api/inspections/${id}`, key(t))).headers.get("etag")!;
    const again = await stack.http.patch(
      `/api/inspections/${id}`,
      { answers: [{ questionId: tpl.q.remarks!.id, answerText: "clearer now" }] },
      { ...key(t), headers: { "if-match": etag } },
    );
    expect(again.body.reviewState).toBe("HAS_ISSUES");
    expect((await stack.http.get(`/api/inspections/${id}/comments`, key(t))).body.pagination.total).toBe(2);
  });
});
