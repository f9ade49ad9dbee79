export type {
  CreateTemplateInput,
  QuestionInput,
  QuestionRef,
  TemplateDetail,
  TemplateListItem,
  TemplateLogicRule,
  TemplateQuestion,
  TemplateSection,
  TemplateTriggerRule,
  TemplateVersionSummary,
} from "./types.ts";
export { listTemplates, assertTemplateAccess, loadTemplateRows, type TemplateRows } from "./read.ts";
export {
  getTemplateDetail,
  loadTemplateForValidation,
  toDetail,
  toValidationTemplate,
  type TemplateForValidation,
  type ValidationOption,
  type ValidationQuestion,
} from "./detail.ts";
export { createTemplate, type CreateTemplateResult } from "./create.ts";
export { createTemplateVersion, listTemplateVersions } from "./versions.ts";
export { changeTemplateStatus, type TemplateAction } from "./status.ts";
export {
  planTemplate,
  remapOptionIds,
  createdMessage,
  MAX_TEMPLATE_OPTIONS,
  SUPPORTED_ACTION_TYPES,
  type KeptIds,
  type ResponseTypeInfo,
  type TemplatePlan,
} from "./plan.ts";
