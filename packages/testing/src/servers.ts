import { provideServers, type EmbedMode, type ProvidedServers } from "@insp/local-servers";
import { freePort } from "./processes.ts";

/**
 * Postgres and Redis for tests: settings, else the given default addresses when they answer,
 * else throwaway embedded servers in `dataDir` on free ports (no fsync), as `npm start` would run them.
 */
export async function testServers(
  dataDir: string,
  opts: { databaseUrl?: string; redisUrl?: string; defaultDatabaseUrl?: string; defaultRedisUrl?: string; mode?: EmbedMode; log?: (line: string) => void } = {},
): Promise<ProvidedServers> {
  return provideServers({
    databaseUrl: opts.databaseUrl,
    redisUrl: opts.redisUrl,
    redisCluster: false,
    defaultDatabaseUrl: opts.defaultDatabaseUrl ?? "postgres://postgres@127.0.0.1:5432/postgres",
    defaultRedisUrl: opts.defaultRedisUrl ?? "redis://127.0.0.1:6379",
    mode: opts.mode ?? "auto",
    dataDir,
    postgresPort: await freePort(),
    redisPort: await freePort(),
    durable: false,
    database: "postgres",
    whenInUse: "refuse",
    who: "npm test",
    log: opts.log ?? (() => {}),
  });
}
