import http from "node:http";
import net from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";

/**
 * A body refused for its size (413) is answered with `Connection: close`, and the rest of it is
 * read and thrown away for a bounded time and amount before the connection closes, so that
 * clients that send the whole body before they read (Node's http client, Python's urllib) and
 * clients that read while they send (undici's fetch) all get the answer instead of a reset
 * (docs/authentication.md, Errors).
 */

const MB = 1024 * 1024;
const TOTAL = 256 * MB;
const CHUNK = 64 * 1024;

/** `total` bytes of zeros in 64 KB chunks, made as they are read (never held); `sent.bytes` counts what was taken. */
function zeros(total: number): { body: Readable; sent: { bytes: number } } {
  const sent = { bytes: 0 };
  const body = Readable.from(
    (function* () {
      while (sent.bytes < total) {
        const n = Math.min(CHUNK, total - sent.bytes);
        sent.bytes += n;
        yield Buffer.alloc(n);
      }
    })(),
  );
  return { body, sent };
}

/** Peak resident set size of a process in MB since its last reset (Linux VmHWM). */
const peakRssMb = async (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

interface Target {
  name: string;
  path: string;
  type: string;
  /** The body limit of the route in bytes on the stack under test. */
  limit: number;
  auth: boolean;
}

/** A JSON route (BODY_LIMIT_MB=1 on these stacks, unauthenticated) and the media upload (MEDIA_MAX_IMAGE_MB=10). */
const targets: Target[] = [
  { name: "POST /api/media", path: "/api/media", type: "image/png", limit: 10 * MB, auth: true },
  { name: "a JSON route", path: "/api/auth/login", type: "application/json", limit: 1 * MB, auth: false },
];

/** What a raw TCP client saw: the bytes it received, what it sent, and when the answer came and the connection ended. */
interface RawResult {
  text: string;
  sent: number;
  answeredAt: number | null;
  closedAt: number;
  error: string | null;
}

/**
 * A raw TCP client: sends `head`, then calls `send(socket, state)` to go on sending, reading
 * everything the API answers until the connection is closed (by either side). `allowHalfOpen`
 * lets it read after ending its own side.
 */
function rawExchange(baseUrl: string, head: string, send: (socket: net.Socket, state: { closed: boolean; sent: number }) => Promise<void>): Promise<RawResult> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port: Number(port), allowHalfOpen: true });
    const state = { closed: false, sent: 0 };
    const received: Buffer[] = [];
    let answeredAt: number | null = null;
    let error: string | null = null;
    socket.on("data", (d: Buffer) => {
      received.push(d);
      answeredAt ??= Date.now();
    });
    socket.on("error", (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on("close", () => {
      state.closed = true;
      resolve({ text: Buffer.concat(received).toString("latin1"), sent: state.sent, answeredAt, closedAt: Date.now(), error });
    });
    socket.on("connect", () => {
      socket.write(head);
      send(socket, state).catch(() => {});
    });
    // A connection the API never closes fails the test here rather than at vitest's timeout.
    setTimeout(() => socket.destroy(), 40_000).unref();
  });
}

/** Writes `frame()` until the connection closes, waiting `pauseMs` between writes (0: as fast as the socket takes them). */
async function sendForever(socket: net.Socket, state: { closed: boolean; sent: number }, frame: Buffer, pauseMs: number): Promise<void> {
  while (!state.closed && !socket.destroyed) {
    state.sent += frame.length;
    const more = socket.write(frame, () => {});
    if (!more) await new Promise((r) => (socket.once("drain", r), socket.once("close", r)));
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  }
}

/** Writes `total` bytes of zeros (with backpressure), counting them in `state.sent`; stops when the connection closes. */
async function sendAll(socket: net.Socket, state: { closed: boolean; sent: number }, total: number): Promise<void> {
  const zero = Buffer.alloc(CHUNK);
  while (state.sent < total && !state.closed) {
    const n = Math.min(CHUNK, total - state.sent);
    state.sent += n;
    if (!socket.write(n === CHUNK ? zero : zero.subarray(0, n))) await new Promise((r) => (socket.once("drain", r), socket.once("close", r)));
  }
}

const chunkFrame = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);

const requestHead = (target: Target, t: DemoSeed, headers: Record<string, string>) =>
  [
    `POST ${target.path} HTTP/1.1`,
    "Host: 127.0.0.1",
    `Content-Type: ${target.type}`,
    ...(target.auth ? [`Authorization: Bearer ${t.apiKey}`] : []),
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");

/** The status lines and the JSON body of the first answer in what a raw client received. */
function answers(text: string): { statuses: string[]; headers: string; body: unknown } {
  const statuses = [...text.matchAll(/^HTTP\/1\.1 \d{3}[^\r]*/gm)].map((m) => m[0]);
  const end = text.indexOf("\r\n\r\n");
  const headers = text.slice(0, end).toLowerCase();
  const length = Number(/content-length: (\d+)/.exec(headers)?.[1] ?? 0);
  const raw = text.slice(end + 4, end + 4 + length);
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // left as text
  }
  return { statuses, headers, body };
}

describe("a body over its limit gets a 413 every client can read (default drain bounds)", () => {
  let stack: Stack;
  let t: DemoSeed;
  beforeAll(async () => {
    stack = await startStack({ env: { BODY_LIMIT_MB: "1", MEDIA_MAX_IMAGE_MB: "10" } });
    t = await stack.tenant();
    // Each route refuses once before memory is measured: what the API loads and keeps on a first
    // request (code, connections) is not what a drain costs.
    for (const target of targets) {
      await rawExchange(stack.http.baseUrl, requestHead(target, t, { "Content-Length": String(32 * MB) }), async (socket, state) => {
        await sendAll(socket, state, 32 * MB);
        socket.end();
      });
    }
  });
  afterAll(() => stack?.stop());

  const headersOf = (target: Target) => ({ "content-type": target.type, ...(target.auth ? { authorization: `Bearer ${t.apiKey}` } : {}) });

  it.each(targets)("undici's fetch streaming 256 MB to $name gets the 413 and its JSON body", async (target) => {
    const { body, sent } = zeros(TOTAL);
    const res = await fetch(`${stack.http.baseUrl}${target.path}`, { method: "POST", headers: headersOf(target), body, duplex: "half" } as RequestInit);
    // undici reads the answer while it sends, and stops sending once it has one.
    const answeredAfter = sent.bytes;
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toEqual({ error: expect.stringMatching(/too large|over the per-image limit/) });
    console.log(`[body-limits] fetch, ${target.name}: answered after ${(answeredAfter / MB).toFixed(0)} MB sent`);
  });

  it.each(targets)(
    "a client that sends all of 256 MB to $name before it reads gets the 413, and the API's memory stays flat while it throws them away",
    async (target) => {
      const pid = stack.api.child.pid!;
      await writeFile(`/proc/${pid}/clear_refs`, "5"); // peak := now
      const before = await peakRssMb(pid);
      const started = Date.now();
      const result = await rawExchange(stack.http.baseUrl, requestHead(target, t, { "Content-Length": String(TOTAL) }), async (socket, state) => {
        await sendAll(socket, state, TOTAL);
        socket.end(); // done sending; reading goes on
      });
      const grown = (await peakRssMb(pid)) - before;
      const { statuses, headers, body } = answers(result.text);
      expect(statuses).toEqual(["HTTP/1.1 413 Payload Too Large"]);
      expect(headers).toContain("connection: close");
      expect(body).toEqual({ error: expect.stringMatching(/too large|over the per-image limit/) });
      // Every byte went out: the API read them all, and nothing was reset.
      expect({ sent: result.sent, error: result.error }).toEqual({ sent: TOTAL, error: null });
      // 256 MB went through the API; holding them would take at least that.
      expect(grown).toBeLessThan(64);
      console.log(
        `[body-limits] 256 MB sent before reading, ${target.name}: answered and closed in ${result.closedAt - started} ms, API peak RSS ${grown >= 0 ? "+" : ""}${grown.toFixed(0)} MB`,
      );
    },
  );

  it.each(targets)("Node's http client writing 256 MB (with its Content-Length) to $name gets the 413 and its JSON body", async (target) => {
    const { port } = new URL(stack.http.baseUrl);
    const { body, sent } = zeros(TOTAL);
    const result = await new Promise<{ status?: number; connection?: string; json?: unknown; error?: string }>((resolve) => {
      const req = http.request(
        { host: "127.0.0.1", port: Number(port), method: "POST", path: target.path, headers: { ...headersOf(target), "content-length": String(TOTAL) } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode, connection: res.headers.connection, json: JSON.parse(text) }));
        },
      );
      req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
      body.pipe(req);
    });
    expect(result).toEqual({ status: 413, connection: "close", json: { error: expect.stringMatching(/too large|over the per-image limit/) } });
    // Node's client stops sending once it has an answer that closes the connection.
    body.destroy();
    console.log(`[body-limits] http client, ${target.name}: answered after ${(sent.bytes / MB).toFixed(0)} MB sent`);
  });

  it.each(targets)("a client that asks first (Expect: 100-continue) for a body over the limit of $name gets the 413 without sending it", async (target) => {
    const result = await rawExchange(
      stack.http.baseUrl,
      requestHead(target, t, { "Content-Length": String(TOTAL), Expect: "100-continue" }),
      async (socket, state) => {
        // Sends nothing until the answer is in, then hangs up.
        while (!state.closed && socket.bytesRead === 0) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 200));
        socket.end();
      },
    );
    const { statuses, headers, body } = answers(result.text);
    expect(statuses).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(headers).toContain("connection: close");
    expect(body).toEqual({ error: expect.stringMatching(/too large|over the per-image limit/) });
    expect(result.sent).toBe(0);
  });

  it("a client that asks first for a body within the limit gets 100 Continue when the API reads it, then the answer", async () => {
    const { port } = new URL(stack.http.baseUrl);
    const payload = JSON.stringify({ email: t.users.admin.email, password: t.users.admin.password });
    const result = await new Promise<{ continued: boolean; status?: number; json?: unknown }>((resolve, reject) => {
      let continued = false;
      const req = http.request(
        {
          host: "127.0.0.1",
          port: Number(port),
          method: "POST",
          path: "/api/auth/login",
          headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)), expect: "100-continue" },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ continued, status: res.statusCode, json: JSON.parse(text) }));
        },
      );
      req.on("continue", () => {
        continued = true;
        req.end(payload);
      });
      req.on("error", reject);
    });
    expect(result).toMatchObject({ continued: true, status: 200, json: { accessToken: expect.any(String) } });
  });

  it.each(targets)("after a 413 for $name the connection closes: a request pipelined after the refused body is never answered", async (target) => {
    const size = target.limit + MB;
    const pipelined = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const result = await rawExchange(stack.http.baseUrl, requestHead(target, t, { "Content-Length": String(size) }), async (socket, state) => {
      await sendAll(socket, state, size);
      socket.end(pipelined);
    });
    const { statuses, headers, body } = answers(result.text);
    expect(statuses).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(headers).toContain("connection: close");
    expect(body).toEqual({ error: expect.stringMatching(/too large|over the per-image limit/) });
    expect(result.error).toBeNull(); // closed in order, not reset
  });
});

describe("the drain after a 413 is bounded (REFUSED_BODY_DRAIN_SECONDS=8, REFUSED_BODY_IDLE_SECONDS=2, REFUSED_BODY_DRAIN_MB=32)", () => {
  let stack: Stack;
  let t: DemoSeed;
  beforeAll(async () => {
    stack = await startStack({
      env: { BODY_LIMIT_MB: "1", MEDIA_MAX_IMAGE_MB: "10", REFUSED_BODY_DRAIN_SECONDS: "8", REFUSED_BODY_IDLE_SECONDS: "2", REFUSED_BODY_DRAIN_MB: "32" },
    });
    t = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  it("a client that never stops sending (chunked, about 2.5 MB/s) gets the 413 and is cut off once the drain time is up", async () => {
    const frame = chunkFrame(Buffer.alloc(CHUNK));
    const results = await Promise.all(
      targets.map((target) =>
        rawExchange(stack.http.baseUrl, requestHead(target, t, { "Transfer-Encoding": "chunked" }), (socket, state) => sendForever(socket, state, frame, 25)),
      ),
    );
    for (const [i, result] of results.entries()) {
      const { statuses, headers, body } = answers(result.text);
      expect({ target: targets[i]!.name, statuses }).toEqual({ target: targets[i]!.name, statuses: ["HTTP/1.1 413 Payload Too Large"] });
      expect(headers).toContain("connection: close");
      expect(body).toEqual({ error: expect.stringMatching(/too large|over the per-image limit/) });
      // The API kept reading after its answer until the drain time (8 s) was up; only then did it close.
      const drained = (result.closedAt - result.answeredAt!) / 1000;
      expect(drained).toBeGreaterThan(6);
      console.log(
        `[body-limits] endless sender, ${targets[i]!.name}: ${(result.sent / MB).toFixed(0)} MB sent in all, cut off ${drained.toFixed(1)} s after the answer (${result.error ?? "closed"})`,
      );
    }
  });

  it("a client that goes quiet after the 413 is cut off once idle (2 s), long before the drain time is up", async () => {
    const target = targets[0]!;
    let openBeforeQuiet = false;
    const result = await rawExchange(stack.http.baseUrl, requestHead(target, t, { "Content-Length": String(64 * MB) }), async (socket, state) => {
      // A short pause within the idle bound: the API still reads what follows.
      await sendAll(socket, state, 2 * MB);
      await new Promise((r) => setTimeout(r, 300));
      await sendAll(socket, state, 3 * MB);
      openBeforeQuiet = !state.closed;
      // Quiet for 4 s (idle bound 2 s, drain time 8 s), then sending again: into a closed connection.
      await new Promise((r) => setTimeout(r, 4000));
      await sendForever(socket, state, Buffer.alloc(CHUNK), 20);
    });
    const afterQuiet = result.sent - 3 * MB;
    expect(answers(result.text).statuses).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(openBeforeQuiet).toBe(true);
    // The API had closed the connection: the first writes after the quiet time are refused (a
    // reset). Still open, it would have taken about 3 MB a second until its drain time was up.
    expect(result.error).toMatch(/EPIPE|ECONNRESET/);
    expect(afterQuiet).toBeLessThanOrEqual(512 * 1024);
    console.log(`[body-limits] quiet client: ${afterQuiet} bytes accepted after its quiet time before the reset`);
  });

  it("a client that sends as fast as it can is cut off once REFUSED_BODY_DRAIN_MB were discarded", async () => {
    const frame = chunkFrame(Buffer.alloc(CHUNK));
    const result = await rawExchange(stack.http.baseUrl, requestHead(targets[0]!, t, { "Transfer-Encoding": "chunked" }), (socket, state) =>
      sendForever(socket, state, frame, 0),
    );
    expect(answers(result.text).statuses).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    // 10 MB up to the refusal and 32 MB discarded, plus what the sockets' buffers held; 8 s at this
    // speed would be far more.
    expect(result.sent).toBeGreaterThan(32 * MB);
    expect(result.sent).toBeLessThan(120 * MB);
    console.log(`[body-limits] fast endless sender: cut off after ${(result.sent / MB).toFixed(0)} MB sent`);
  });
});
