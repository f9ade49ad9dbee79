/**
 * The list's floor: a bare node:http server that answers every request with page 1 of the
 * organization's inspections, made by the same function and SQL as GET /api/inspections
 * (listInspections) and written as the same JSON, without Express, authentication, the rate
 * limiter, validation or logging. Run as its own process by the list scenario (env:
 * DATABASE_URL, ORGANIZATION_ID, PORT, DB_POOL_MAX).
 */
import http from "node:http";
import { listInspections } from "@insp/core";
import { createDb } from "@insp/db";

const env = process.env;
const db = createDb(env.DATABASE_URL!, { max: Number(env.DB_POOL_MAX ?? 10), applicationName: "bench-list-floor" });
const organizationId = env.ORGANIZATION_ID!;

const server = http.createServer((_req, res) => {
  listInspections(db.db, organizationId, { limit: 50, offset: 0, includeAnswers: false }).then(
    (page) => {
      const body = JSON.stringify(page);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
      res.end(body);
    },
    (err: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(err) }));
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(env.PORT), "127.0.0.1", () => console.log("list floor ready"));
process.on("SIGTERM", () => server.close(() => void db.close().then(() => process.exit(0))));
