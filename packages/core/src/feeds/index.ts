export { readFeed, loadResources } from "./feed.ts";
export { decodeCursor, encodeCursor } from "./cursor.ts";
