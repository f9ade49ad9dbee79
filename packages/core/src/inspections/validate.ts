import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { assets, sites, users } from "@insp/db/schema";
import {
  checkAnswerValue,
  evaluateInspection,
  hasValue,
  selectedOptions,
  validateAnswers,
  visibleQuestions,
  type AnswerInput,
  type InspectionOutcome,
} from "@insp/logic";
import { checkActionInputs, type AnswerActionInputType } from "../actions/index.ts";
import { isBlank, isUuid, notFound } from "../errors.ts";
import { loadTemplateForValidation, type TemplateForValidation } from "../templates/index.ts";

/**
 * The values live once, in @insp/contracts (INSPECTION_STATUSES), which core does not depend on.
 * This type is what core accepts: if the contract gains a status, the API's call into core stops compiling.
 */
export type InspectionStatus = "COMPLETED" | "IN_PROGRESS";

export interface ImportAnswerInput extends AnswerInput {
  note?: string | null;
  /** base64 strings or data URLs */
  media?: string[];
  /** Images uploaded before (POST /api/media), by id. */
  mediaIds?: string[];
  /** Corrective actions this answer raises. */
  actions?: AnswerActionInputType[];
}

/** Where an inspection took place (WGS 84 degrees). */
export interface InspectionLocation {
  latitude: number;
  longitude: number;
  accuracyMeters?: number | undefined;
}

/** The import body after schema validation (contracts ImportBody). */
export interface ImportInput {
  templateId: string;
  conductedBy: string;
  siteId?: string | null;
  assetId?: string | null;
  assetName?: string | null;
  status: InspectionStatus;
  startedAt?: string;
  completedAt?: string;
  answers: ImportAnswerInput[];
  location?: InspectionLocation | null;
  /** The occurrence of a schedule it does (docs/schedules.md). */
  occurrenceId?: string;
}

export interface ValidatedImport {
  template: TemplateForValidation;
  asset: { id: string; name: string } | null;
  /** One message per violation; empty when the import may proceed (media are checked afterwards). */
  details: string[];
}

const quote = (s: string) => `'${s}'`;

async function orgRow(db: DbOrTx, table: typeof users, organizationId: string, id: string) {
  if (!isUuid(id)) return false;
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.organizationId, organizationId), eq(table.id, id)))
    .limit(1);
  return row !== undefined;
}

/** Why `siteId` cannot take an import (not the organization's, archived), or null. */
async function siteProblem(db: DbOrTx, organizationId: string, id: string): Promise<string | null> {
  const [row] = isUuid(id)
    ? await db
        .select({ archivedAt: sites.archivedAt })
        .from(sites)
        .where(and(eq(sites.organizationId, organizationId), eq(sites.id, id)))
        .limit(1)
    : [];
  if (!row) return `siteId ${quote(id)} is not a site of this organization`;
  return row.archivedAt ? `siteId ${quote(id)} is an archived site: restore it or choose another` : null;
}

/** The asset (id, name) an import names, or why it cannot take one (not the organization's, RETIRED, archived). */
async function orgAsset(db: DbOrTx, organizationId: string, id: string): Promise<{ id: string; name: string } | string> {
  const [row] = isUuid(id)
    ? await db
        .select({ id: assets.id, name: assets.name, status: assets.status, archivedAt: assets.archivedAt })
        .from(assets)
        .where(and(eq(assets.organizationId, organizationId), eq(assets.id, id)))
        .limit(1)
    : [];
  if (!row) return `assetId ${quote(id)} is not an asset of this organization`;
  if (row.status !== "ACTIVE") return `assetId ${quote(id)} is ${row.status}: only ACTIVE assets can be inspected`;
  if (row.archivedAt) return `assetId ${quote(id)} is an archived asset: restore it or choose another`;
  return { id: row.id, name: row.name };
}

/** requiresNote / requiresPhoto of the options selected by each valid answer to a visible question. */
function optionRequirements(t: TemplateForValidation, answers: ImportAnswerInput[]): string[] {
  const byId = new Map(t.questions.map((q) => [q.id, q]));
  const valid = new Map<string, ImportAnswerInput>();
  for (const a of answers) {
    const q = byId.get(a.questionId);
    if (q && !valid.has(q.id) && hasValue(a) && checkAnswerValue(q, a) === null) valid.set(q.id, a);
  }
  const visible = visibleQuestions(t, valid);
  const details: string[] = [];
  for (const [questionId, a] of valid) {
    const q = byId.get(questionId)!;
    if (!visible.has(q.id)) continue; // reported by the engine as hidden
    for (const option of selectedOptions(q, a).options) {
      const flags = q.options.find((o) => o.id === option.id);
      if (flags?.requiresNote && isBlank(a.note)) details.push(`Answer to ${quote(q.text)}: option ${quote(option.label)} requires a note`);
      if (flags?.requiresPhoto && (a.media ?? []).length + (a.mediaIds ?? []).length === 0)
        details.push(`Answer to ${quote(q.text)}: option ${quote(option.label)} requires a photo (media)`);
    }
  }
  return details;
}

/**
 * Every violation of an import at once (media excepted, see media.ts), one message each.
 * A template that is not the organization's is a 404 on its own: nothing else can be checked.
 */
export async function validateImport(db: DbOrTx, organizationId: string, input: ImportInput): Promise<ValidatedImport> {
  const template = await loadTemplateForValidation(db, organizationId, input.templateId);
  if (!template) throw notFound(`Template ${input.templateId} not found`);
  const details: string[] = [];
  if (template.status !== "PUBLISHED") details.push(`Template ${quote(template.title)} is ${template.status}: only PUBLISHED templates can be imported`);

  const [userOk, site, found] = await Promise.all([
    orgRow(db, users, organizationId, input.conductedBy),
    isBlank(input.siteId) ? Promise.resolve(null) : siteProblem(db, organizationId, input.siteId!),
    isBlank(input.assetId) ? Promise.resolve(null) : orgAsset(db, organizationId, input.assetId!),
  ]);
  if (!userOk) details.push(`conductedBy ${quote(input.conductedBy)} is not a user of this organization`);
  if (isBlank(input.siteId) && template.type === "AUDIT") details.push("siteId is required for AUDIT templates");
  if (site) details.push(site);
  if (typeof found === "string") details.push(found);
  const asset = typeof found === "string" ? null : found;

  if (input.status === "IN_PROGRESS" && input.completedAt !== undefined) details.push("completedAt must not be given for an IN_PROGRESS inspection");
  if (input.startedAt !== undefined && input.completedAt !== undefined && Date.parse(input.completedAt) < Date.parse(input.startedAt)) {
    details.push("completedAt is before startedAt");
  }

  details.push(...answerViolations(template, input.answers, input.status));
  details.push(...(await checkActionInputs(db, organizationId, answerActionItems(template, input.answers))));
  return { template, asset, details };
}

/**
 * The logic engine's checks (unknown questions, duplicates, missing values, values that do not
 * fit, hidden questions answered, and for COMPLETED only, IN_PROGRESS being a draft, visible
 * required questions missing), then the options' note and photo requirements.
 */
export function answerViolations(
  template: TemplateForValidation,
  answers: ImportAnswerInput[],
  status: InspectionStatus,
  actionsBefore: ReadonlyMap<string, number> = new Map(),
): string[] {
  const violations = [...validateAnswers(template, answers, { requireRequired: status === "COMPLETED" }), ...optionRequirements(template, answers)];
  // The answer rules' notes, photos and actions are owed by a finished inspection, as its required answers are.
  if (status === "COMPLETED") violations.push(...outcomeOf(template, answers, actionsBefore).missing);
  return violations;
}

/**
 * Score, flags and what the answer rules ask for, of the answers an inspection ends with. An answer's
 * images are its media plus mediaIds; its actions are those it raises plus `actionsBefore` (the
 * question's actions the inspection has already).
 */
export function outcomeOf(
  template: TemplateForValidation,
  answers: ImportAnswerInput[],
  actionsBefore: ReadonlyMap<string, number> = new Map(),
): InspectionOutcome {
  return evaluateInspection(
    template,
    answers.map((a) => ({
      ...a,
      imageCount: (a.media?.length ?? 0) + (a.mediaIds?.length ?? 0),
      actionCount: (a.actions?.length ?? 0) + (actionsBefore.get(a.questionId) ?? 0),
    })),
  );
}

/** The actions raised by the answers, each labelled for messages by its question's text. */
export function answerActionItems(template: TemplateForValidation, answers: ImportAnswerInput[]): { label: string; input: AnswerActionInputType }[] {
  const text = new Map(template.questions.map((q) => [q.id, q.text]));
  return answers.flatMap((a) =>
    (a.actions ?? []).map((input, i) => ({ label: `Answer to ${quote(text.get(a.questionId) ?? a.questionId)}: actions[${i}]`, input })),
  );
}
