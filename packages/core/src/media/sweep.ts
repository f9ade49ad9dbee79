import type { Db } from "@insp/db";
import type { MediaStore } from "./store.ts";

export interface SweptMedia {
  /** Media rows deleted (and their bytes). */
  deleted: number;
}

/** Rows deleted per statement: one short transaction each. */
const BATCH = 500;

/**
 * Deletes media that nothing references and nothing has used for `graceSeconds`: no answer of
 * any revision links them (answer_media), no pending import names them, and no upload or
 * request touched them since (media.last_used_at). Rows go first, in one statement per batch
 * that skips rows locked by a request referencing them right now; the bytes go after the commit.
 * Keys belong to rows (store.ts), so bytes uploaded again meanwhile sit under a new row's key
 * and are never the ones deleted. A crash between the commit and the delete leaves bytes that
 * no row names; they cost space, never correctness.
 */
export async function sweepOrphanMedia(db: Db, store: MediaStore, graceSeconds: number): Promise<SweptMedia> {
  const sql = db.$client;
  let deleted = 0;
  for (;;) {
    const rows = await sql<{ storage_key: string }[]>`
      with doomed as (
        select m.id from media m
        where m.last_used_at < now() - make_interval(secs => ${graceSeconds})
          and not exists (select 1 from answer_media am where am.media_id = m.id)
          and not exists (
            select 1 from inspection_imports i, jsonb_array_elements(i.payload->'answers') a
            where i.status = 'PENDING' and i.organization_id = m.organization_id and a->'mediaIds' ? m.id::text)
        order by m.last_used_at
        limit ${BATCH}
        for update of m skip locked
      )
      delete from media m using doomed d where m.id = d.id
      returning m.storage_key`;
    if (rows.length) await store.delete(rows.map((r) => r.storage_key));
    deleted += rows.length;
    if (rows.length < BATCH) return { deleted };
  }
}
