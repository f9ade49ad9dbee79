import fc from "fast-check";
import {
  badPathIdArb,
  coercionTrapArb,
  coercionTrapSweep,
  confusedValue,
  contentTypeArb,
  nastyNumber,
  nastyString,
  queryAbuseArb,
  rawBodyArb,
  replaceAt,
} from "./mutations.ts";
import { schemaArbitrary, type JsonSchema, type SchemaContext } from "./schema.ts";

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface FuzzOperation {
  method: string;
  path: string;
  params: { in: "path" | "query" | "header"; name: string; schema: JsonSchema }[];
  /** The first media type of the request body, with its examples (`example` and the values of `examples`). */
  body?: { contentType: string; schema: JsonSchema; examples: unknown[] };
  security: string[];
}

export interface FuzzRequest {
  method: string;
  /** Path with ids filled in, and the query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type OpenApiDoc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, JsonSchema> } };

/** Every operation of an OpenAPI 3.1 document. */
export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const ops: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content as
        Record<string, { schema: JsonSchema; example?: unknown; examples?: Record<string, { value?: unknown }> }> | undefined;
      const [contentType, media] = content ? Object.entries(content)[0]! : [undefined, undefined];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({ in: p.in, name: p.name, schema: p.schema ?? {} })),
        body:
          contentType && media
            ? {
                contentType,
                schema: media.schema,
                examples: [
                  ...(media.example !== undefined ? [media.example] : []),
                  ...Object.values(media.examples ?? {}).flatMap((e) => (e.value !== undefined ? [e.value] : [])),
                ],
              }
            : undefined,
        security: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)),
      });
    }
  }
  return ops;
}

/** Coercion traps are JSON text: sent as the operation's own JSON type, or as application/json to a form operation (which takes JSON too). */
const trapContentType = (op: FuzzOperation) => (op.body && /json/.test(op.body.contentType) ? op.body.contentType : "application/json");

const encodeForm = (v: unknown): string => {
  if (!v || typeof v !== "object" || Array.isArray(v)) return String(v);
  return new URLSearchParams(Object.entries(v).map(([k, x]): [string, string] => [k, typeof x === "string" ? x : String(JSON.stringify(x))])).toString();
};

/**
 * Requests for one operation: mostly well-formed ones (valid credentials, bodies from the
 * schema, known ids), each with a good chance of one hostile change: a body node replaced by
 * a value of another type, a trap string or an extreme number; a raw body that is broken,
 * deep, huge or full of prototype and duplicate keys; a wrong content type; an abused query
 * string; a path id that is not an id; a missing or garbage credential.
 */
export function requestArbitrary(op: FuzzOperation, ctx: SchemaContext, auth: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const headerParams = op.params.filter((p) => p.in === "header");
  const idArb = fc.oneof(
    { weight: 3, arbitrary: ctx.knownIds.length ? fc.constantFrom(...ctx.knownIds) : fc.uuid() },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: badPathIdArb },
  );
  const pathArb = fc.tuple(...pathParams.map(() => idArb)).map((ids) => pathParams.reduce((p, param, i) => p.replace(`{${param.name}}`, ids[i]!), op.path));

  const validQuery = fc
    .record(Object.fromEntries(queryParams.map((p) => [p.name, schemaArbitrary(p.schema, ctx)])), { requiredKeys: [] })
    .map((q) => new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString());
  const queryArb = queryParams.length
    ? fc.oneof({ weight: 3, arbitrary: validQuery }, { weight: 2, arbitrary: queryAbuseArb })
    : fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: queryAbuseArb });

  const credentialArb = fc.oneof(
    { weight: 12, arbitrary: fc.constant(op.security.length ? (auth[op.security[0]!] ?? auth.default ?? "") : "") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "Bearer",
        "Bearer ",
        "Bearer isk_0000",
        "Basic !!!",
        "Basic Og==",
        "Negotiate abc",
        `Bearer ${"a".repeat(9000)}`,
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
      ),
    },
  );
  const headerArb = fc.record(
    Object.fromEntries(
      headerParams.map((p) => [
        p.name.toLowerCase(),
        fc.oneof(
          {
            weight: 3,
            arbitrary:
              p.name.toLowerCase() === "prefer"
                ? fc.constantFrom("respond-async", "respond-async, wait=5", "return=minimal")
                : fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
          },
          { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 300 }).map((s) => s.replace(/[\r\n\0]/g, "")) },
        ),
      ]),
    ),
    { requiredKeys: [] },
  );

  const form = op.body?.contentType === "application/x-www-form-urlencoded";
  const valid = op.body ? schemaArbitrary(op.body.schema, ctx) : fc.constant(undefined);
  const encode = (v: unknown) => (form ? encodeForm(v) : JSON.stringify(v));
  const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = op.body
    ? fc.oneof(
        { weight: 3, arbitrary: valid.map((v) => ({ body: encode(v), contentType: op.body!.contentType })) },
        {
          weight: 4,
          arbitrary: fc
            .tuple(valid, fc.nat(), fc.oneof(confusedValue, nastyString, nastyNumber))
            .map(([v, at, bad]) => ({ body: encode(replaceAt(v, at, bad)), contentType: op.body!.contentType })),
        },
        { weight: 2, arbitrary: rawBodyArb(valid).map((body) => ({ body, contentType: op.body!.contentType })) },
        { weight: 2, arbitrary: coercionTrapArb(valid).map((body) => ({ body, contentType: trapContentType(op) })) },
        { weight: 1, arbitrary: fc.tuple(valid, contentTypeArb).map(([v, ct]) => ({ body: encode(v), contentType: ct })) },
      )
    : fc.oneof(
        { weight: 5, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.tuple(rawBodyArb(fc.jsonValue({ maxDepth: 1 })), contentTypeArb).map(([body, contentType]) => ({ body, contentType })) },
      );

  return fc.tuple(pathArb, queryArb, credentialArb, headerArb, bodyArb).map(([path, query, credential, headers, b]) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (typeof v === "string") h[k] = v;
    if (credential) h.authorization = credential;
    if (b.contentType) h["content-type"] = b.contentType;
    return { method: op.method, url: query ? `${path}?${query}` : path, headers: h, body: b.body };
  });
}

/**
 * The coercion-trap sweep of one operation (mutations.ts, coercionTrapSweep): valid bodies (one
 * generated with every optional field present, and each example of the document, which get past
 * the checks a generated body fails), then each node of each replaced in turn by the strongest
 * trap, and trap members added to each of their objects. Valid credentials, no query (every
 * query parameter is optional), and for a path id the one `pathIds` gives for the operation's
 * path (else a known id), so that the traps reach validation and what comes after it. None for
 * an operation without a body.
 */
export function coercionSweepRequests(
  op: FuzzOperation,
  ctx: SchemaContext,
  auth: Record<string, string>,
  seed: number,
  pathIds: Record<string, string> = {},
): FuzzRequest[] {
  if (!op.body) return [];
  const full: SchemaContext = { ...ctx, allKeys: true };
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 1, seed })[0]!;
  let path = op.path;
  for (const p of op.params.filter((x) => x.in === "path"))
    path = path.replace(`{${p.name}}`, pathIds[op.path] ?? sample(ctx.knownIds.length ? fc.constantFrom(...ctx.knownIds) : fc.uuid()));
  const headers: Record<string, string> = { "content-type": trapContentType(op) };
  // If-Match "*" gets a PATCH past its 428; other header parameters (Idempotency-Key, Prefer) stay out.
  if (op.params.some((p) => p.in === "header" && p.name.toLowerCase() === "if-match")) headers["if-match"] = "*";
  const credential = op.security.length ? (auth[op.security[0]!] ?? auth.default) : undefined;
  if (credential) headers.authorization = credential;
  const bases = [sample(schemaArbitrary(op.body.schema, full)), ...op.body.examples.filter((e) => e !== null && typeof e === "object")];
  return bases.flatMap(coercionTrapSweep).map((body) => ({ method: op.method, url: path, headers: { ...headers }, body }));
}
