import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler } from "express";

/**
 * Bodies refused for their size (413), as nginx's lingering close does it: the answer goes out
 * with `Connection: close`, the server closes its sending side after it, and then reads and
 * throws away whatever the client still sends, until the client is done (it closes), goes quiet
 * for `idleSeconds`, has sent `maxBytes` more, or `seconds` have passed since the refusal; only
 * then is the connection closed. Closing at once, with unread bytes in the socket, makes the
 * kernel answer them with a reset, which destroys the 413 in the client's receive buffer before a
 * client that sends its whole body before reading (Node's http client, Python's urllib) has read
 * it: it sees EPIPE instead. docs/authentication.md (Errors) says why the bounds are what they are.
 */
export interface DrainBounds {
  /** Longest drain after a refusal (nginx's lingering_time); 0: close as soon as the answer is out. */
  seconds: number;
  /** Close sooner when the client sends nothing for this long (nginx's lingering_timeout). */
  idleSeconds: number;
  /** Close sooner once this many bytes were thrown away. */
  maxBytes: number;
}

/** Connections whose request was refused for size: nothing more on them is parsed or answered. */
const refused = new WeakSet<Socket>();
/** Connections being drained, with what ends the drain (for a shutdown). */
const draining = new Map<Socket, () => void>();

/** Whether a connection's request was refused for size (its body is being drained, or will be). */
export const isRefused = (socket: Socket): boolean => refused.has(socket);

/** Whether a connection is being drained: its own bounds end it, nothing else should. */
export const isDraining = (socket: Socket): boolean => draining.has(socket);

/** Ends every drain now (a shutdown: their answers are out, only the discarding stops). */
export function endDrains(): void {
  for (const end of [...draining.values()]) end();
}

/**
 * Refuses the connection of a request whose body is over its limit: marks it (a request
 * pipelined behind the body is never handled), answers with `Connection: close`, and drains
 * what the client still sends within `bounds` once the answer is written. Call it before the
 * answer's headers go out; the request's body must not be read any further by anyone else.
 */
function refuseConnection(req: IncomingMessage, res: ServerResponse, bounds: DrainBounds): void {
  const socket = req.socket;
  if (!res.headersSent) res.setHeader("Connection", "close");
  if (refused.has(socket)) return;
  refused.add(socket);
  if (bounds.seconds <= 0 || socket.destroyed) return; // Node closes the connection once the answer is out
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(total);
    clearTimeout(idle);
    draining.delete(socket);
    socket.destroy();
  };
  const total = setTimeout(end, bounds.seconds * 1000);
  const idle = setTimeout(end, bounds.idleSeconds * 1000);
  draining.set(socket, end);
  socket.once("close", end);
  // Once the answer is written, Node would close the connection (destroySoon: end, then destroy
  // as soon as the end is written). Only the sending side is closed here; the drain goes on.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
  };
  // Outside the HTTP parser's callbacks (this may run inside one): take the connection from the
  // parser. A 'data' listener makes Node hand the socket's bytes to JavaScript instead of the
  // parser ("unconsume"); without the parser's own listener, nothing more is parsed: neither the
  // rest of the body nor a request pipelined after it. What arrives is counted and dropped.
  setImmediate(() => {
    if (ended) return;
    let discarded = 0;
    const discard = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > bounds.maxBytes) end();
      else idle.refresh();
    };
    socket.on("data", discard);
    for (const listener of socket.listeners("data")) if (listener !== discard) socket.removeListener("data", listener as (chunk: Buffer) => void);
    // The client is done sending (it closed its side): close once the answer is out.
    socket.once("end", () => (socket.writableFinished ? end() : socket.once("finish", end)));
    socket.resume();
    // The parser may have stopped the socket's reading when the request's buffer was full, while
    // the stream still counts a read as pending; this starts it again (a no-op when reading).
    socket._read(64 * 1024);
  });
}

/** A request whose body is still arriving and that nobody has started to read (body.ts marks those it reads). */
const unreadBody = (req: IncomingMessage, wasRead: (req: IncomingMessage) => boolean) =>
  !req.complete && !wasRead(req) && (Number(req.headers["content-length"]) > 0 || req.headers["transfer-encoding"] !== undefined);

/**
 * Installs the refusal on every answer: a 413 refuses the connection (refuseConnection),
 * whichever route or parser sent it, while the body still arrives or not (a body that arrived
 * whole, or whose end raced the answer, closes the connection too: one rule for clients). So
 * does any other refusal (4xx) of a request whose body is still arriving unread: a request
 * without a valid credential, or over its rate limit, is answered at once and its body is thrown
 * away within the same bounds, never parsed (left to Node, it would be read to its end, however
 * long). A small body that arrived whole keeps its connection. A request that arrives on a
 * refused connection (pipelined behind the refused body, before the parser was taken off it) is
 * never handled. First middleware of the app.
 */
export function refuseOversizedBodies(bounds: DrainBounds, wasRead: (req: IncomingMessage) => boolean): RequestHandler {
  return (req, res, next) => {
    if (refused.has(req.socket)) return; // never answered: the connection closes after the 413
    const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      if (status === 413 || (status >= 400 && status < 500 && unreadBody(req, wasRead))) refuseConnection(req, res, bounds);
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  };
}

/** The error body-parser gives a body over its limit (the error handlers map it to 413). */
const tooLarge = (limit: number) =>
  Object.assign(new Error("request entity too large"), { status: 413, statusCode: 413, expose: true, type: "entity.too.large", limit });

/** A JSON body holding more than `maxValues` values (the error handler maps it to 413, naming JSON_MAX_VALUES). */
const tooManyValues = (maxValues: number) =>
  Object.assign(new Error("request entity has too many values"), { status: 413, statusCode: 413, expose: true, type: "entity.too.many.values", maxValues });

/**
 * Counts the values of JSON text as its bytes arrive, chunk by chunk: every `,` and every opening
 * `[` or `{` outside strings starts one more (an empty array or object counts one too many, which
 * does not matter for a bound). About 7 ns a byte: 40 MB of `[0,0,...]` cost 150 ms in all, spread
 * over its chunks, where JSON.parse took 6 s in one block.
 */
class JsonValueCounter {
  values = 1;
  private inString = false;
  private escaped = false;

  add(chunk: Uint8Array): number {
    let { values, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x2c || c === 0x5b || c === 0x7b) values++;
      else if (c === 0x22) inString = true;
    }
    Object.assign(this, { values, inString, escaped });
    return values;
  }
}

const encoded = (req: IncomingMessage) => (req.headers["content-encoding"] ?? "identity").toLowerCase() !== "identity";

/**
 * A body parser (express.json, express.urlencoded) that refuses a body over `limit` bytes as
 * soon as that is known: at once when its Content-Length says so, or when the bytes received
 * cross the limit. Left alone, body-parser reads the whole body to its end before it answers
 * 413 (unbounded: a client that never stops is never answered). Counted here in the bytes as
 * received: a compressed body refused for its inflated size is answered once it ends or its
 * compressed bytes cross the limit too. With `maxValues`, a JSON body is refused as soon as it
 * holds more values than that; a compressed one once it is inflated, before it is parsed.
 */
export function limitBody(parser: RequestHandler, limit: number, types: string[], bounds: DrainBounds, maxValues?: number): RequestHandler {
  return (req, res, next) => {
    if (!req.is(types)) return parser(req, res, next);
    if (Number(req.headers["content-length"]) > limit) return next(tooLarge(limit));
    let settled = false;
    let received = 0;
    const counter = maxValues !== undefined && !encoded(req) ? new JsonValueCounter() : null;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      req.off("data", count);
      next(err);
    };
    const refuse = (err: Error) => {
      req.off("data", count);
      // Now: from here on nothing pipelined behind this body is handled. The answer follows
      // outside the parser's callback.
      refuseConnection(req, res, bounds);
      setImmediate(settle, err);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return refuse(tooLarge(limit));
      if (counter && counter.add(chunk) > maxValues!) refuse(tooManyValues(maxValues!));
    };
    req.on("data", count);
    parser(req, res, settle);
  };
}

/** For a compressed JSON body (not counted as it arrived): its values counted once it is inflated, before it is parsed. */
export function checkInflatedValues(req: IncomingMessage, buf: Buffer, maxValues: number): void {
  if (encoded(req) && new JsonValueCounter().add(buf) > maxValues) throw tooManyValues(maxValues);
}

/**
 * `Expect: 100-continue`: Node answers 100 Continue at once by default, so a client that asks
 * first sends its whole body even when the API will refuse it. Here 100 Continue goes out when
 * the API first reads the body: a request refused before (too large by its Content-Length, no
 * credential, rate-limited...) gets its final answer and the client never sends the body.
 */
export function continueWhenRead(server: Server): void {
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const read = req._read;
    req._read = function (this: IncomingMessage, size: number) {
      req._read = read;
      if (!res.headersSent && !res.writableEnded && !refused.has(req.socket)) res.writeContinue();
      return read.call(this, size);
    };
    server.emit("request", req, res);
  });
}
