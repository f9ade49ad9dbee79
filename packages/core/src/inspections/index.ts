export { listInspections, type InspectionPage, type ListInspectionsQuery } from "./list.ts";
export { getInspectionDetail } from "./detail.ts";
export { decodeImage, sniffImageType, type DecodedImage, type ImageMime } from "./media.ts";
export { FsMediaStore, mediaKey, type MediaStore } from "./media-store.ts";
export { validateImport, type ImportInput, type ImportAnswerInput, type InspectionStatus } from "./validate.ts";
export { prepareImport, VALIDATION_FAILED } from "./prepare.ts";
export { formatInspectionNumber, type ImportPayload } from "./payload.ts";
export { runImport, failImport, classifyImportFailure, PermanentImportError, type ImportRunResult } from "./run.ts";
export { submitImport, awaitImport, importJobId, IDEMPOTENCY_SCOPE, type HttpOutcome, type SubmitServices } from "./submit.ts";
export { requeueStalledImports } from "./sweep.ts";
export { idempotencyKeyOf, hashJson } from "./idempotency.ts";

import type { DbOrTx } from "@insp/db";
import { deleteExpiredKeys } from "./idempotency.ts";
import { IDEMPOTENCY_SCOPE } from "./submit.ts";
/** Housekeeping: import Idempotency-Keys past their 24 hours. */
export const expireImportIdempotencyKeys = (db: DbOrTx) => deleteExpiredKeys(db, IDEMPOTENCY_SCOPE);
