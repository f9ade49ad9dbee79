import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { createTemplate, forkliftBody, responseType, smallBody } from "../fixtures/templates.fixtures.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const post = (t: DemoSeed, body: unknown) => stack.http.post("/api/templates", body, { auth: { bearer: t.apiKey } });
const templateCount = async (t: DemoSeed) =>
  Number((await stack.db.sql`select count(*)::int as n from templates where organization_id = ${t.organization.id}`)[0]!.n);

describe("POST /api/templates: the spec's required-field messages", () => {
  it("answers 400 'Template name and type are required' when name or type is missing or blank", async () => {
    const t = await stack.tenant();
    const base = smallBody(t, [{ text: "Q" }]);
    const { name: _n, ...noName } = base;
    const { type: _t, ...noType } = base;
    for (const body of [noName, noType, { ...base, name: "  " }, { ...base, type: "" }, { ...base, name: null }, { createdBy: t.users.admin.id }, {}]) {
      const res = await post(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: "Template name and type are required" });
    }
    expect(await templateCount(t)).toBe(0);
  });

  it("answers 400 'createdBy (user id) is required when using an API key' without createdBy, after the name/type check", async () => {
    const t = await stack.tenant();
    const { createdBy: _c, ...body } = smallBody(t, [{ text: "Q" }]);
    for (const b of [body, { ...body, createdBy: "" }]) {
      const res = await post(t, b);
      expect(res).toMatchObject({ status: 400, body: { error: "createdBy (user id) is required when using an API key" } });
    }
    expect((await post(t, { type: "AUDIT" })).body.error).toBe("Template name and type are required");
  });

  it("refuses a createdBy that is not a user of the caller's organization (unknown, malformed, other tenant)", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    for (const createdBy of [randomUUID(), "not-a-uuid", other.users.admin.id]) {
      const res = await post(t, smallBody(t, [{ text: "Q" }], [], { createdBy }));
      expect(res).toMatchObject({ status: 400, body: { error: "createdBy must be the id of a user of your organization" } });
    }
    expect(await templateCount(t)).toBe(0);
  });

  it("names each bad field for other schema violations", async () => {
    const t = await stack.tenant();
    const res = await post(t, { ...smallBody(t, [{ text: "" }]), type: "SURVEY" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid request body");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.stringMatching(/^type/), expect.stringMatching(/^sections\.0\.questions\.0\.text/)]));
  });
});

describe("POST /api/templates: organization data", () => {
  it("answers 400 listing each unknown responseTypeId (random, malformed, another tenant's)", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const missing = randomUUID();
    const theirs = responseType(other, "TEXT").id;
    const res = await post(
      t,
      smallBody(t, [
        { text: "ok", responseTypeId: responseType(t, "TEXT").id },
        { text: "a", responseTypeId: missing },
        { text: "b", responseTypeId: "nope" },
        { text: "c", responseTypeId: theirs },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Unknown responseTypeId: '${missing}', 'nope', '${theirs}'`);
    expect(res.body.details).toEqual([
      `sections[0].questions[1].responseTypeId: '${missing}' is not a response type of your organization`,
      "sections[0].questions[2].responseTypeId: 'nope' is not a response type of your organization",
      `sections[0].questions[3].responseTypeId: '${theirs}' is not a response type of your organization`,
    ]);
    expect(await templateCount(t)).toBe(0);
  });

  it("refuses an unknown assetTypeId, and an asset type on an AUDIT template", async () => {
    const t = await stack.tenant();
    const other = await stack.tenant();
    const res = await post(t, forkliftBody(t, { assetTypeId: other.assetTypes[0]!.id }));
    expect(res).toMatchObject({ status: 400, body: { error: `Unknown assetTypeId '${other.assetTypes[0]!.id}'` } });
    const audit = await post(t, forkliftBody(t, { type: "AUDIT" }));
    expect(audit).toMatchObject({ status: 400, body: { error: "assetTypeId is only allowed on ASSET templates" } });
  });

  it("refuses inline options on a non-choice question and duplicate option values", async () => {
    const t = await stack.tenant();
    const res = await post(
      t,
      smallBody(t, [
        { text: "t", responseTypeId: responseType(t, "TEXT").id, options: [{ label: "A", value: "a" }] },
        {
          text: "s",
          options: [
            { label: "A", value: "a" },
            { label: "A again", value: "a" },
          ],
        },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Invalid question options",
      details: [
        "sections[0].questions[0].options: options are only allowed on choice questions; response type 'Text' is TEXT",
        "sections[0].questions[1].options: duplicate option value 'a'",
      ],
    });
  });
});

describe("POST /api/templates: size limits (a 400 naming the limit; nothing is written)", () => {
  const q = (i: number, extra: Record<string, unknown> = {}) => ({ key: `q${i}`, text: `Question ${i}`, ...extra });
  const refused = async (t: DemoSeed, body: unknown, error: string, details: string[]) => {
    const res = await post(t, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, details });
    expect(await templateCount(t)).toBe(0);
  };

  it("a rule order outside Postgres's integer range (3e9 was a 500)", async () => {
    const t = await stack.tenant();
    for (const order of [3e9, -3e9, 2_147_483_648]) {
      const rules = [{ sourceKey: "q0", targetKey: "q1", condition: { type: "is_not_empty" }, order }];
      await refused(t, smallBody(t, [q(0), q(1)], rules), "Invalid request body", ["logicRules.0.order: order must be between -2147483648 and 2147483647"]);
    }
    const ok = await post(t, smallBody(t, [q(0), q(1)], [{ sourceKey: "q0", targetKey: "q1", condition: { type: "is_not_empty" }, order: 2_147_483_647 }]));
    expect(ok.status).toBe(200);
    expect(ok.body.template.sections[0].questions[0].logicRules[0].order).toBe(2_147_483_647);
  });

  it("more than 200 sections, 5000 questions, 500 options on a question or 5000 rules", async () => {
    const t = await stack.tenant();
    const sections = (n: number, per: number) =>
      Array.from({ length: n }, (_, s) => ({ title: `S${s}`, questions: Array.from({ length: per }, (_, i) => q(s * per + i)) }));
    await refused(t, { ...smallBody(t, []), sections: sections(201, 0) }, "Invalid request body", ["sections: a template has at most 200 sections"]);
    await refused(t, { ...smallBody(t, []), sections: sections(50, 100), questions: [q(99999)] }, "Invalid request body", [
      "a template has at most 5000 questions (in sections and standalone together); this one has 5001",
    ]);
    const options = Array.from({ length: 501 }, (_, i) => ({ label: `O${i}`, value: `o${i}` }));
    await refused(t, smallBody(t, [q(0, { options })]), "Invalid request body", ["sections.0.questions.0.options: a question has at most 500 options"]);
    const rules = Array.from({ length: 5001 }, () => ({ sourceKey: "q0", targetKey: "q1", condition: { type: "is_not_empty" } }));
    await refused(t, smallBody(t, [q(0), q(1)], rules), "Invalid request body", ["logicRules: a template has at most 5000 logic rules"]);
  });

  it("more than 20000 options in all, counting those copied from response types", async () => {
    const t = await stack.tenant();
    const options = Array.from({ length: 500 }, (_, i) => ({ label: `O${i}`, value: `o${i}` }));
    // 40 x 500 inline = 20000, plus one question copying the seed's three Yes/No/N/A options.
    const questions = [...Array.from({ length: 40 }, (_, i) => q(i, { options })), q(40, { responseTypeId: responseType(t, "SELECT").id })];
    await refused(t, smallBody(t, questions), "Template too large", [
      "a template has at most 20000 options (inline and copied from response types together); this one has 20003",
    ]);
  });
});

describe("POST /api/templates: logic validated at save time", () => {
  const invalid = async (t: DemoSeed, questions: unknown[], rules: unknown[]) => {
    const res = await post(t, smallBody(t, questions, rules));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid template logic");
    expect(await templateCount(t)).toBe(0);
    return res.body.details as string[];
  };
  const rule = (sourceKey: string, targetKey: string, type: string, value?: unknown) => ({
    sourceKey,
    targetKey,
    condition: value === undefined ? { type } : { type, value },
  });

  it("duplicate keys", async () => {
    const t = await stack.tenant();
    expect(
      await invalid(
        t,
        [
          { key: "a", text: "A" },
          { key: "a", text: "A again" },
        ],
        [],
      ),
    ).toEqual(["Duplicate question key 'a'"]);
  });

  it("a rule whose target is its own source", async () => {
    const t = await stack.tenant();
    expect(await invalid(t, [{ key: "a", text: "A" }], [rule("a", "a", "is_not_empty")])).toEqual(["Rule on question 'a' targets its own source question"]);
  });

  it("cycles at any depth", async () => {
    const t = await stack.tenant();
    const qs = ["a", "b", "c"].map((key) => ({ key, text: key.toUpperCase() }));
    expect(await invalid(t, qs, [rule("a", "b", "is_not_empty"), rule("b", "a", "is_empty")])).toEqual(["Logic cycle: a -> b -> a"]);
    expect(await invalid(t, qs, [rule("a", "b", "is_not_empty"), rule("b", "c", "is_not_empty"), rule("c", "a", "is_not_empty")])).toEqual([
      "Logic cycle: a -> b -> c -> a",
    ]);
  });

  it("an unknown condition type", async () => {
    const t = await stack.tenant();
    const details = await invalid(
      t,
      [
        { key: "a", text: "A" },
        { key: "b", text: "B" },
      ],
      [rule("a", "b", "matches_regex", "x")],
    );
    expect(details).toHaveLength(1);
    expect(details[0]).toMatch(/^Unknown condition type 'matches_regex' in rule from 'a' to 'b'; allowed: equals, /);
  });

  it("an operator that makes no sense for the source's input type", async () => {
    const t = await stack.tenant();
    const qs = [
      { key: "sel", text: "Sel", responseTypeId: responseType(t, "SELECT").id },
      { key: "txt", text: "Txt", responseTypeId: responseType(t, "TEXT").id },
      { key: "end", text: "End" },
    ];
    expect(await invalid(t, qs, [rule("sel", "end", "greater_than", "yes"), rule("txt", "end", "is_selected", "x")])).toEqual([
      "Condition 'greater_than' cannot be used on SELECT question 'sel'",
      "Condition 'is_selected' cannot be used on TEXT question 'txt'",
    ]);
  });

  it("a choice value that is none of the source's option values or ids", async () => {
    const t = await stack.tenant();
    const qs = [
      { key: "sel", text: "Sel", responseTypeId: responseType(t, "SELECT").id },
      { key: "end", text: "End" },
    ];
    expect(await invalid(t, qs, [rule("sel", "end", "equals", "maybe")])).toEqual([
      "Condition 'equals' in rule from 'sel' to 'end': value 'maybe' matches no option value or id of question 'sel'",
    ]);
  });

  it("an unsupported actionType", async () => {
    const t = await stack.tenant();
    const details = await invalid(
      t,
      [
        { key: "a", text: "A" },
        { key: "b", text: "B" },
      ],
      [{ ...rule("a", "b", "is_not_empty"), actionType: "notify" }],
    );
    expect(details).toEqual([
      "Unsupported actionType 'notify' in rule from 'a' to 'b'; supported: ask_questions, require_note, require_photo, require_action, flag",
    ]);
  });

  it("reports every problem at once, one message each", async () => {
    const t = await stack.tenant();
    const qs = [
      { key: "a", text: "A", responseTypeId: responseType(t, "SELECT").id },
      { key: "b", text: "B" },
      { key: "b", text: "B again" },
    ];
    const details = await invalid(t, qs, [rule("a", "a", "is_empty"), rule("a", "b", "equals", "maybe"), rule("b", "a", "is_not_empty")]);
    expect(details).toHaveLength(4);
    expect(details).toEqual(
      expect.arrayContaining([
        "Duplicate question key 'b'",
        "Rule on question 'a' targets its own source question",
        expect.stringMatching(/value 'maybe' matches no option/),
        "Logic cycle: a -> b -> a",
      ]),
    );
  });

  it("skips rules whose keys match no question, and says how many and why", async () => {
    const t = await stack.tenant();
    const res = await post(t, smallBody(t, [{ key: "a", text: "A" }], [rule("a", "ghost", "is_not_empty"), rule("x", "y", "contains")]));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      "Template created as DRAFT; 2 logic rules skipped: targetKey 'ghost' matches no question key; sourceKey 'x' and targetKey 'y' match no question key",
    );
    expect(res.body.template.sections[0].questions[0].logicRules).toEqual([]);
  });
});

describe("reads and transitions", () => {
  it("answers 400 for a publishedOnly that is not true or false", async () => {
    const t = await stack.tenant();
    for (const v of ["yes", "1", "TRUE", ""]) {
      const res = await stack.http.get(`/api/templates?publishedOnly=${v}`, { auth: { bearer: t.apiKey } });
      expect(res.status, v).toBe(400);
      expect(res.body).toEqual({ error: "Invalid query parameters", details: ["publishedOnly: must be true or false"] });
    }
  });

  it("answers 404 {error} for an unknown or malformed id, on detail, publish and archive", async () => {
    const t = await stack.tenant();
    for (const id of [randomUUID(), "not-a-uuid", "1"]) {
      for (const [method, path] of [
        ["GET", `/api/templates/${id}`],
        ["POST", `/api/templates/${id}/publish`],
        ["POST", `/api/templates/${id}/archive`],
      ] as const) {
        const res = await stack.http.request(method, path, { auth: { bearer: t.apiKey } });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: "Template not found" });
      }
    }
  });

  it("answers 409 when publishing an archived template", async () => {
    const t = await stack.tenant();
    const created = await createTemplate(stack, t, smallBody(t, [{ text: "Q" }]));
    expect((await stack.http.post(`/api/templates/${created.id}/archive`, undefined, { auth: { bearer: t.apiKey } })).status).toBe(200);
    const res = await stack.http.post(`/api/templates/${created.id}/publish`, undefined, { auth: { bearer: t.apiKey } });
    expect(res).toMatchObject({ status: 409, body: { error: "An archived template cannot be published" } });
    const [row] = await stack.db.sql`select status from templates where id = ${created.id}`;
    expect(row!.status).toBe("ARCHIVED");
  });
});
