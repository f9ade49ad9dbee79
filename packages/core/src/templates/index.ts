export type { CreateTemplateInput, TemplateDetail, TemplateQuestion } from "./types.ts";
export { listTemplates } from "./read.ts";
export { getTemplateDetail, loadTemplateForValidation, type TemplateForValidation } from "./detail.ts";
export { createTemplate } from "./create.ts";
export { createTemplateVersion, listTemplateVersions } from "./versions.ts";
export { changeTemplateStatus, type TemplateAction } from "./status.ts";
