export { recordChange, type Change, type ResourceType } from "./record.ts";
