export { MAX_RESULTS, BULK_MAX_PAYLOAD, ScimError, asScimError, errorBody, etagMatches } from "./protocol.ts";
export { getScimUser, listScimUsers, type Page, type ScimContext } from "./users.ts";
export { createScimUser, deleteScimUser, patchScimUser, replaceScimUser } from "./user-writes.ts";
export { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup, withoutMembers } from "./groups.ts";
export { runBulk, type BulkResult } from "./bulk.ts";
export { resourceTypes, schemas, serviceProviderConfig } from "./discovery.ts";
