import { badRequest } from "../errors.ts";

/** A feed position: the (xid, seq) of the last change read. Opaque to clients (base64url). */
export interface FeedPosition {
  xid: string;
  seq: string;
}

const DIGITS = /^\d{1,20}$/;

export function encodeCursor(p: FeedPosition): string {
  return Buffer.from(`${p.xid}.${p.seq}`).toString("base64url");
}

/** null for no cursor (from the beginning); a 400 for anything that is not a cursor this service gave. */
export function decodeCursor(cursor: string | undefined): FeedPosition | null {
  if (cursor === undefined || cursor === "") return null;
  const [xid, seq, ...rest] = Buffer.from(cursor, "base64url").toString("latin1").split(".");
  if (rest.length || !xid || !seq || !DIGITS.test(xid) || !DIGITS.test(seq) || BigInt(xid) > 2n ** 64n - 1n || BigInt(seq) > 2n ** 63n - 1n) {
    throw badRequest("cursor is not a cursor this feed returned");
  }
  return { xid, seq };
}
