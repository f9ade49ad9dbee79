/** Builders shared by the templates route tests. */
import type { DemoSeed } from "@insp/core";
import type { Stack } from "@insp/testing";

export const responseType = (t: DemoSeed, inputType: string) => {
  const rt = t.responseTypes.find((r) => r.inputType === inputType);
  if (!rt) throw new Error(`no ${inputType} response type in the seed`);
  return rt;
};

/**
 * Forklift check: two sections, a standalone question, and a three-level rule chain
 * brakes (SELECT) -> brake_issue (MULTI_SELECT) -> leak_size (NUMBER) -> notes (TEXT).
 */
export function forkliftBody(t: DemoSeed, extra: Record<string, unknown> = {}) {
  return {
    createdBy: t.users.admin.id,
    name: "Forklift daily check",
    type: "ASSET",
    description: "Before the first shift",
    assetTypeId: t.assetTypes[0]!.id,
    sections: [
      {
        title: "Safety",
        description: "Brakes and leaks",
        questions: [
          { key: "brakes", text: "Brakes OK?", required: true, responseTypeId: responseType(t, "SELECT").id },
          { key: "brake_issue", text: "What is wrong with the brakes?", required: true, responseTypeId: responseType(t, "MULTI_SELECT").id },
          { key: "leak_size", text: "Leak size in cm", responseTypeId: responseType(t, "NUMBER").id, hint: "Measure the puddle" },
        ],
      },
      {
        title: "General",
        questions: [
          { key: "notes", text: "Notes on the leak", responseTypeId: responseType(t, "TEXT").id },
          { key: "colour", text: "Colour", options: [{ label: "Red", value: "red" }, { label: "Blue", value: "blue", requiresNote: true }] },
        ],
      },
    ],
    questions: [{ text: "Inspector remarks" }],
    logicRules: [
      { sourceKey: "brakes", targetKey: "brake_issue", condition: { type: "equals", value: "no" } },
      { sourceKey: "brake_issue", targetKey: "leak_size", condition: { type: "is_selected", value: "leak" }, actionType: "ask_questions" },
      { sourceKey: "leak_size", targetKey: "notes", condition: { type: "greater_than", value: 5 }, order: 3 },
    ],
    ...extra,
  };
}

/** A minimal valid body with the given questions (standalone) and rules. */
export function smallBody(t: DemoSeed, questions: unknown[], logicRules: unknown[] = [], extra: Record<string, unknown> = {}) {
  return { createdBy: t.users.admin.id, name: "Small", type: "AUDIT", sections: [{ title: "Only", questions }], logicRules, ...extra };
}

export async function createTemplate(stack: Stack, t: DemoSeed, body: unknown) {
  const res = await stack.http.post("/api/templates", body, { auth: { bearer: t.apiKey } });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.template;
}

export async function userToken(stack: Stack, user: { email: string; password: string }): Promise<string> {
  const res = await stack.http.post("/api/auth/login", { email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body.accessToken;
}
