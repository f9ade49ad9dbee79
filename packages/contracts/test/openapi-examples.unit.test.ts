import { describe, expect, it } from "vitest";
// Ajv's JSON Schema 2020-12 validator: the dialect of an OpenAPI 3.1 document. Redocly's build of
// Ajv 8, already installed for the typed client's generator (openapi-typescript).
import Ajv2020 from "@redocly/ajv/dist/2020.js";
import { buildOpenApiDocument } from "../src/index.ts";

/**
 * Every example of /openapi.json, checked against its schema by a JSON Schema validator, as a
 * reader of the document (or a tool that generates requests from it) would: request bodies and
 * responses (`example` and each of `examples`), parameters, and `example` / `examples` inside
 * schemas. And every request body has one. The zod side (what the API accepts) is checked in
 * openapi.unit.test.ts.
 */

type Json = unknown;
type Obj = Record<string, any>;

const doc = buildOpenApiDocument() as unknown as Obj;
const DOC_ID = "urn:insp:openapi";

const ajv = new Ajv2020({ strict: true, allErrors: true });
// OpenAPI 3.1's base vocabulary on top of JSON Schema 2020-12 (section 4.8.24); strict mode
// refuses any other unknown keyword, so a misspelt one fails here.
ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
// The formats the document uses, asserted (OpenAPI leaves `binary` an annotation of content).
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat("date", {
  validate: (s: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
});
ajv.addFormat("date-time", {
  validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
});
ajv.addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
ajv.addFormat("binary", true);
// The document itself is added as one schema, so that each example's schema is reached by its JSON
// pointer with every $ref resolving in place; its own top-level fields are not schema keywords.
ajv.addVocabulary(Object.keys(doc).filter((k) => !k.startsWith("$")));
ajv.addSchema(doc, DOC_ID);

/** JSON pointer of a path in the document, as a URI fragment. */
const pointer = (path: (string | number)[]) => path.map((p) => encodeURIComponent(String(p).replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");
const where = (path: (string | number)[]) => path.join(" > ");

/** Problems of `value` against the schema at `schemaPath` of the document; [] when valid. */
function problems(schemaPath: (string | number)[], value: Json): string[] {
  const validate = ajv.compile({ $ref: `${DOC_ID}#/${pointer(schemaPath)}` });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}

interface Example {
  at: string;
  schemaPath: (string | number)[];
  value: Json;
}

/** The examples of a media type or parameter object at `path` (its `example` and each of its `examples`' values). */
function examplesOf(owner: Obj, path: (string | number)[]): Example[] {
  const out: Example[] = [];
  if (!owner.schema) return out;
  if (owner.example !== undefined) out.push({ at: where([...path, "example"]), schemaPath: [...path, "schema"], value: owner.example });
  for (const [name, ex] of Object.entries<Obj>(owner.examples ?? {})) {
    if (ex.value !== undefined) out.push({ at: where([...path, "examples", name]), schemaPath: [...path, "schema"], value: ex.value });
  }
  return out;
}

/** `example` and `examples` keywords inside the schema at `path`, each against the schema that holds it. */
function schemaExamples(schema: Json, path: (string | number)[], out: Example[] = []): Example[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => schemaExamples(s, [...path, i], out));
  else if (schema && typeof schema === "object") {
    const s = schema as Obj;
    if (typeof s.type === "string" || Array.isArray(s.type) || s.$ref || s.anyOf || s.oneOf || s.allOf || s.enum || s.const !== undefined || s.properties) {
      if (s.example !== undefined) out.push({ at: where([...path, "example"]), schemaPath: path, value: s.example });
      if (Array.isArray(s.examples)) s.examples.forEach((v: Json, i: number) => out.push({ at: where([...path, "examples", i]), schemaPath: path, value: v }));
    }
    for (const [k, v] of Object.entries(s))
      if (k !== "example" && k !== "examples" && k !== "enum" && k !== "const" && k !== "default") schemaExamples(v, [...path, k], out);
  }
  return out;
}

const operations = Object.entries<Obj>(doc.paths).flatMap(([path, item]) =>
  Object.entries<Obj>(item)
    .filter(([method]) => ["get", "put", "post", "patch", "delete", "head", "options"].includes(method))
    .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path: ["paths", path, method], op })),
);

const mediaExamples: Example[] = [];
const withoutExample: string[] = [];
for (const { name, path, op } of operations) {
  for (const [type, media] of Object.entries<Obj>(op.requestBody?.content ?? {})) {
    const found = examplesOf(media, [...path, "requestBody", "content", type]);
    if (found.length === 0 && !Object.values<Obj>(media.examples ?? {}).some((e) => e.externalValue)) withoutExample.push(`${name} (${type})`);
    mediaExamples.push(...found);
  }
  for (const [code, response] of Object.entries<Obj>(op.responses ?? {})) {
    for (const [type, media] of Object.entries<Obj>(response.content ?? {}))
      mediaExamples.push(...examplesOf(media, [...path, "responses", code, "content", type]));
  }
  (op.parameters ?? []).forEach((p: Obj, i: number) => mediaExamples.push(...examplesOf(p, [...path, "parameters", i])));
}
const inSchemas = [...schemaExamples(doc.components?.schemas ?? {}, ["components", "schemas"]), ...schemaExamples(doc.paths, ["paths"])];

describe("the examples of the OpenAPI document", () => {
  it("give every request body an example, for each of its media types", () => {
    expect(operations.filter(({ op }) => op.requestBody).length).toBeGreaterThan(15);
    expect(withoutExample).toEqual([]);
  });

  it("are valid against their schemas: request bodies, responses and parameters", () => {
    expect(mediaExamples.length).toBeGreaterThan(20);
    const invalid = mediaExamples.map((e) => ({ at: e.at, problems: problems(e.schemaPath, e.value) })).filter((r) => r.problems.length > 0);
    expect(invalid).toEqual([]);
  });

  it("are valid against their schemas inside schemas too (`example`, `examples`)", () => {
    expect(inSchemas.length).toBeGreaterThan(3);
    const invalid = inSchemas.map((e) => ({ at: e.at, problems: problems(e.schemaPath, e.value) })).filter((r) => r.problems.length > 0);
    expect(invalid).toEqual([]);
  });

  it("fail the check when they do not fit (the validator is not lenient)", () => {
    const sync = ["paths", "/api/v1/sync/employees", "post", "requestBody", "content", "application/json", "schema"];
    expect(problems(sync, { employees: [{ externalEmployeeId: "E-1", status: "FIRED" }] })).not.toEqual([]);
    expect(problems(sync, { employees: "E-1" })).not.toEqual([]);
    expect(
      problems(["components", "schemas", "WebhookEndpoint"], {
        id: "not-a-uuid",
        url: "https://x.example",
        events: [],
        description: null,
        enabled: true,
        disabledReason: null,
        createdAt: "yesterday",
        updatedAt: "2026-01-31T09:30:00Z",
      }),
    ).toHaveLength(2);
  });
});
