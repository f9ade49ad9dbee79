import type { DbOrTx, Db, Tx } from "@insp/db";
import { inspectionImports } from "@insp/db/schema";
import { AppError } from "../errors.ts";
import { assertMediaRoom, decodeImage, decodedSizeOf, touchMedia, upsertMedia, type MediaServices } from "../media/index.ts";
import type { ImportPayload } from "./payload.ts";
import { answerValues, locationValues } from "./plan.ts";
import { outcomeOf, validateImport, type ImportAnswerInput, type ImportInput } from "./validate.ts";
import type { AuditContext } from "../audit/index.ts";
import { occurrenceViolations } from "../schedules/index.ts";

export interface PrepareServices extends MediaServices {
  db: Db;
}

export const VALIDATION_FAILED = "Inspection validation failed";

/**
 * The images of the answers: each base64 item decoded once (decode, sniff, measure, hash, record
 * its media row, store its bytes, drop, then the next one), each mediaIds entry checked. Problems
 * go to `details`; images are stored only while there are none, so a rejected request normally
 * leaves nothing behind (an image stored before a later one failed becomes an orphan, deleted by
 * the sweep after its grace period). Returns each answer's media ids, in order.
 */
export async function storeAnswerImages(
  svc: MediaServices,
  organizationId: string,
  answers: ImportAnswerInput[],
  questionText: ReadonlyMap<string, string>,
  details: string[],
): Promise<string[][]> {
  const label = (a: ImportAnswerInput) => `Answer to '${questionText.get(a.questionId) ?? a.questionId}'`;
  // Before any image is stored: counted as sent (an image the organization already has counts too).
  if (!details.length)
    await assertMediaRoom(
      svc.db,
      organizationId,
      answers.flatMap((a) => a.media ?? []).reduce((n, item) => n + decodedSizeOf(item), 0),
      svc.maxStoredBytes,
    );
  const ids: string[][] = [];
  for (const a of answers) {
    const list: string[] = [];
    ids.push(list);
    const items = a.media ?? [];
    for (let j = 0; j < items.length; j++) {
      const r = decodeImage(items[j]!, svc.maxImageBytes);
      if (!r.ok) {
        details.push(`${label(a)}: media #${j + 1} ${r.problem}`);
        continue;
      }
      if (details.length) continue;
      const { bytes, ...meta } = r.image;
      const row = (await upsertMedia(svc.db, organizationId, [{ ...meta, byteSize: bytes.byteLength }])).get(meta.sha256)!;
      await svc.store.put(row.storageKey, bytes);
      list.push(row.id);
    }
  }
  const referenced = await touchMedia(
    svc.db,
    organizationId,
    answers.flatMap((a) => a.mediaIds ?? []),
  );
  answers.forEach((a, i) => {
    for (const id of a.mediaIds ?? []) {
      if (referenced.has(id)) ids[i]!.push(id);
      else details.push(`${label(a)}: mediaId '${id}' not found (upload it with POST /api/media)`);
    }
  });
  return ids;
}

/**
 * In the transaction that records a reference to them: marks the media used (their row locks
 * hold off the orphan sweep until commit) and refuses ids that are gone since they were checked.
 */
export async function holdMedia(tx: DbOrTx, organizationId: string, ids: string[]): Promise<void> {
  const held = await touchMedia(tx, organizationId, ids);
  const gone = [...new Set(ids)].filter((id) => !held.has(id));
  if (gone.length)
    throw new AppError(
      "invalid",
      VALIDATION_FAILED,
      gone.map((id) => `mediaId '${id}' not found (it was unused past the grace period and deleted; upload it again)`),
    );
}

/**
 * The API half of an import: validates everything (all violations in one 400), stores the images
 * (storeAnswerImages) and writes the import request for the worker. Returns the import id.
 */
export async function prepareImport(
  svc: PrepareServices,
  organizationId: string,
  input: ImportInput,
  audit: AuditContext,
  recorded?: (tx: Tx, importId: string) => Promise<void>,
): Promise<string> {
  const { template, asset, details } = await validateImport(svc.db, organizationId, input);
  const questionText = new Map(template.questions.map((q) => [q.id, q.text]));
  if (input.occurrenceId !== undefined) details.push(...(await occurrenceViolations(svc.db, organizationId, input.occurrenceId, input)));
  const mediaIds = await storeAnswerImages(svc, organizationId, input.answers, questionText, details);
  if (details.length) throw new AppError("invalid", VALIDATION_FAILED, details);

  const now = new Date().toISOString();
  const completedAt = input.completedAt ?? (input.status === "COMPLETED" ? now : null);
  const outcome = outcomeOf(template, input.answers);
  const payload: ImportPayload = {
    v: 1,
    templateId: template.id,
    templateVersion: template.version,
    conductedBy: input.conductedBy,
    siteId: input.siteId || null,
    assetId: input.assetId || null,
    // The asset's own name when the client gives none.
    assetName: input.assetName ?? asset?.name ?? null,
    status: input.status,
    startedAt: input.startedAt ?? completedAt ?? now,
    completedAt,
    answers: input.answers.map((a, i) => ({
      ...answerValues(a),
      mediaIds: mediaIds[i]!,
      flagged: outcome.flagged.has(a.questionId),
      ...(a.actions?.length ? { actions: a.actions } : {}),
    })),
    score: outcome.score,
    maxScore: outcome.maxScore,
    scorePercentage: outcome.scorePercentage,
    flaggedCount: outcome.flagged.size,
    location: locationValues(input.location),
    ...(input.occurrenceId !== undefined ? { occurrenceId: input.occurrenceId } : {}),
  };
  return svc.db.transaction(async (tx) => {
    await holdMedia(tx, organizationId, mediaIds.flat());
    const [row] = await tx.insert(inspectionImports).values({ organizationId, payload, audit }).returning({ id: inspectionImports.id });
    // What else must commit with the import, or not at all (the Idempotency-Key's progress).
    await recorded?.(tx, row!.id);
    return row!.id;
  });
}
