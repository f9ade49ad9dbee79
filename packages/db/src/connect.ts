import postgres from "postgres";

/**
 * postgres() for a DATABASE_URL, also in libpq's form for a Unix socket:
 * `postgres://user@localhost/db?host=/var/run/postgresql` (the socket directory; the port
 * names the socket file). postgres.js itself would send `host` to the server as a setting. A
 * socket skips the TCP stack on every write: cheaper than loopback TCP when Postgres is on
 * the same host (bench/README.md).
 */
export function pgConnect(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> = {}): postgres.Sql {
  const u = new URL(url);
  const socketDir = u.searchParams.get("host");
  if (!socketDir?.startsWith("/")) return postgres(url, options);
  u.searchParams.delete("host");
  return postgres(u.toString(), { ...options, host: socketDir });
}
