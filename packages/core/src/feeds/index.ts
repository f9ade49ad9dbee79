export { readFeed, loadResources, FEED_MAX_LIMIT, type FeedItem, type FeedPage } from "./feed.ts";
export { decodeCursor, encodeCursor, type FeedPosition } from "./cursor.ts";
