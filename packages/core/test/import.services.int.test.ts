import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import {
  ADMIN_CLI,
  AppError,
  FsMediaStore,
  changeTemplateStatus,
  createTemplate,
  runImport,
  seedDemo,
  type DemoSeed,
  type TemplateQuestion,
} from "../src/index.ts";
import { prepareImport, type PrepareServices } from "../src/inspections/prepare.ts";
import { PermanentImportError } from "../src/inspections/run.ts";

/**
 * The import's two halves against a real database and a real media folder, without an API or a
 * worker: prepareImport (validation, images, the import row) and runImport (the worker's writer).
 */

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let db: TestDatabase;
let t: DemoSeed;
let dir: string;
let svc: PrepareServices;
let templateId: string;
let q: { text: TemplateQuestion; check: TemplateQuestion };

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
  dir = await mkdtemp(join(tmpdir(), "insp-media-"));
  svc = { db: db.db, store: new FsMediaStore(dir), maxImageBytes: 1024 * 1024 };
  const textType = t.responseTypes.find((r) => r.name === "Text")!;
  const yesNo = t.responseTypes.find((r) => r.name === "Yes/No/N/A")!;
  const created = await createTemplate(db.db, {
    organizationId: t.organization.id,
    createdBy: t.users.admin.id,
    audit: ADMIN_CLI,
    input: {
      name: "Forklift check",
      type: "AUDIT",
      sections: [
        {
          title: "Checks",
          questions: [
            { key: "notes", text: "Notes", required: true, responseTypeId: textType.id },
            { key: "brakes", text: "Brakes OK?", required: true, responseTypeId: yesNo.id },
          ],
        },
      ],
      questions: [],
      logicRules: [],
    },
  });
  templateId = created.template.id;
  await changeTemplateStatus(db.db, t.organization.id, templateId, "publish", ADMIN_CLI);
  const [text, check] = created.template.sections[0]!.questions;
  q = { text: text!, check: check! };
});
afterAll(async () => {
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const input = (extra: Record<string, unknown> = {}) => ({
  templateId,
  conductedBy: t.users.inspector.id,
  siteId: t.sites[0]!.id,
  status: "COMPLETED" as const,
  answers: [
    { questionId: q.text.id, answerText: "All fine" },
    { questionId: q.check.id, templateOptionId: q.check.options.find((o) => o.value === "yes")!.id, media: [PNG_1X1] },
  ],
  ...extra,
});
const org = () => t.organization.id;

describe("prepareImport and runImport", () => {
  it("stores the image, records the import, and the writer creates the numbered inspection once however often it runs", async () => {
    const importId = await prepareImport(svc, org(), input(), ADMIN_CLI);
    expect(await readdir(dir, { recursive: true })).not.toEqual([]);
    const done = await runImport(db.db, org(), importId);
    expect(done).toMatchObject({ status: "DONE", id: expect.any(String), inspectionNumber: expect.stringMatching(/^\S+/) });
    // A repeated job finds it done and answers the same.
    expect(await runImport(db.db, org(), importId)).toEqual(done);
    const [row] = await db.sql<{ answers: number; media: number; status: string }[]>`
      select i.status, (select count(*)::int from inspection_answers a where a.inspection_id = i.id) as answers,
             (select count(*)::int from answer_media m join inspection_answers a on a.id = m.answer_id where a.inspection_id = i.id) as media
      from inspections i where i.id = ${done.status === "DONE" ? done.id : ""}`;
    expect(row).toEqual({ status: "COMPLETED", answers: 2, media: 1 });
  });

  it("numbers one organization's inspections without gaps, in the order they are written", async () => {
    const ids = [await prepareImport(svc, org(), input(), ADMIN_CLI), await prepareImport(svc, org(), input(), ADMIN_CLI)];
    const [a, b] = await Promise.all(ids.map((id) => runImport(db.db, org(), id)));
    const numbers = [a, b].map((r) => (r!.status === "DONE" ? Number(r!.inspectionNumber.replace(/\D/g, "")) : NaN)).sort((x, y) => x - y);
    expect(numbers[1]! - numbers[0]!).toBe(1);
  });

  it("refuses an invalid import with every violation at once and records nothing", async () => {
    const before = (await db.sql<{ n: number }[]>`select count(*)::int as n from inspection_imports where organization_id = ${org()}`)[0]!.n;
    const bad = input({
      conductedBy: "00000000-0000-4000-8000-000000000009",
      answers: [{ questionId: q.check.id, templateOptionId: "00000000-0000-4000-8000-00000000000a" }],
    });
    const err = await prepareImport(svc, org(), bad, ADMIN_CLI).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe("invalid");
    expect((err as AppError).details!.length).toBeGreaterThanOrEqual(2);
    expect((err as AppError).details).toContain("conductedBy '00000000-0000-4000-8000-000000000009' is not a user of this organization");
    expect((await db.sql<{ n: number }[]>`select count(*)::int as n from inspection_imports where organization_id = ${org()}`)[0]!.n).toBe(before);
  });

  it("keeps to the job's organization: another organization's import is missing, a malformed one fails for good", async () => {
    const importId = await prepareImport(svc, org(), input(), ADMIN_CLI);
    const other = await seedDemo(db.db);
    expect(await runImport(db.db, other.organization.id, importId)).toEqual({ status: "MISSING" });
    await db.sql`update inspection_imports set payload = '{"v": 99}'::jsonb where id = ${importId}`;
    await expect(runImport(db.db, org(), importId)).rejects.toBeInstanceOf(PermanentImportError);
  });
});
