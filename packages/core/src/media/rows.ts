import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { media } from "@insp/db/schema";
import { isUuid } from "../errors.ts";
import { mediaStorageKey } from "./store.ts";

/** What an image's media row records (its bytes go to the store under the row's storageKey). */
export interface ImageMeta {
  sha256: string;
  mime: string;
  width: number;
  height: number;
  byteSize: number;
}

export interface MediaRow {
  id: string;
  storageKey: string;
}

/**
 * The organization's media row for each image, made when new (deduplicated by content hash per
 * organization), its lastUsedAt set to now either way, so the orphan sweep leaves it alone for
 * its grace period. Returns sha256 -> row; write the bytes to the row's storageKey after this.
 */
export async function upsertMedia(db: DbOrTx, organizationId: string, images: ImageMeta[]): Promise<Map<string, MediaRow>> {
  const rows = new Map<string, MediaRow>();
  const unique = [...new Map(images.map((m) => [m.sha256, m])).values()];
  // Batched under Postgres' 65,535 parameters per statement.
  for (let i = 0; i < unique.length; i += 1000) {
    const values = unique.slice(i, i + 1000).map((m) => {
      const id = randomUUID();
      return {
        id,
        organizationId,
        sha256: m.sha256,
        mimeType: m.mime,
        width: m.width,
        height: m.height,
        byteSize: m.byteSize,
        storageKey: mediaStorageKey(organizationId, id),
      };
    });
    const written = await db
      .insert(media)
      .values(values)
      .onConflictDoUpdate({ target: [media.organizationId, media.sha256], set: { lastUsedAt: sql`now()` } })
      .returning({ id: media.id, sha256: media.sha256, storageKey: media.storageKey });
    for (const r of written) rows.set(r.sha256, { id: r.id, storageKey: r.storageKey });
  }
  return rows;
}

/** Whether the organization already stores these bytes (media_org_sha256_key). */
export async function mediaExists(db: DbOrTx, organizationId: string, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.sha256, sha256)));
  return row !== undefined;
}

/**
 * Marks the organization's media among `ids` as used now and answers which exist (malformed
 * ids are simply not). Run it in the transaction that references them: its row locks keep the
 * orphan sweep from deleting them until that transaction ends (the sweep skips locked rows, and
 * then finds them referenced or recently used).
 */
export async function touchMedia(db: DbOrTx, organizationId: string, ids: string[]): Promise<Set<string>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (!valid.length) return new Set();
  const rows = await db
    .update(media)
    .set({ lastUsedAt: sql`now()` })
    // One array parameter, however many ids (an IN list takes one parameter each).
    .where(and(eq(media.organizationId, organizationId), sql`${media.id} = any(${sql.param(valid)}::uuid[])`))
    .returning({ id: media.id });
  return new Set(rows.map((r) => r.id));
}
