import path from "node:path";
import { provideServers, type ProvidedServers } from "@insp/local-servers";
import { loadEnv } from "@insp/config";
import { adminEnvShape, isSet, loadAdminEnv, type AdminEnv } from "./env.ts";

/**
 * The environment of `npm start` and the admin CLI with DATABASE_URL and REDIS_URL resolved:
 * settings first, then the default local addresses when something answers there, then embedded
 * servers (docs/local-development.md). `whenInUse`: a second `npm start` is refused; an admin
 * command shares the embedded servers a running `npm start` has.
 */
export async function withServers(
  who: string,
  whenInUse: "share" | "refuse",
  log: (line: string) => void,
  needsRedis = true,
): Promise<{ env: AdminEnv; servers: ProvidedServers }> {
  const env = loadAdminEnv();
  const defaults = loadEnv(adminEnvShape, {});
  const set = (name: "DATABASE_URL" | "REDIS_URL") => isSet(name);
  const servers = await provideServers({
    databaseUrl: set("DATABASE_URL") ? env.DATABASE_URL : undefined,
    redisUrl: set("REDIS_URL") ? env.REDIS_URL : undefined,
    redisCluster: Boolean(env.REDIS_CLUSTER_NODES?.length),
    defaultDatabaseUrl: defaults.DATABASE_URL,
    defaultRedisUrl: defaults.REDIS_URL,
    // Embedded servers are a convenience for one machine: production names its servers.
    mode: env.NODE_ENV === "production" ? "never" : env.EMBEDDED_SERVERS,
    dataDir: path.resolve(env.EMBEDDED_DATA_DIR),
    postgresPort: env.EMBEDDED_POSTGRES_PORT,
    redisPort: env.EMBEDDED_REDIS_PORT,
    durable: true,
    database: new URL(defaults.DATABASE_URL).pathname.slice(1),
    whenInUse,
    needsRedis,
    who,
    log,
  });
  return { env: { ...env, DATABASE_URL: servers.databaseUrl, REDIS_URL: servers.redisUrl }, servers };
}
