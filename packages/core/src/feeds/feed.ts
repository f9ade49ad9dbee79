import { CHANGE_HORIZON, isoText, type Db } from "@insp/db";
import { actionsByIds } from "../actions/read.ts";
import { apiKeysByIds, oauthClientsByIds } from "../credentials/index.ts";
import type { Change, ResourceType } from "../changes/index.ts";
import { groupsByIds } from "../directory/groups.ts";
import { rolesByIds } from "../directory/roles.ts";
import { responseTypesByIds } from "../directory/response-types.ts";
import { assetTypesByIds } from "../directory/asset-types.ts";
import { sitesByIds } from "../directory/sites.ts";
import { assetsByIds } from "../directory/assets.ts";
import { occurrencesByIds } from "../schedules/occurrences.ts";
import { schedulesByIds } from "../schedules/schedules.ts";
import { employeesByIds } from "../employees/read.ts";
import { syncRequestSummaries } from "../employees/requests.ts";
import { selectSummaries, toSummary } from "../inspections/summary.ts";
import { templatesByIds } from "../templates/read.ts";
import { usersByIds } from "../users/index.ts";
import { decodeCursor, encodeCursor, type FeedPosition } from "./cursor.ts";

interface FeedItem<R> {
  change: Change;
  at: string;
  id: string;
  /** The resource as it is now (the shape its own endpoints answer); null if it is gone. */
  resource: R | null;
}

export interface FeedPage<R> {
  items: FeedItem<R>[];
  nextCursor: string;
  hasMore: boolean;
}

type Loader = (db: Db, organizationId: string, ids: string[]) => Promise<{ id: string }[]>;

const loaders: Record<ResourceType, Loader> = {
  template: templatesByIds,
  inspection: async (db, organizationId, ids) => (await selectSummaries(db.$client, organizationId, ids)).map(toSummary),
  employee: employeesByIds,
  sync_request: syncRequestSummaries,
  action: actionsByIds,
  api_key: apiKeysByIds,
  oauth_client: oauthClientsByIds,
  user: usersByIds,
  site: sitesByIds,
  group: groupsByIds,
  role: rolesByIds,
  response_type: responseTypesByIds,
  asset_type: assetTypesByIds,
  asset: assetsByIds,
  schedule: schedulesByIds,
  occurrence: occurrencesByIds,
};

/** The resources as they are now, by id, in the shape their own endpoints answer (feeds and webhook bodies). */
export async function loadResources(db: Db, organizationId: string, resourceType: ResourceType, ids: string[]): Promise<Map<string, unknown>> {
  return new Map((await loaders[resourceType](db, organizationId, [...new Set(ids)])).map((r) => [r.id, r]));
}

const START: FeedPosition = { xid: "0", seq: "0" };

/**
 * One page of an organization's changes of one resource type, after `cursor`, in the order of
 * (transaction id, seq). Only changes whose transaction ended before every transaction still
 * running began are read (`xid < CHANGE_HORIZON`, packages/db): those rows are final,
 * and any row added later has a greater transaction id, so it sorts after every cursor given out
 * before it. A crawler that follows nextCursor therefore sees every change exactly once, even when
 * a transaction that began earlier commits later. The price: a change appears only once every
 * transaction older than it has ended (normally milliseconds; a long transaction in this database
 * holds the feeds back until it ends, one in another database of the server does not).
 */
export async function readFeed<R extends { id: string }>(
  db: Db,
  organizationId: string,
  resourceType: ResourceType,
  q: { cursor?: string; limit: number },
): Promise<FeedPage<R>> {
  const from = decodeCursor(q.cursor) ?? START;
  const sql = db.$client;
  // Ordered by the columns, not by the text aliases of the same names: as text, transaction 1000
  // sorts before 999, and a page would jump past every change between them.
  const rows = await sql<{ seq: string; xid: string; id: string; change: Change; at: string }[]>`
    select seq::text as seq, xid::text as xid, resource_id as id, change, ${sql.unsafe(isoText("created_at"))} as at
    from change_events
    where organization_id = ${organizationId} and resource_type = ${resourceType}
      and (xid, seq) > (${from.xid}::xid8, ${from.seq}::bigint)
      and xid < ${sql.unsafe(CHANGE_HORIZON)}
    order by change_events.xid, change_events.seq
    limit ${q.limit + 1}`;
  const page = rows.slice(0, q.limit);
  const resources = (await loadResources(
    db,
    organizationId,
    resourceType,
    page.map((r) => r.id),
  )) as Map<string, R>;
  const last = page.at(-1);
  return {
    items: page.map((r) => ({ change: r.change, at: r.at, id: r.id, resource: resources.get(r.id) ?? null })),
    nextCursor: encodeCursor(last ? { xid: last.xid, seq: last.seq } : from),
    hasMore: rows.length > q.limit,
  };
}
