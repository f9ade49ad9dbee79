import { createHash, randomBytes } from "node:crypto";
import { access, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startS3Server, startStack, until, type Stack } from "@insp/testing";
import { createTemplate, auditTemplateBody, importBody, importOk, jpeg, noisyPng, png as solidPng, type Tpl } from "../fixtures/inspections.fixtures.ts";

/**
 * Every test here runs against both media stores: the folder (MEDIA_STORE=fs, the default) and an
 * S3-compatible bucket (MEDIA_STORE=s3) on an S3-protocol server this file starts (s3rver).
 */
interface StoreUnderTest {
  env: Record<string, string>;
  /** Whether bytes are stored under a media row's storage key. */
  has(key: string): Promise<boolean>;
  stop(): Promise<void>;
}

const stores: { name: string; start(scratch: () => string): Promise<StoreUnderTest> }[] = [
  {
    name: "filesystem",
    start: async (mediaDir) => ({
      env: {},
      has: (key) =>
        access(path.join(mediaDir(), key)).then(
          () => true,
          () => false,
        ),
      stop: async () => {},
    }),
  },
  {
    name: "S3-compatible",
    start: async () => {
      const s3 = await startS3Server();
      return { env: s3.env, has: (key) => s3.has(key), stop: () => s3.stop() };
    },
  },
];

let stack: Stack;

/** An imported inspection with two images (a noisy PNG of about 30 KB and a JPEG) on its second answer. */
async function withImages(t: DemoSeed): Promise<{ id: string; tpl: Tpl; png: Buffer; jpg: Buffer }> {
  const tpl = await createTemplate(stack, t, auditTemplateBody(t));
  const [png, jpg] = [noisyPng(100, 100), jpeg(4, 3)];
  const body = importBody(t, tpl, {
    answers: [
      { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
      { questionId: tpl.q.remarks!.id, answerText: "photos", media: [png.toString("base64"), jpg.toString("base64")] },
    ],
  });
  const { id } = await importOk(stack, t, body);
  return { id, tpl, png, jpg };
}

const raw = async (t: DemoSeed, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stack.http.baseUrl}${path}`, { headers: { authorization: `Bearer ${t.apiKey}`, ...headers } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe.each(stores)("media as a resource ($name store)", ({ start }) => {
  let store: StoreUnderTest;
  beforeAll(async () => {
    store = await start(() => stack.env.MEDIA_DIR!);
    // A 1 MB image limit, so the over-limit upload is cheap.
    stack = await startStack({ workers: 1, env: { MEDIA_MAX_IMAGE_MB: "1", ...store.env } });
  });
  afterAll(async () => {
    await stack?.stop();
    await store?.stop();
  });

  it("stores the bytes in the store under each media row's key", async () => {
    const t = await stack.tenant();
    const { id, png } = await withImages(t);
    const rows = await stack.db.sql<{ storage_key: string; byte_size: number }[]>`
      select m.storage_key, m.byte_size from media m join answer_media am on am.media_id = m.id join inspection_answers a on a.id = am.answer_id
      where a.inspection_id = ${id} order by am.position`;
    expect(rows.map((r) => r.byte_size)).toEqual([png.length, expect.any(Number)]);
    for (const r of rows) expect(await store.has(r.storage_key)).toBe(true);
    expect(await store.has(`${t.organization.id}/00/00000000-0000-4000-8000-000000000000`)).toBe(false);
  });

  it("GET /api/inspections/{id}?images=url answers references instead of base64, and each URL serves the bytes", async () => {
    const t = await stack.tenant();
    const { id, png, jpg } = await withImages(t);
    const byDefault = await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey } });
    expect(byDefault.body.answers[1].images[0].imgBlobSrc).toBe(`data:image/png;base64,${png.toString("base64")}`);
    const refs = await stack.http.get(`/api/inspections/${id}?images=url`, { auth: { bearer: t.apiKey } });
    expect(refs.status).toBe(200);
    const images = refs.body.answers[1].images;
    expect(images).toEqual([
      { mediaId: expect.any(String), url: `/api/media/${images[0].mediaId}`, mimeType: "image/png", imgDimension: "100x100", bytes: png.length },
      { mediaId: expect.any(String), url: `/api/media/${images[1].mediaId}`, mimeType: "image/jpeg", imgDimension: "4x3", bytes: jpg.length },
    ]);
    expect(refs.text.length).toBeLessThan(byDefault.text.length / 5);
    for (const [image, bytes] of [
      [images[0], png],
      [images[1], jpg],
    ] as const) {
      const { res, bytes: got } = await raw(t, image.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(image.mimeType);
      expect(res.headers.get("content-length")).toBe(String(bytes.length));
      expect(res.headers.get("etag")).toBe(`"${createHash("sha256").update(bytes).digest("hex")}"`);
      expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(got.equals(bytes)).toBe(true);
    }
    const bad = await stack.http.get(`/api/inspections/${id}?images=links`, { auth: { bearer: t.apiKey } });
    expect(bad).toMatchObject({ status: 400, body: { error: "Invalid query parameters", details: ["images: images must be base64 or url"] } });
  });

  it("answers 304 for a matching If-None-Match, and byte ranges with 206 and 416", async () => {
    const t = await stack.tenant();
    const { id, png } = await withImages(t);
    const url = (await stack.http.get(`/api/inspections/${id}?images=url`, { auth: { bearer: t.apiKey } })).body.answers[1].images[0].url as string;
    const first = await raw(t, url);
    const etag = first.res.headers.get("etag")!;
    const cached = await raw(t, url, { "if-none-match": etag });
    expect(cached.res.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    expect((await raw(t, url, { "if-none-match": '"something-else"' })).res.status).toBe(200);

    const part = await raw(t, url, { range: "bytes=10-99" });
    expect(part.res.status).toBe(206);
    expect(part.res.headers.get("content-range")).toBe(`bytes 10-99/${png.length}`);
    expect(part.bytes.equals(png.subarray(10, 100))).toBe(true);
    const tail = await raw(t, url, { range: "bytes=-16" });
    expect(tail.res.status).toBe(206);
    expect(tail.bytes.equals(png.subarray(png.length - 16))).toBe(true);
    const open = await raw(t, url, { range: `bytes=${png.length - 5}-` });
    expect(open.bytes.equals(png.subarray(png.length - 5))).toBe(true);
    const beyond = await raw(t, url, { range: `bytes=${png.length + 10}-` });
    expect(beyond.res.status).toBe(416);
    expect(beyond.res.headers.get("content-range")).toBe(`bytes */${png.length}`);
    // A range in a unit other than bytes is ignored: the whole image.
    const items = await raw(t, url, { range: "items=999999-" });
    expect(items.res.status).toBe(200);
    expect(items.bytes.equals(png)).toBe(true);
    // If-Range with another validator: the whole image.
    const stale = await raw(t, url, { range: "bytes=0-9", "if-range": '"old"' });
    expect(stale.res.status).toBe(200);
    expect(stale.bytes.equals(png)).toBe(true);
  });

  it("is sealed per organization: another organization's media id is a 404, like an unknown or malformed one", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const { id } = await withImages(t);
    const url = (await stack.http.get(`/api/inspections/${id}?images=url`, { auth: { bearer: t.apiKey } })).body.answers[1].images[0].url as string;
    const theirs = await raw(other, url);
    expect(theirs.res.status).toBe(404);
    expect(JSON.parse(theirs.bytes.toString())).toEqual({ error: `Media ${url.split("/").pop()} not found` });
    expect((await raw(t, "/api/media/00000000-0000-4000-8000-000000000000")).res.status).toBe(404);
    expect((await raw(t, "/api/media/not-a-uuid")).res.status).toBe(404);
    expect((await fetch(`${stack.http.baseUrl}${url}`)).status).toBe(401);
  });

  it("POST /api/media streams an image in, and imports reference it by mediaId", async () => {
    const t = await stack.tenant();
    const auth = { authorization: `Bearer ${t.apiKey}` };
    const png = noisyPng(200, 150);
    const up = await fetch(`${stack.http.baseUrl}/api/media`, { method: "POST", headers: { ...auth, "content-type": "image/png" }, body: png });
    expect(up.status).toBe(201);
    const meta = (await up.json()) as { mediaId: string; url: string; mimeType: string; imgDimension: string; bytes: number; sha256: string };
    expect(meta).toEqual({
      mediaId: expect.any(String),
      url: `/api/media/${meta.mediaId}`,
      mimeType: "image/png",
      imgDimension: "200x150",
      bytes: png.length,
      sha256: createHash("sha256").update(png).digest("hex"),
    });
    // The same bytes again (declared as anything): the same media.
    const again = await fetch(`${stack.http.baseUrl}/api/media`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/octet-stream" },
      body: png,
    });
    expect(((await again.json()) as { mediaId: string }).mediaId).toBe(meta.mediaId);
    const served = await raw(t, meta.url);
    expect(served.bytes.equals(png)).toBe(true);

    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const jpg = jpeg(4, 3);
    const body = importBody(t, tpl, {
      answers: [
        // "no" requires a photo: a referenced one counts.
        { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "no"), note: "worn", mediaIds: [meta.mediaId] },
        { questionId: tpl.q.brake_issue!.id, responseOptionId: tpl.opt("brake_issue", "rust") },
        { questionId: tpl.q.remarks!.id, answerText: "both", media: [jpg.toString("base64")], mediaIds: [meta.mediaId] },
      ],
    });
    const { id } = await importOk(stack, t, body);
    const detail = await stack.http.get(`/api/inspections/${id}?images=url`, { auth: { bearer: t.apiKey } });
    const byQuestion = Object.fromEntries(
      detail.body.answers.map((a: { questionId: string; images: { mediaId: string; mimeType: string }[] }) => [a.questionId, a.images.map((i) => i.mimeType)]),
    );
    expect(byQuestion[tpl.q.brakes!.id]).toEqual(["image/png"]);
    expect(byQuestion[tpl.q.remarks!.id]).toEqual(["image/jpeg", "image/png"]);
    const base64 = await stack.http.get(`/api/inspections/${id}`, { auth: { bearer: t.apiKey } });
    expect(base64.body.answers.find((a: { questionId: string }) => a.questionId === tpl.q.brakes!.id).images[0].imgBlobSrc).toBe(
      `data:image/png;base64,${png.toString("base64")}`,
    );
  });

  it("refuses uploads that are not images, empty, too large or JSON, and references to media that are not the caller's", async () => {
    const [t, other] = [await stack.tenant(), await stack.tenant()];
    const post = (body: Buffer | string, type = "image/png", extra: Record<string, string> = {}) =>
      fetch(`${stack.http.baseUrl}/api/media`, { method: "POST", headers: { authorization: `Bearer ${t.apiKey}`, "content-type": type, ...extra }, body });
    const text = await post("hello, not an image", "text/plain");
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ error: "The upload is not a JPEG, PNG, WebP or GIF image" });
    expect((await post(Buffer.alloc(0))).status).toBe(400);
    const corrupt = await post(Buffer.concat([noisyPng(10, 10).subarray(0, 8), Buffer.alloc(40)]));
    expect(corrupt.status).toBe(400);
    expect(((await corrupt.json()) as { error: string }).error).toMatch(/corrupt PNG/);
    // A header cut short after the signature: no dimensions, whatever memory lies beyond it.
    const cut = await post("GIF89a", "image/gif");
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { error: string }).error).toMatch(/corrupt GIF/);
    expect((await post(JSON.stringify({ image: "x" }), "application/json")).status).toBe(415);
    const big = noisyPng(700, 700); // about 1.5 MB of noise, over the 1 MB limit of this stack
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const tooLarge = await post(big);
    expect(tooLarge.status).toBe(413);
    // Streamed without a length (chunked): refused while reading, nothing kept.
    const chunked = await fetch(`${stack.http.baseUrl}/api/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < big.length; i += 65536) c.enqueue(big.subarray(i, i + 65536));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(chunked.headers.get("connection")).toBe("close"); // the rest of the body is drained, then the connection closes
    const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from media where organization_id = ${t.organization.id}`;
    expect(row!.n).toBe(0);

    const theirs = (await (
      await fetch(`${stack.http.baseUrl}/api/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${other.apiKey}`, "content-type": "image/png" },
        body: noisyPng(5, 5),
      })
    ).json()) as { mediaId: string };
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const res = await stack.http.post(
      "/api/inspections",
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: tpl.q.remarks!.id, answerText: "x", mediaIds: [theirs.mediaId, "nope"] },
        ],
      }),
      { auth: { bearer: t.apiKey } },
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      `Answer to 'Remarks': mediaId '${theirs.mediaId}' not found (upload it with POST /api/media)`,
      "Answer to 'Remarks': mediaId 'nope' not found (upload it with POST /api/media)",
    ]);
    // One image listed twice in an answer (a detail would send it twice).
    const twice = await stack.http.post(
      "/api/inspections",
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: tpl.q.remarks!.id, answerText: "x", mediaIds: [theirs.mediaId, theirs.mediaId] },
        ],
      }),
      { auth: { bearer: t.apiKey } },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.details).toEqual(["answers.1.mediaIds: mediaIds must not list an image twice"]);
  });
});

/** Peak resident set size of a process in MB since its last reset (Linux VmHWM). */
const peakRssMb = async (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/**
 * A `mb` MB upload that claims to be a PNG (signature and header, then noise), streamed without a
 * length and without being held in memory here; `digest` is its SHA-256 once sent.
 */
function pngStream(mb: number): { body: ReadableStream<Uint8Array>; digest: () => string } {
  const head = solidPng(4000, 3000).subarray(0, 33); // signature and IHDR
  const block = randomBytes(1024 * 1024);
  const hash = createHash("sha256");
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      const next = sent === 0 ? Buffer.concat([head, block.subarray(head.length)]) : Buffer.from(block.map((b) => b ^ (sent & 0xff)));
      hash.update(next);
      c.enqueue(next);
      if (++sent === mb) c.close();
    },
  });
  return { body, digest: () => hash.digest("hex") };
}

/**
 * Reads a JSON answer whose PNG data URLs may be far too large to hold: each
 * `"data:image/png;base64,…"` is decoded as it arrives into its SHA-256 and replaced by `"<png>"`;
 * the rest is parsed.
 */
async function readInlinePngs(body: AsyncIterable<Uint8Array>): Promise<{ json: any; digests: string[] }> {
  const PREFIX = '"data:image/png;base64,';
  const decoder = new TextDecoder();
  const digests: string[] = [];
  let [text, pending] = ["", ""];
  let hash: ReturnType<typeof createHash> | null = null;
  for await (const part of body) {
    let s = pending + decoder.decode(part, { stream: true });
    pending = "";
    while (s) {
      if (!hash) {
        const at = s.indexOf(PREFIX);
        if (at === -1) {
          const keep = Math.min(s.length, PREFIX.length - 1); // may be the start of a prefix
          [text, pending, s] = [text + s.slice(0, s.length - keep), s.slice(s.length - keep), ""];
        } else {
          [text, hash, s] = [text + s.slice(0, at) + '"<png>', createHash("sha256"), s.slice(at + PREFIX.length)];
        }
      } else {
        const end = s.indexOf('"');
        const run = end === -1 ? s : s.slice(0, end);
        const whole = run.length - (run.length % 4);
        hash.update(Buffer.from(run.slice(0, whole), "base64"));
        if (end === -1) [pending, s] = [run.slice(whole), ""];
        else {
          hash.update(Buffer.from(run.slice(whole), "base64"));
          digests.push(hash.digest("hex"));
          [hash, s] = [null, s.slice(end)];
        }
      }
    }
  }
  return { json: JSON.parse(text + pending), digests };
}

describe.each(stores)("large uploads and the orphan media sweep ($name store)", ({ start }) => {
  let store: StoreUnderTest;
  beforeAll(async () => {
    store = await start(() => stack.env.MEDIA_DIR!);
    // The sweep runs every second with the shortest grace period (60 s): the test ages rows to pass it. Images up to 60 MB.
    stack = await startStack({ workers: 1, env: { MEDIA_ORPHAN_GRACE_SECONDS: "60", MEDIA_SWEEP_SECONDS: "1", MEDIA_MAX_IMAGE_MB: "60", ...store.env } });
  });

  it("streams four 50 MB uploads at once through the API without holding them: its peak memory grows by far less than what it received", async () => {
    const t = await stack.tenant();
    const pid = stack.api.child.pid!;
    await writeFile(`/proc/${pid}/clear_refs`, "5"); // peak := now
    const before = await peakRssMb(pid);
    const uploads = Array.from({ length: 4 }, () => pngStream(50));
    const answers = await Promise.all(
      uploads.map((u) =>
        fetch(`${stack.http.baseUrl}/api/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
          body: u.body,
          duplex: "half",
        } as RequestInit),
      ),
    );
    const grown = (await peakRssMb(pid)) - before;
    const metas = await Promise.all(
      answers.map(async (a) => ({ status: a.status, ...((await a.json()) as { mediaId: string; bytes: number; sha256: string; imgDimension: string }) })),
    );
    metas.forEach((m, i) => expect(m).toMatchObject({ status: 201, bytes: 50 * 1024 * 1024, sha256: uploads[i]!.digest(), imgDimension: "4000x3000" }));
    // 200 MB went through; a copy held in memory would be at least that.
    expect(grown).toBeLessThan(100);
    console.log(`[media] 4 x 50 MB uploads: API peak RSS +${grown.toFixed(0)} MB`);
    // And what was stored is what was sent.
    const served = await fetch(`${stack.http.baseUrl}/api/media/${metas[0]!.mediaId}`, { headers: { authorization: `Bearer ${t.apiKey}` } });
    const hash = createHash("sha256");
    for await (const part of served.body as unknown as AsyncIterable<Uint8Array>) hash.update(part);
    expect(hash.digest("hex")).toBe(metas[0]!.sha256);
  });
  it("answers an inspection's images inline (base64, the default) by streaming them from the store: 160 MB of images, and the API's peak memory grows by far less", async () => {
    const t = await stack.tenant();
    const uploads = Array.from({ length: 4 }, () => pngStream(40));
    const ids: string[] = [];
    for (const u of uploads) {
      const res = await fetch(`${stack.http.baseUrl}/api/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
        body: u.body,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { mediaId: string }).mediaId);
    }
    const sent = uploads.map((u) => u.digest());
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const { id } = await importOk(
      stack,
      t,
      importBody(t, tpl, {
        answers: [
          { questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") },
          { questionId: tpl.q.remarks!.id, answerText: "photos", mediaIds: ids },
        ],
      }),
    );

    const pid = stack.api.child.pid!;
    await writeFile(`/proc/${pid}/clear_refs`, "5"); // peak := now
    const before = await peakRssMb(pid);
    const res = await fetch(`${stack.http.baseUrl}/api/inspections/${id}`, { headers: { authorization: `Bearer ${t.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"r1-[0-9a-f]{8}"$/);
    const { json, digests } = await readInlinePngs(res.body as unknown as AsyncIterable<Uint8Array>);
    const grown = (await peakRssMb(pid)) - before;
    expect(digests).toEqual(sent); // every image whole, in order
    expect(json.answers[1].images).toEqual(ids.map(() => ({ imgBlobSrc: "<png>", imgDimension: "4000x3000" })));
    // About 213 MB of base64 went out; holding it (as strings, then as the JSON text) would be several times that.
    expect(grown).toBeLessThan(100);
    console.log(`[media] detail with 4 x 40 MB images inline: API peak RSS +${grown.toFixed(0)} MB`);
  });

  afterAll(async () => {
    await stack?.stop();
    await store?.stop();
  });

  const upload = async (t: DemoSeed, bytes: Buffer) =>
    (await (
      await fetch(`${stack.http.baseUrl}/api/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
        body: bytes,
      })
    ).json()) as { mediaId: string };
  const keyOf = async (mediaId: string) => (await stack.db.sql<{ storage_key: string }[]>`select storage_key from media where id = ${mediaId}`)[0]?.storage_key;
  /** As if last used two minutes ago: past the grace period. */
  const age = (mediaIds: string[]) => stack.db.sql`update media set last_used_at = now() - interval '2 minutes' where id = any(${mediaIds}::uuid[])`;

  it("deletes media nothing references once unused past the grace period (row and bytes), and keeps what any revision or pending import references", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const [orphanPng, keptPng, oldPng, pendingPng] = [noisyPng(11, 11), noisyPng(12, 12), noisyPng(13, 13), noisyPng(14, 14)];
    const orphan = await upload(t, orphanPng);
    const orphanKey = (await keyOf(orphan.mediaId))!;
    expect(await store.has(orphanKey)).toBe(true);
    // Unreferenced too, but used within the grace period.
    const recent = await upload(t, noisyPng(15, 15));

    // Referenced by the current answers.
    const kept = await upload(t, keptPng);
    const tpl = await createTemplate(stack, t, auditTemplateBody(t));
    const { id } = await importOk(
      stack,
      t,
      importBody(t, tpl, {
        status: "IN_PROGRESS",
        answers: [
          { questionId: tpl.q.remarks!.id, answerText: "x", mediaIds: [kept.mediaId] },
          { questionId: tpl.q.powered!.id, answerBoolean: true, media: [oldPng.toString("base64")] },
        ],
      }),
    );
    // Referenced only by revision 1 once this PATCH removes its answer.
    const detail = await stack.http.get(`/api/inspections/${id}?images=url`, { auth });
    const old = detail.body.answers[1].images[0].mediaId as string;
    expect(
      (await stack.http.patch(`/api/inspections/${id}`, { removeAnswers: [tpl.q.powered!.id] }, { auth, headers: { "if-match": detail.headers.get("etag")! } }))
        .status,
    ).toBe(200);
    // Named by an import still waiting for its worker (made to look stale, as if queued for long;
    // written once the worker's start-up requeue is done, so no job picks it up).
    await stack.settled();
    const pending = await upload(t, pendingPng);
    await stack.db
      .sql`insert into inspection_imports (organization_id, payload) values (${t.organization.id}, ${JSON.stringify({ v: 1, answers: [{ questionId: tpl.q.remarks!.id, mediaIds: [pending.mediaId] }] })}::jsonb)`;
    await age([orphan.mediaId, kept.mediaId, old, pending.mediaId]);

    await until(
      "the orphan's row is deleted",
      () => keyOf(orphan.mediaId),
      (k) => k === undefined,
      20_000,
    );
    // Its bytes go right after the row's deletion commits.
    await until(
      "the orphan's bytes are deleted",
      () => store.has(orphanKey),
      (has) => !has,
      5_000,
    );
    expect((await fetch(`${stack.http.baseUrl}/api/media/${orphan.mediaId}`, { headers: { authorization: `Bearer ${t.apiKey}` } })).status).toBe(404);
    // Give the sweep a few more rounds: nothing referenced goes.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await keyOf(recent.mediaId)).toBeDefined();
    for (const [mediaId, bytes] of [
      [kept.mediaId, keptPng],
      [old, oldPng],
      [pending.mediaId, pendingPng],
    ] as const) {
      const res = await fetch(`${stack.http.baseUrl}/api/media/${mediaId}`, { headers: { authorization: `Bearer ${t.apiKey}` } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      expect(await store.has((await keyOf(mediaId))!)).toBe(true);
    }
    const first = await stack.http.get(`/api/inspections/${id}/revisions/1?images=url`, { auth });
    expect(first.body.answers[1].images[0].mediaId).toBe(old);

    // The same bytes uploaded again: a new row under a key of its own, served as before.
    const again = await upload(t, orphanPng);
    expect(again.mediaId).not.toBe(orphan.mediaId);
    expect(await keyOf(again.mediaId)).not.toBe(orphanKey);
    const res = await fetch(`${stack.http.baseUrl}/api/media/${again.mediaId}`, { headers: { authorization: `Bearer ${t.apiKey}` } });
    expect(Buffer.from(await res.arrayBuffer()).equals(orphanPng)).toBe(true);
  });
});
