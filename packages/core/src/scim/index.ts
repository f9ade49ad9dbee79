export { MAX_RESULTS, BULK_MAX_PAYLOAD, ScimError, asScimError, errorBody } from "./protocol.ts";
export { getScimUser, listScimUsers, type Page, type ScimContext } from "./users.ts";
export { createScimUser, deleteScimUser, patchScimUser, replaceScimUser } from "./user-writes.ts";
export { getScimGroup, listScimGroups } from "./groups.ts";
export { createScimGroup, deleteScimGroup, patchScimGroup, replaceScimGroup } from "./group-writes.ts";
export { runBulk } from "./bulk.ts";
export { resourceTypes, schemas, serviceProviderConfig } from "./discovery.ts";
