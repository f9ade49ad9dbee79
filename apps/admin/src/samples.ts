import type { DemoSeed } from "@insp/core";

type SampleTemplate = { id: string; sections: { questions: { id: string; key: string | null; options: { id: string; value: string }[] }[] }[] };

/** The sample template: two sections, scored and flagged options, a logic rule and an answer rule. */
function sampleTemplate(demo: DemoSeed) {
  const rt = (inputType: string) => demo.responseTypes.find((r) => r.inputType === inputType)!.id;
  return {
    createdBy: demo.users.admin.id,
    name: "Forklift pre-use check",
    type: "ASSET",
    description: "Before the first lift of every shift",
    assetTypeId: demo.assetTypes.find((a) => a.name === "Forklift")?.id ?? demo.assetTypes[0]!.id,
    sections: [
      {
        title: "Safety",
        description: "Stop and report if any answer is No",
        questions: [
          { key: "brakes", text: "Do the brakes hold on a slope?", required: true, responseTypeId: rt("SELECT") },
          { key: "brake_issue", text: "What is wrong with the brakes?", required: true, responseTypeId: rt("MULTI_SELECT") },
          { key: "horn", text: "Horn and lights work?", responseTypeId: rt("BOOLEAN") },
        ],
      },
      {
        title: "Condition",
        questions: [
          { key: "hours", text: "Hour meter reading", required: true, responseTypeId: rt("NUMBER") },
          {
            key: "forks",
            text: "Fork condition",
            options: [
              { label: "Good", value: "good", score: 2 },
              { label: "Worn", value: "worn", score: 1 },
              { label: "Bent", value: "bent", score: 0, flagged: true, requiresNote: true },
            ],
          },
          { key: "remarks", text: "Remarks", responseTypeId: rt("TEXT") },
        ],
      },
    ],
    logicRules: [
      { sourceKey: "brakes", targetKey: "brake_issue", condition: { type: "equals", value: "no" } },
      // A bent fork needs a corrective action on the remarks.
      { sourceKey: "forks", targetKey: "remarks", condition: { type: "equals", value: "bent" }, actionType: "require_action" },
    ],
  };
}

/** The three sample inspections of the published template: two completed, one in progress. */
function sampleInspections(template: SampleTemplate, demo: DemoSeed) {
  type Question = SampleTemplate["sections"][number]["questions"][number];
  const q: Record<string, Question> = Object.fromEntries(template.sections.flatMap((s) => s.questions).map((x) => [x.key, x]));
  const opt = (key: string, value: string) => q[key]!.options.find((o) => o.value === value)!.id;
  const id = (key: string) => q[key]!.id;
  return [
    {
      status: "COMPLETED",
      answers: [
        { questionId: id("brakes"), responseOptionId: opt("brakes", "yes") },
        { questionId: id("horn"), answerBoolean: true },
        { questionId: id("hours"), answerNumber: 1204 },
        { questionId: id("forks"), responseOptionId: opt("forks", "good") },
      ],
    },
    {
      status: "COMPLETED",
      answers: [
        // "No" requires a note and a photo (the demo's Yes/No/N/A response type): a 1x1 PNG.
        { questionId: id("brakes"), responseOptionId: opt("brakes", "no"), note: "Pulls to the left", media: [ONE_PIXEL_PNG] },
        { questionId: id("brake_issue"), answerJson: ["leak"] },
        { questionId: id("hours"), answerNumber: 3311.5 },
        { questionId: id("forks"), responseOptionId: opt("forks", "bent"), note: "Left fork bent at the heel" },
        {
          questionId: id("remarks"),
          answerText: "Taken out of service, workshop notified",
          actions: [
            { title: "Replace the left fork", priority: "HIGH", assigneeId: demo.users.admin.id, dueAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
          ],
        },
      ],
      location: { latitude: 52.5163, longitude: 13.3777, accuracyMeters: 15 },
    },
    { status: "IN_PROGRESS", answers: [{ questionId: id("brakes"), responseOptionId: opt("brakes", "yes") }] },
  ];
}

/**
 * Sample content for a new demo organization, made through the HTTP API with the demo API key
 * (so the first `npm start` shows something real): a published "Forklift pre-use check" template
 * with two sections, choice options (fork condition scored, "Bent" flagged), a logic rule (brakes "No"
 * asks what is wrong) and an answer rule (a bent fork needs a corrective action), and three
 * inspections of it: two completed (one with the rule's follow-up answered, a corrective action and
 * a location) and one in progress. A request unanswered after `timeoutMs` gives the samples up.
 */
export async function seedSamples(baseUrl: string, demo: DemoSeed, timeoutMs: number): Promise<{ templateId: string; inspections: string[] }> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${demo.apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const created = await call("POST", "/api/templates", sampleTemplate(demo));
  const template = created.template as SampleTemplate;
  await call("POST", `/api/templates/${template.id}/publish`, {});
  const site = demo.sites[0]!.id;
  const inspections: string[] = [];
  for (const b of sampleInspections(template, demo)) {
    const res = await call("POST", "/api/inspections", {
      templateId: template.id,
      conductedBy: demo.users.inspector.id,
      siteId: site,
      assetName: "Forklift FL-07",
      ...b,
    });
    inspections.push(String(res.inspectionNumber));
  }
  return { templateId: template.id, inspections };
}

const ONE_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGM4ceIEAAS0AlkWLoFAAAAAAElFTkSuQmCC";
