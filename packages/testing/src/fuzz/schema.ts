import fc from "fast-check";

/**
 * fast-check arbitraries for the JSON Schema (OpenAPI 3.1) subset our /openapi.json uses:
 * $ref to components, anyOf/oneOf/allOf, enum/const, type (also as a list), string formats
 * (uuid, email, date, date-time), length and range bounds, arrays and objects. Values are
 * kept small (arrays of at most `maxItems`, default 4) so that a case costs milliseconds;
 * size is the mutations' business (mutations.ts).
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  nullable?: boolean;
  default?: unknown;
};

export interface SchemaContext {
  /** components.schemas of the document, for $ref. */
  components: Record<string, JsonSchema>;
  /** Real ids of the test tenant (templates, questions, users, sites...): uuid fields use them half the time, to get past "not found". */
  knownIds: string[];
  /** Real values by property name (templateId, questionId, siteId...), used two times in three, so that cases get past "unknown id". */
  hints?: Record<string, unknown[]>;
  maxItems?: number;
  /** Every property of every object present, optional ones too, and every array with an item (the coercion-trap sweep wants a node for each field). */
  allKeys?: boolean;
}

const iso = (d: Date) => (Number.isNaN(d.getTime()) ? "2026-01-01T00:00:00.000Z" : d.toISOString());
const dateArb = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true });

function stringArb(s: JsonSchema, ctx: SchemaContext): fc.Arbitrary<string> {
  switch (s.format) {
    case "uuid":
      return ctx.knownIds.length ? fc.oneof(fc.constantFrom(...ctx.knownIds), fc.uuid()) : fc.uuid();
    case "email":
      return fc.emailAddress();
    case "date-time":
      return dateArb.map(iso);
    case "date":
      return dateArb.map((d) => iso(d).slice(0, 10));
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 24, 64));
  return fc.string({ minLength, maxLength, unit: "grapheme" });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

export function schemaArbitrary(schema: JsonSchema | undefined, ctx: SchemaContext, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 12) return fc.constant(null);
  const next = (s: JsonSchema | undefined) => schemaArbitrary(s, ctx, depth + 1);
  if (schema.$ref) return next(ctx.components[schema.$ref.replace("#/components/schemas/", "")]);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map(next));
  if (schema.allOf?.length) {
    const merged: JsonSchema = { type: "object", properties: {}, required: [] };
    for (const part of schema.allOf) {
      const p = part.$ref ? ctx.components[part.$ref.replace("#/components/schemas/", "")] : part;
      Object.assign(merged.properties!, p?.properties);
      merged.required!.push(...(p?.required ?? []));
    }
    return next(merged);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ["object"] : [];
  if (schema.nullable && !types.includes("null")) types.push("null");
  if (types.length > 1) return fc.oneof(...types.map((type) => next({ ...schema, type, nullable: false })));
  switch (types[0]) {
    case "string":
      return stringArb(schema, ctx);
    case "integer":
      return numberArb(schema, true);
    case "number":
      return numberArb(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = Math.max(schema.minItems ?? 0, ctx.allKeys && (schema.maxItems ?? 1) > 0 ? 1 : 0);
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? ctx.maxItems ?? 4, ctx.maxItems ?? 4));
      return fc.array(next(schema.items), { minLength, maxLength });
    }
    case "object": {
      const props = schema.properties ?? {};
      const hinted = (k: string, v: JsonSchema) => {
        const known = ctx.hints?.[k];
        return known?.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: next(v) }) : next(v);
      };
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, hinted(k, v)]));
      return fc.record(model, { requiredKeys: ctx.allKeys ? Object.keys(props) : (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
