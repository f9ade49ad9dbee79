import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { media } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";

export interface MediaInfo {
  id: string;
  sha256: string;
  mimeType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  storageKey: string;
}

/** One image of the organization; unknown, malformed or another organization's id: 404. */
export async function getMediaInfo(db: DbOrTx, organizationId: string, id: string): Promise<MediaInfo> {
  if (!isUuid(id)) throw notFound(`Media ${id} not found`);
  const [row] = await db
    .select({
      id: media.id,
      sha256: media.sha256,
      mimeType: media.mimeType,
      byteSize: media.byteSize,
      width: media.width,
      height: media.height,
      storageKey: media.storageKey,
    })
    .from(media)
    .where(and(eq(media.id, id), eq(media.organizationId, organizationId)));
  if (!row) throw notFound(`Media ${id} not found`);
  return row;
}
