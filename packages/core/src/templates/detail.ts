import type { DbOrTx } from "@insp/db";
import type { LogicOption, LogicQuestion, LogicRule, LogicTemplate } from "@insp/logic";
import { notFound } from "../errors.ts";
import { assertTemplateAccess, loadTemplateRows, toListItem, type TemplateRows } from "./read.ts";
import { GROUP_CONDITION, storedCondition } from "./plan.ts";
import type {
  RuleCondition,
  QuestionRef,
  TemplateDetail,
  TemplateQuestion,
  TemplateStatus,
  TemplateTriggerRule,
  TemplateType,
  VersionStatus,
} from "./types.ts";

/** The spec's detail shape from the rows of one template (pure). */
export function toDetail(rows: TemplateRows): TemplateDetail {
  const { template, sections, questions, options, rules } = rows;
  const ref = new Map<string, QuestionRef>(questions.map((q) => [q.id, { id: q.id, text: q.text, position: q.position }]));
  const optionsOf = groupBy(options, (o) => o.questionId);
  const rulesFrom = groupBy(rules, (r) => r.sourceQuestionId);
  // Only ask_questions rules show a question; the answer rules (require_note, ...) are listed under their source.
  const rulesTo = groupBy(
    rules.filter((r) => r.actionType === "ask_questions"),
    (r) => r.targetQuestionId,
  );
  // A group is shown as it was saved; a leaf as the spec shows it, {type, value}.
  const condition = (r: (typeof rules)[number]): RuleCondition =>
    r.conditionType === GROUP_CONDITION ? (r.conditionValue as RuleCondition) : { type: r.conditionType, value: r.conditionValue ?? null };

  const question = (q: (typeof questions)[number]): TemplateQuestion => {
    const triggerRules: TemplateTriggerRule[] = (rulesTo.get(q.id) ?? []).map((r) => ({
      id: r.id,
      order: r.order,
      condition: condition(r),
      questionId: r.sourceQuestionId,
      question: ref.get(r.sourceQuestionId)!,
    }));
    return {
      id: q.id,
      key: q.key,
      text: q.text,
      hint: q.hint,
      required: q.required,
      position: q.position,
      responseType: q.responseTypeId
        ? { id: q.responseTypeId, name: q.responseTypeName!, inputType: q.responseTypeInputType!, uiLabel: q.responseTypeUiLabel }
        : null,
      options: (optionsOf.get(q.id) ?? []).map((o) => ({
        id: o.id,
        label: o.label,
        value: o.value,
        position: o.position,
        requiresNote: o.requiresNote,
        requiresPhoto: o.requiresPhoto,
        ...optionScore(o),
        flagged: o.flagged,
      })),
      logicRules: (rulesFrom.get(q.id) ?? []).map((r) => ({
        id: r.id,
        order: r.order,
        condition: condition(r),
        actionType: r.actionType,
        triggeredQuestionId: r.targetQuestionId,
        triggeredQuestion: ref.get(r.targetQuestionId)!,
      })),
      triggerRule: triggerRules[0] ?? null,
      triggerRules,
    };
  };

  const bySection = groupBy(questions, (q) => q.sectionId ?? "");
  return {
    ...toListItem(template),
    versionStatus: template.versionStatus as VersionStatus,
    currentVersion: template.currentVersion,
    description: template.description,
    sections: sections.map((s) => ({
      id: s.id,
      title: s.title,
      description: s.description,
      position: s.position,
      questions: (bySection.get(s.id) ?? []).map(question),
    })),
    standaloneQuestions: (bySection.get("") ?? []).map(question),
  };
}

/**
 * GET /api/templates/{id}[?version=n]: 404 unknown or malformed id, 403 another organization's
 * template, 404 naming the version when the template has no such version.
 */
export async function getTemplateDetail(db: DbOrTx, organizationId: string, templateId: string, version?: number): Promise<TemplateDetail> {
  // Past Postgres's integer no version can exist (and the query would fail on it).
  const rows = version !== undefined && version > 2_147_483_647 ? null : await loadTemplateRows(db, organizationId, templateId, version);
  if (!rows) {
    await assertTemplateAccess(db, organizationId, templateId);
    if (version !== undefined && (await loadTemplateRows(db, organizationId, templateId))) throw notFound(`Template version ${version} not found`);
    throw notFound("Template not found");
  }
  return toDetail(rows);
}

interface ValidationOption extends LogicOption {
  requiresNote: boolean;
  requiresPhoto: boolean;
}

/** An option's score as the API shows it and the engine reads it: a number, null (not applicable), or absent (no score). */
function optionScore(o: { score: number | null; scoreNotApplicable: boolean }): { score?: number | null } {
  return o.scoreNotApplicable ? { score: null } : o.score !== null ? { score: o.score } : {};
}

interface ValidationQuestion extends LogicQuestion {
  options: ValidationOption[];
}

/**
 * A template as the logic engine reads it (it is a LogicTemplate as is), with the option
 * flags (requiresNote / requiresPhoto) and the fields inspection import checks.
 */
export interface TemplateForValidation extends LogicTemplate {
  id: string;
  organizationId: string;
  title: string;
  status: TemplateStatus;
  type: TemplateType;
  version: number;
  questions: ValidationQuestion[];
  rules: LogicRule[];
}

/** Pure: the rows of one template as a TemplateForValidation. Questions come in display order (sections, then standalone). */
function toValidationTemplate(rows: TemplateRows): TemplateForValidation {
  const { template, sections, questions, options, rules } = rows;
  const sectionOrder = new Map(sections.map((s, i) => [s.id, i]));
  const rank = (sectionId: string | null) => (sectionId === null ? sections.length : (sectionOrder.get(sectionId) ?? sections.length));
  const ordered = [...questions].sort((a, b) => rank(a.sectionId) - rank(b.sectionId) || a.position - b.position || a.id.localeCompare(b.id));
  const optionsOf = groupBy(options, (o) => o.questionId);
  return {
    id: template.id,
    organizationId: template.organizationId,
    title: template.title,
    status: template.status as TemplateStatus,
    type: template.type as TemplateType,
    version: template.version,
    questions: ordered.map((q) => ({
      id: q.id,
      key: q.key,
      text: q.text,
      inputType: q.inputType,
      required: q.required,
      options: (optionsOf.get(q.id) ?? []).map((o) => ({
        id: o.id,
        value: o.value,
        label: o.label,
        requiresNote: o.requiresNote,
        requiresPhoto: o.requiresPhoto,
        ...optionScore(o),
        flagged: o.flagged,
      })),
    })),
    rules: rules.map((r) => ({
      id: r.id,
      sourceQuestionId: r.sourceQuestionId,
      targetQuestionId: r.targetQuestionId,
      condition: storedCondition(r.conditionType, r.conditionValue),
      actionType: r.actionType,
    })),
  };
}

/**
 * For inspection import (the current version) and PATCH (the inspection's own version): the
 * template of this organization as the logic engine's LogicTemplate, plus option flags, status,
 * type and version; null when it is not a template (or version) of the organization.
 */
export async function loadTemplateForValidation(
  db: DbOrTx,
  organizationId: string,
  templateId: string,
  version?: number,
): Promise<TemplateForValidation | null> {
  const rows = await loadTemplateRows(db, organizationId, templateId, version);
  return rows ? toValidationTemplate(rows) : null;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}
