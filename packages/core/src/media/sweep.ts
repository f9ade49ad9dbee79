import type { Db } from "@insp/db";
import type { MediaStore } from "./store.ts";

export interface SweptMedia {
  /** Media rows deleted (their bytes go with them). */
  deleted: number;
  /** Bytes deleted from the store (this run's rows, and earlier runs' that had failed). */
  bytesDeleted: number;
}

/** Rows deleted per statement: one short transaction each. */
const BATCH = 500;

/**
 * Deletes media that nothing references and nothing has used for `graceSeconds`: no answer of
 * any revision links them (answer_media), no pending import names them, and no upload or
 * request touched them since (media.last_used_at). Rows go first, in one statement per batch
 * that skips rows locked by a request referencing them right now and records their keys in
 * media_trash; the bytes go after the commit, and their trash rows with them. Keys belong to rows
 * (store.ts), so bytes uploaded again meanwhile sit under a new row's key and are never the ones
 * deleted. A store that fails (or a process that dies) leaves trash rows the next run finishes.
 */
export async function sweepOrphanMedia(db: Db, store: MediaStore, graceSeconds: number): Promise<SweptMedia> {
  const sql = db.$client;
  let deleted = 0;
  let bytesDeleted = await emptyTrash(db, store);
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
      ), gone as (
        delete from media m using doomed d where m.id = d.id
        returning m.organization_id, m.storage_key
      )
      insert into media_trash (organization_id, storage_key) select organization_id, storage_key from gone
      on conflict do nothing
      returning storage_key`;
    deleted += rows.length;
    if (rows.length)
      bytesDeleted += await deleteBytes(
        db,
        store,
        rows.map((r) => r.storage_key),
      );
    if (rows.length < BATCH) return { deleted, bytesDeleted };
  }
}

/** Trash left by earlier runs (a store failure, a crash between the two steps). */
async function emptyTrash(db: Db, store: MediaStore): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await db.$client<{ storage_key: string }[]>`select storage_key from media_trash order by created_at limit ${BATCH}`;
    if (!rows.length) return n;
    n += await deleteBytes(
      db,
      store,
      rows.map((r) => r.storage_key),
    );
    if (rows.length < BATCH) return n;
  }
}

async function deleteBytes(db: Db, store: MediaStore, keys: string[]): Promise<number> {
  await store.delete(keys);
  await db.$client`delete from media_trash where storage_key = any(${keys}::text[])`;
  return keys.length;
}
