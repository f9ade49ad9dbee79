import type { AnswerActionInputType } from "../actions/index.ts";
import type { InspectionStatus } from "./validate.ts";

/**
 * What the API stores in inspection_imports.payload for the worker: the validated import with
 * timestamps resolved and images replaced by media ids (never base64).
 */
export interface ImportPayload {
  v: 1;
  templateId: string;
  templateVersion: number;
  conductedBy: string;
  siteId: string | null;
  assetId: string | null;
  assetName: string | null;
  status: InspectionStatus;
  startedAt: string;
  completedAt: string | null;
  answers: PayloadAnswer[];
  /** Computed at validation (absent in imports queued before scores existed: 0 / 0 / null / 0). */
  score?: number;
  maxScore?: number;
  scorePercentage?: number | null;
  flaggedCount?: number;
  location?: { latitude: number; longitude: number; accuracyMeters: number | null } | null;
  /** The occurrence of a schedule it does: started or completed with the inspection. */
  occurrenceId?: string;
}

interface PayloadAnswer {
  questionId: string;
  answerText: string | null;
  answerNumber: number | null;
  answerBoolean: boolean | null;
  answerDate: string | null;
  answerJson: unknown;
  responseOptionId: string | null;
  templateOptionId: string | null;
  unitId: string | null;
  unitCategory: string | null;
  note: string | null;
  mediaIds: string[];
  flagged?: boolean;
  /** Corrective actions it raises, created with the inspection. */
  actions?: AnswerActionInputType[];
}

export function isImportPayload(p: unknown): p is ImportPayload {
  return typeof p === "object" && p !== null && (p as { v?: unknown }).v === 1 && Array.isArray((p as { answers?: unknown }).answers);
}

/** Human-readable number, unique per organization: "INS-" and the counter, zero-padded to six digits (more when it grows). */
export const formatInspectionNumber = (n: number) => `INS-${String(n).padStart(6, "0")}`;
