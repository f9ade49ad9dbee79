import { count, eq } from "drizzle-orm";
import type { Tx } from "@insp/db";
import { templateVersions } from "@insp/db/schema";
import { assertRoom } from "../quota.ts";

/**
 * 409 when the organization has `max` template versions (TEMPLATE_VERSIONS_MAX_PER_ORG; every
 * version of every template, archived ones too; undefined: not limited). Templates are never
 * deleted, so only the operator makes room.
 */
export const assertVersionRoom = (tx: Tx, organizationId: string, max: number | undefined) =>
  assertRoom(tx, organizationId, {
    key: "template-versions",
    count: tx.select({ n: count() }).from(templateVersions).where(eq(templateVersions.organizationId, organizationId)),
    max,
    what: "template versions",
    setting: "TEMPLATE_VERSIONS_MAX_PER_ORG",
    room: "templates are kept for their inspections and cannot be deleted, so ask the operator to raise the setting",
  });
