import { ScimError, type ScimType } from "./errors.ts";

/**
 * SCIM filters (RFC 7644 section 3.4.2.2, the grammar of its Figure 1) and PATCH paths (section
 * 3.5.2) parsed into a tree, with a 400 `invalidFilter` (section 3.12) naming the first thing
 * that is wrong and where. Which attributes a tree may name, and what they compare with, is
 * filter.ts's business; this file knows only the grammar.
 *
 * Not scimmy's Filter: it is a regular-expression tokenizer that accepts malformed filters
 * and rejects well-formed ones. It answers `userName eq "x" and` (a dangling operator) and
 * `userName eq "x" or` as if the operator were not there, takes unquoted words as strings
 * (`userName eq x`), reads `active eq True` as `false`, accepts `not userName eq "x"` without
 * the parentheses the grammar requires, the non-standard `np` operator, a value after `pr`, a
 * second sub-attribute (`name.givenName.x`), and turns `userName eq "x" "y"` into a comparison
 * of an attribute named `eq`; it throws TypeErrors instead of SCIM errors for `and userName eq
 * "x"`, `userName` alone and `name..givenName`; and it rejects nested parentheses
 * (`((a eq "x") or (b eq "y")) and c pr`) and JSON escapes in strings (`"a\"b"`).
 *
 * The grammar as parsed here:
 *
 *     FILTER    = attrExp / logExp / valuePath / "not" *SP "(" FILTER ")" / "(" FILTER ")"
 *     logExp    = FILTER 1*SP ("and" / "or") 1*SP FILTER     ; "and" binds tighter than "or"
 *     valuePath = attrPath "[" valFilter "]" [subAttr 1*SP (compareOp 1*SP compValue / "pr")]
 *     valFilter = the same as FILTER, over the sub-attributes of attrPath, without valuePath
 *     attrExp   = attrPath 1*SP "pr" / attrPath 1*SP compareOp 1*SP compValue
 *     compValue = false / null / true / number / string       ; JSON's (RFC 7159), lower case
 *     attrPath  = [URI ":"] ATTRNAME [subAttr]   ; subAttr = "." ATTRNAME
 *     ATTRNAME  = ALPHA *("-" / "_" / DIGIT / ALPHA) / "$ref"
 *
 * Two liberties, both of what clients send: any run of white space where the RFC writes SP
 * (and "not (" with a space, as the RFC's own example does: erratum 7319), and a sub-attribute
 * after a value path (`emails[type eq "work"].value eq "x"`, which Microsoft Entra ID sends and
 * which means `emails[type eq "work" and value eq "x"]`). Keywords and attribute names are
 * case-insensitive (section 3.4.2.2); the literals true, false and null are JSON's, lower case.
 */

type CompareOp = "eq" | "ne" | "co" | "sw" | "ew" | "gt" | "lt" | "ge" | "le";
const COMPARE_OPS: readonly CompareOp[] = ["eq", "ne", "co", "sw", "ew", "gt", "lt", "ge", "le"];

type Literal = { kind: "string"; value: string } | { kind: "number"; value: number } | { kind: "boolean"; value: boolean } | { kind: "null" };

/** An attribute path (RFC 7644 section 3.10): `[URI ":"] name ["." sub]`. */
export interface AttrPath {
  /** The schema URN, when the path is written fully qualified. */
  uri?: string;
  name: string;
  sub?: string;
  /** As written, for error details. */
  text: string;
}

export type Test = { op: "pr" } | { op: CompareOp; value: Literal };

export type FilterNode =
  | { kind: "and" | "or"; filters: FilterNode[] }
  | { kind: "not"; filter: FilterNode }
  | { kind: "test"; path: AttrPath; test: Test }
  | { kind: "valuePath"; path: AttrPath; filter: FilterNode; sub?: { name: string; test: Test } };

/** Parentheses and brackets nest at most this deep (the parser is recursive). */
const MAX_DEPTH = 32;

interface Token {
  type: "word" | "string" | "(" | ")" | "[" | "]";
  text: string;
  /** The decoded value of a string. */
  value?: string;
  /** 1-based character position. */
  at: number;
  /** White space before it. */
  spaced: boolean;
}

const ATTRNAME = /^(?:[A-Za-z][A-Za-z0-9_-]*|\$ref)$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A piece of the request in an error detail: quoted and escaped (JSON), and cut short. */
export const quote = (s: string): string => JSON.stringify(s.length > 100 ? `${s.slice(0, 100)}…` : s);

const describe = (t: Token) => (t.type === "word" ? quote(t.text) : t.type === "string" ? `string ${quote(t.text)}` : `'${t.type}'`);

class Parser {
  private i = 0;
  private depth = 0;
  /** Inside a value filter's brackets: its errors are filter errors, even in a PATCH path. */
  private brackets = 0;

  /** `outside`: the error type outside brackets (invalidFilter for filters, invalidPath for PATCH paths). */
  constructor(
    private readonly tokens: Token[],
    private readonly outside: ScimType,
  ) {}

  fail(detail: string): never {
    const scimType = this.brackets > 0 ? "invalidFilter" : this.outside;
    throw new ScimError(400, scimType, `${scimType === "invalidPath" ? "Invalid path" : "Invalid filter"}: ${detail}`);
  }

  peek(): Token | undefined {
    return this.tokens[this.i];
  }

  next(): Token | undefined {
    return this.tokens[this.i++];
  }

  private keyword(t: Token | undefined, ...words: string[]): boolean {
    return t?.type === "word" && words.includes(t.text.toLowerCase());
  }

  private deeper(t: Token): void {
    if (++this.depth > MAX_DEPTH) this.fail(`'${t.type}' at character ${t.at} nests parentheses or brackets more than ${MAX_DEPTH} levels deep`);
  }

  /** FILTER: and-terms joined by "or". `inside`: the attribute whose value filter this is. */
  or(inside?: AttrPath): FilterNode {
    const parts = [this.and(inside)];
    while (this.keyword(this.peek(), "or")) parts.push(this.logical(inside, "or"));
    return parts.length === 1 ? parts[0]! : { kind: "or", filters: parts };
  }

  private and(inside?: AttrPath): FilterNode {
    const parts = [this.unary(inside)];
    while (this.keyword(this.peek(), "and")) parts.push(this.logical(inside, "and"));
    return parts.length === 1 ? parts[0]! : { kind: "and", filters: parts };
  }

  /** The operand after "and" / "or": both need white space around them, and something after them. */
  private logical(inside: AttrPath | undefined, op: "and" | "or"): FilterNode {
    const t = this.next()!;
    if (!t.spaced) this.fail(`${quote(t.text)} at character ${t.at} needs a space before it`);
    const after = this.peek();
    if (!after || after.type === ")" || after.type === "]")
      this.fail(`${quote(t.text)} at character ${t.at} has nothing after it: another expression must follow '${op}'`);
    if (!after.spaced) this.fail(`${quote(t.text)} at character ${t.at} needs a space after it`);
    return op === "and" ? this.unary(inside) : this.and(inside);
  }

  private unary(inside?: AttrPath): FilterNode {
    const t = this.peek();
    if (!t) return this.fail(this.i === 0 ? "the filter is empty" : "the filter ends where an expression should be");
    if (t.type === "(") {
      this.next();
      this.deeper(t);
      const f = this.or(inside);
      this.close(t, ")");
      this.depth--;
      return f;
    }
    if (this.keyword(t, "not")) {
      this.next();
      const open = this.peek();
      if (open?.type !== "(") this.fail(`'not' at character ${t.at} must be followed by a filter in parentheses, as in not (userName eq "x")`);
      this.next();
      this.deeper(open);
      const f = this.or(inside);
      this.close(open, ")");
      this.depth--;
      return { kind: "not", filter: f };
    }
    if (this.keyword(t, "and", "or")) this.fail(`${quote(t.text)} at character ${t.at} has no expression before it`);
    if (t.type !== "word") {
      if (t.type === ")" && this.tokens[this.i - 1]?.type === "(") this.fail(`the parentheses at character ${this.tokens[this.i - 1]!.at} are empty`);
      if (t.type === "]" && this.tokens[this.i - 1]?.type === "[") this.fail(`the brackets at character ${this.tokens[this.i - 1]!.at} are empty`);
      this.fail(`expected an attribute path at character ${t.at}, found ${describe(t)}`);
    }
    return this.attrExp(inside);
  }

  /** The token closing `open`. */
  private close(open: Token, type: ")" | "]"): void {
    const t = this.next();
    if (!t) this.fail(`'${open.type}' at character ${open.at} is not closed`);
    if (t.type !== type) this.fail(`expected '${type}' at character ${t.at} to close '${open.type}' at character ${open.at}, found ${describe(t)}`);
  }

  private attrExp(inside?: AttrPath): FilterNode {
    const w = this.next()!;
    const path = this.attrPath(w, inside);
    const t = this.peek();
    if (t?.type === "[" && !t.spaced) {
      if (inside) this.fail(`value filters do not nest: '[' at character ${t.at} is inside ${quote(`${inside.text}[…]`)}`);
      const { filter, sub } = this.valueFilter(path);
      return { kind: "valuePath", path, filter, ...(sub ? { sub: { name: sub.name, test: this.test(`${path.text}[…].${sub.name}`) } } : {}) };
    }
    return { kind: "test", path, test: this.test(path.text) };
  }

  /** `[valFilter]` after `path`, and the sub-attribute that may follow it. */
  valueFilter(path: AttrPath): { filter: FilterNode; sub?: { name: string; at: number } } {
    const open = this.next()!;
    if (path.sub !== undefined) this.fail(`a value filter follows a multi-valued attribute, not a sub-attribute: ${quote(path.text)}[ at character ${open.at}`);
    this.deeper(open);
    this.brackets++;
    const filter = this.or(path);
    this.close(open, "]");
    this.brackets--;
    this.depth--;
    const s = this.peek();
    if (s?.type === "word" && !s.spaced) {
      this.next();
      const name = s.text.startsWith(".") ? s.text.slice(1) : "";
      if (!ATTRNAME.test(name)) this.fail(`${quote(s.text)} at character ${s.at} after ${quote(`${path.text}[…]`)} is not a sub-attribute (.name)`);
      return { filter, sub: { name, at: s.at } };
    }
    return { filter };
  }

  /** `pr`, or a comparison operator and its value, after the attribute named `what`. */
  private test(what: string): Test {
    const op = this.peek();
    if (!op || op.type === ")" || op.type === "]") this.fail(`${quote(what)} needs an operator after it: eq, ne, co, sw, ew, gt, ge, lt, le or pr`);
    if (op.type !== "word") this.fail(`expected an operator after ${quote(what)} at character ${op.at}, found ${describe(op)}`);
    if (!op.spaced) this.fail(`${quote(op.text)} at character ${op.at} needs a space before it`);
    const name = op.text.toLowerCase();
    this.next();
    if (name === "pr") return { op: "pr" };
    if (!(COMPARE_OPS as readonly string[]).includes(name))
      this.fail(`unknown operator ${quote(op.text)} at character ${op.at}: the operators are eq, ne, co, sw, ew, gt, ge, lt, le and pr`);
    const v = this.next();
    if (!v || v.type === ")" || v.type === "]") this.fail(`${quote(op.text)} at character ${op.at} needs a value after it`);
    if (v.type !== "string" && v.type !== "word") this.fail(`${quote(op.text)} at character ${op.at} needs a value after it, found ${describe(v)}`);
    if (!v.spaced) this.fail(`the value at character ${v.at} needs a space before it`);
    return { op: name as CompareOp, value: this.literal(v) };
  }

  private literal(t: Token): Literal {
    if (t.type === "string") return { kind: "string", value: t.value! };
    if (t.text === "true" || t.text === "false") return { kind: "boolean", value: t.text === "true" };
    if (t.text === "null") return { kind: "null" };
    if (/^(true|false|null)$/i.test(t.text)) this.fail(`${quote(t.text)} at character ${t.at}: true, false and null are written in lower case (JSON)`);
    if (JSON_NUMBER.test(t.text)) return { kind: "number", value: Number(t.text) };
    if (/^\d{4}-\d\d/.test(t.text)) this.fail(`${quote(t.text)} at character ${t.at} is not a value: a dateTime is a string, in double quotes`);
    if (/^[-+.\d]/.test(t.text)) this.fail(`${quote(t.text)} at character ${t.at} is not a number (numbers are JSON numbers, such as 42 or -1.5e3)`);
    return this.fail(`${quote(t.text)} at character ${t.at} is not a value: strings go in double quotes, as in "${t.text.replace(/["\\]/g, "")}"`);
  }

  attrPath(t: Token, inside?: AttrPath): AttrPath {
    const text = t.text;
    let uri: string | undefined;
    let rest = text;
    const colon = text.lastIndexOf(":");
    if (colon >= 0) {
      if (inside)
        this.fail(
          `inside ${quote(`${inside.text}[…]`)}, ${quote(text)} at character ${t.at} must name a sub-attribute of ${quote(inside.text)}, without a schema URN`,
        );
      uri = text.slice(0, colon);
      rest = text.slice(colon + 1);
      if (!/^urn:[^:]+:/i.test(uri)) this.fail(`${quote(text)} at character ${t.at} is not an attribute path: only a schema URN (urn:…) may come before ':'`);
      if (rest === "") this.fail(`${quote(text)} at character ${t.at} names a schema but no attribute`);
    }
    const parts = rest.split(".");
    if (parts.some((p) => p === "")) this.fail(`${quote(text)} at character ${t.at} is not an attribute path: an attribute name is missing around '.'`);
    if (parts.length > 2) this.fail(`${quote(text)} at character ${t.at} is not an attribute path: at most one sub-attribute (attribute.subAttribute)`);
    const bad = parts.find((p) => !ATTRNAME.test(p));
    if (bad !== undefined)
      this.fail(
        `${quote(text)} at character ${t.at} is not an attribute path: ${quote(bad)} is not an attribute name (a letter, then letters, digits, '-' or '_')`,
      );
    return { ...(uri !== undefined ? { uri } : {}), name: parts[0]!, ...(parts[1] !== undefined ? { sub: parts[1] } : {}), text };
  }

  /** Nothing may follow a complete filter or path. */
  end(what: string): void {
    const t = this.peek();
    if (!t) return;
    if (t.type === ")") this.fail(`')' at character ${t.at} has no '(' to close`);
    if (t.type === "]") this.fail(`']' at character ${t.at} has no '[' to close`);
    this.fail(`unexpected ${describe(t)} at character ${t.at}: expected ${what}`);
  }
}

/** The tokens of a filter: words (attribute paths, operators, numbers, true/false/null), JSON strings, parentheses and brackets. */
function tokenize(text: string, fail: (detail: string) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let spaced = false;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      spaced = true;
      i++;
      continue;
    }
    const at = i + 1;
    if (c === "(" || c === ")" || c === "[" || c === "]") {
      tokens.push({ type: c, text: c, at, spaced });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) fail(`the string starting at character ${at} is not closed (a '"' is missing)`);
      const raw = text.slice(i, j + 1);
      let value: string;
      try {
        value = JSON.parse(raw) as string;
      } catch {
        fail(`the string starting at character ${at} is not a JSON string (RFC 7159 section 7: escape '"' and '\\' with '\\', and no control characters)`);
      }
      // What no attribute can hold (Postgres refuses U+0000; a lone surrogate is no text), as the API refuses them in bodies.
      if (value.includes("\u0000") || /\p{Cs}/u.test(value))
        fail(`the string starting at character ${at} holds U+0000 or an unpaired surrogate, which no attribute can hold`);
      tokens.push({ type: "string", text: raw.slice(1, -1), value, at, spaced });
      i = j + 1;
    } else {
      const m = /[^\s()[\]"]+/y;
      m.lastIndex = i;
      const word = m.exec(text)![0];
      tokens.push({ type: "word", text: word, at, spaced });
      i += word.length;
    }
    spaced = false;
  }
  return tokens;
}

/** A filter (the `filter` query parameter, RFC 7644 section 3.4.2.2) as a tree; a 400 invalidFilter when it is malformed. */
export function parseFilter(text: string): FilterNode {
  const fail = (detail: string): never => new Parser([], "invalidFilter").fail(detail);
  if (text.trim() === "") fail("the filter is empty");
  const p = new Parser(tokenize(text, fail), "invalidFilter");
  const node = p.or();
  p.end("'and', 'or' or the end of the filter");
  return node;
}

/**
 * A PATCH operation's path (RFC 7644 section 3.5.2: `attrPath / valuePath [subAttr]`): a
 * malformed path is a 400 invalidPath, a malformed filter inside its brackets a 400
 * invalidFilter (section 3.12 lists both for PATCH).
 */
export function parsePatchPath(text: string): { path: AttrPath; filter?: FilterNode; sub?: string } {
  const failPath = (detail: string): never => new Parser([], "invalidPath").fail(detail);
  const tokens = tokenize(text, failPath);
  const p = new Parser(tokens, "invalidPath");
  const first = p.next();
  if (!first) return failPath("the path is empty");
  if (first.type !== "word") return failPath(`expected an attribute path at character ${first.at}, found ${describe(first)}`);
  const path = p.attrPath(first);
  const open = p.peek();
  if (open?.type !== "[" || open.spaced) {
    p.end("the end of the path");
    return { path };
  }
  const { filter, sub } = p.valueFilter(path);
  p.end("the end of the path");
  return { path, filter, ...(sub ? { sub: sub.name } : {}) };
}
