export { type ActionView } from "./types.ts";
export { actionFingerprint, actionsOfInspection, getAction } from "./read.ts";
export { listActions } from "./list.ts";
export { checkActionInputs, createAction, insertInspectionActions } from "./create.ts";
export { patchAction } from "./patch.ts";
export { announceOverdueActions } from "./sweep.ts";
export type { AnswerActionInputType } from "@insp/contracts";
