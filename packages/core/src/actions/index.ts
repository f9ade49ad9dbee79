export { ACTION_INVALID, type ActionPriority, type ActionStatus, type ActionView } from "./types.ts";
export { actionFingerprint, actionsByIds, actionsOfInspection, getAction } from "./read.ts";
export { listActions, type ActionPage, type ListActionsQuery } from "./list.ts";
export { checkActionInputs, createAction, insertInspectionActions, type CreateActionInput } from "./create.ts";
export { patchAction, type ActionEditor, type PatchActionInput, type PatchActionOutcome } from "./patch.ts";
export { announceOverdueActions } from "./sweep.ts";
export type { AnswerActionInputType } from "@insp/contracts";
