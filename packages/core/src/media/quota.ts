import { sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { AppError } from "../errors.ts";

const mb = (bytes: number) => `${(Math.round((bytes / 1024 / 1024) * 10) / 10).toLocaleString("en-US")} MB`;

/** The bytes of the organization's media rows, summed from media_org_size_idx alone. */
async function storedMediaBytes(db: DbOrTx, organizationId: string): Promise<number> {
  const [row] = await db.execute<{ bytes: string }>(
    sql`select coalesce(sum(byte_size), 0)::text as bytes from media where organization_id = ${organizationId}`,
  );
  return Number(row?.bytes ?? 0);
}

/**
 * MEDIA_MAX_STORED_MB_PER_ORG: 413 when `adding` bytes of new images would take the
 * organization's stored media past `maxBytes` (unset: no limit), before any of them is stored.
 * The sum is read, not reserved: requests at the same moment may each pass it by their own
 * images (at most MEDIA_MAX_IMAGE_MB per image), never by more.
 */
export async function assertMediaRoom(db: DbOrTx, organizationId: string, adding: number, maxBytes: number | undefined): Promise<void> {
  if (maxBytes === undefined || adding <= 0) return;
  const stored = await storedMediaBytes(db, organizationId);
  if (stored + adding <= maxBytes) return;
  throw new AppError(
    "too_large",
    `Storing these images would take this organization's media to ${mb(stored + adding)}, over its limit of ${mb(maxBytes)} (MEDIA_MAX_STORED_MB_PER_ORG); nothing was stored`,
  );
}
