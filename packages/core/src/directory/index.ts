export { createSite, deleteSite, getSite, listSites, patchSite } from "./sites.ts";
export { createGroup, deleteGroup, getGroup, listGroups, patchGroup } from "./groups.ts";
export { addGroupMember, listGroupMembers, removeGroupMember } from "./members.ts";
export { createRole, deleteRole, getRole, listRoles, patchRole } from "./roles.ts";
export { createResponseType, deleteResponseType, getResponseType, listResponseTypes, patchResponseType } from "./response-types.ts";
export { createAssetType, deleteAssetType, getAssetType, listAssetTypes, patchAssetType } from "./asset-types.ts";
export { createAsset, deleteAsset, getAsset, listAssetInspections, listAssets, patchAsset } from "./assets.ts";
