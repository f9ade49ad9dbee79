import type { IncomingMessage } from "node:http";
import express, { type Request, type RequestHandler } from "express";
import type { Deps } from "../deps.ts";
import { checkInflatedValues, limitBody, type DrainBounds } from "./body-limits.ts";

/**
 * Request bodies are read only when a route asks for them: after `authenticate` has found the
 * caller (http/auth.ts), or, on the two routes whose body is the credential (login and the OAuth
 * token), with a small limit of their own. What a body may cost is bounded before it is parsed:
 * its bytes (BODY_LIMIT_MB, INSPECTION_BODY_LIMIT_MB) and its number of JSON values
 * (JSON_MAX_VALUES), counted as the bytes arrive, so a body of millions of tiny values is refused
 * after its first few hundred kilobytes instead of blocking the event loop while it is parsed
 * (docs/authentication.md, Limits).
 */

const mb = (n: number) => n * 1024 * 1024;

/** A body whose sender is not known yet (an e-mail and a password, a client id and secret) is small. */
const CREDENTIAL_BODY_LIMIT = 64 * 1024;

/** How long and how much of a body refused for size is read and thrown away (docs/authentication.md, Errors). */
export const drainBounds = (env: Deps["env"]): DrainBounds => ({
  seconds: env.REFUSED_BODY_DRAIN_SECONDS,
  idleSeconds: env.REFUSED_BODY_IDLE_SECONDS,
  maxBytes: mb(env.REFUSED_BODY_DRAIN_MB),
});

const NUL_MESSAGE = "Request body contains a NUL character (\\u0000), which is not allowed in text";
const SURROGATE_MESSAGE = "Request body contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF), which is not valid Unicode text";
/** With the u flag, a well-formed pair is one code point: only a lone surrogate is in Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * The escapes that can put such text into a parsed string (a raw NUL or control character is
 * already malformed JSON, and UTF-8 decoding turns a raw lone surrogate into U+FFFD). Seen in the
 * raw text, they send the parsed body through unsafeText's walk; almost no body has them, so
 * almost every body is parsed without a reviver, which ran once per value (about twice the
 * parse's own time).
 */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** The first refusal for text Postgres cannot hold as sent, in a key or a string of `value`. */
function unsafeText(value: unknown): string | null {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return NUL_MESSAGE;
      if (LONE_SURROGATE.test(v)) return SURROGATE_MESSAGE;
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) stack.push(k, child);
    }
  }
  return null;
}

/**
 * How deep a JSON body may nest. Far beyond any body of the API (a template is about six levels,
 * free-form answerJson and metadata included), and far below what recursive code can take: a
 * body nested thousands of levels deep overflowed the stack of code that walks it (a 500).
 */
const MAX_JSON_DEPTH = 64;

function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(v as object)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

const malformed = (message: string) => Object.assign(new Error(message), { type: "entity.parse.failed", status: 400, expose: true });

const suspect = new WeakSet<IncomingMessage>();
/** The bytes of each JSON body as read, after any Content-Encoding was undone. */
const sizes = new WeakMap<IncomingMessage, number>();

/** How many bytes a request's JSON body had once inflated (a compressed body's Content-Length counts the bytes on the wire); 0 for none. */
export const inflatedBodySize = (req: IncomingMessage): number => sizes.get(req) ?? 0;

/**
 * After parsing: text Postgres cannot hold as sent is refused at the door (400), for every field
 * of every body, instead of failing a write later (500): U+0000 (text and jsonb refuse it) and
 * unpaired UTF-16 surrogates from JSON escapes such as "\ud800" (jsonb refuses them, text would
 * store U+FFFD instead of what was sent). Keys are checked as well as values. And a body nested
 * deeper than MAX_JSON_DEPTH is malformed (400), before any route walks it.
 */
const checkParsed =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      if (err || req.body === null || typeof req.body !== "object") return next(err);
      const refusal = suspect.has(req) ? unsafeText(req.body) : null;
      if (refusal) return next(malformed(refusal));
      if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next(malformed(`Request body contains JSON nested deeper than ${MAX_JSON_DEPTH} levels`));
      next();
    });

/** Bodies already read, or being read, by a parser (a body refused before it is read is drained instead: body-limits.ts). */
const reading = new WeakSet<IncomingMessage>();
export const bodyWasRead = (req: IncomingMessage): boolean => reading.has(req);

export interface BodyReaders {
  /** The body of an authenticated request (BODY_LIMIT_MB); once per request. */
  default: RequestHandler;
  /** The body of an inspection import or PATCH (INSPECTION_BODY_LIMIT_MB), which may carry base64 images. */
  inspection: RequestHandler;
  /** The body of a request that carries its credential in it (login, OAuth token). */
  credential: RequestHandler;
}

const readers = new WeakMap<object, BodyReaders>();

/** The readers of an app's settings, made once (every route's authenticate shares them). */
export function bodyReadersFor(env: Deps["env"]): BodyReaders {
  let r = readers.get(env);
  if (!r) readers.set(env, (r = bodyReaders(env)));
  return r;
}

/**
 * JSON (and SCIM's application/scim+json, RFC 7644 section 3.1) and, for the OAuth token,
 * form-encoded bodies. Limits per operation, as its definition names them (contracts'
 * defineOperation, `body`): inspection imports and PATCHes, which may carry base64 images, get
 * INSPECTION_BODY_LIMIT_MB; every other authenticated route BODY_LIMIT_MB; a credential body
 * CREDENTIAL_BODY_LIMIT. Past a limit: 413, as soon as the Content-Length says
 * so or the bytes (or the values) cross it (limitBody).
 */
function bodyReaders(env: Deps["env"]): BodyReaders {
  const jsonType = ["application/json", "application/scim+json"];
  const formType = ["application/x-www-form-urlencoded"];
  const bounds = drainBounds(env);
  const verify = (req: IncomingMessage, _res: unknown, buf: Buffer) => {
    sizes.set(req, buf.length);
    checkInflatedValues(req, buf, env.JSON_MAX_VALUES);
    // Buffer.includes is a native search: the text is only made when an escape is there at all.
    if (buf.includes("\\u") && SUSPECT_ESCAPE.test(buf.toString("latin1"))) suspect.add(req);
  };
  const json = (limit: number) => checkParsed(limitBody(express.json({ type: jsonType, limit, verify }), limit, jsonType, bounds, env.JSON_MAX_VALUES));
  const form = (limit: number) => limitBody(express.urlencoded({ type: formType, extended: false, limit, parameterLimit: 100 }), limit, formType, bounds);
  /**
   * A reader for `types`: a body of another type (or none) is left unread, so a refusal after it
   * drains it within bounds (body-limits.ts); a JSON charset other than UTF-8 is refused unread
   * (415): RFC 8259 wants UTF-8, and the values and escapes are counted in UTF-8 bytes (in
   * UTF-16 a string's quote can be the low byte of another character). Marked as read only when a
   * parser takes the body; once per request.
   */
  const read =
    (types: string[], parse: RequestHandler): RequestHandler =>
    (req, res, next) => {
      if (reading.has(req) || !req.is(types)) return next();
      const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers["content-type"] ?? "")?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset))
        return next(Object.assign(new Error("unsupported charset"), { status: 415, expose: true, type: "charset.unsupported" }));
      reading.add(req);
      parse(req, res, next);
    };
  const chain =
    (...parsers: RequestHandler[]): RequestHandler =>
    (req, res, next) => {
      const run = (i: number): void => {
        if (i === parsers.length) return next();
        parsers[i]!(req, res, (err?: unknown) => (err ? next(err) : run(i + 1)));
      };
      run(0);
    };
  const body = json(mb(env.BODY_LIMIT_MB));
  const inspectionBody = json(mb(env.INSPECTION_BODY_LIMIT_MB));
  // A compressed body is counted once inflated, in one pass before it is parsed: it may inflate to
  // BODY_LIMIT_MB at most on every route, so that pass stays short (5 MB: about 35 ms).
  const compressed = (req: Request) => (req.headers["content-encoding"] ?? "identity").toLowerCase() !== "identity";
  return {
    default: read(jsonType, body),
    inspection: read(jsonType, (req, res, next) => (compressed(req) ? body : inspectionBody)(req, res, next)),
    credential: chain(read(formType, form(CREDENTIAL_BODY_LIMIT)), read(jsonType, json(CREDENTIAL_BODY_LIMIT))),
  };
}
