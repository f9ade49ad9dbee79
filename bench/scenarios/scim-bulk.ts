import { createOAuthClient } from "@insp/core";
import type { Scenario } from "../lib/scenario.ts";
import { latencyRow } from "../lib/scenario.ts";
import { median, round, timed } from "../lib/stats.ts";

const OPERATIONS = 1000;

/**
 * POST /scim/v2/Bulk with 1,000 operations that each refer forward to the next one's bulkId
 * (and carry 40 more references), on a path that fails without touching the database: what
 * ordering the operations costs the API's one thread. Meanwhile /healthz is asked every 5 ms;
 * its slowest answer is how long the event loop was held (every tenant waits that long).
 */
export const scimBulk: Scenario = {
  name: "scim-bulk",
  describe: `POST /scim/v2/Bulk, ${OPERATIONS} operations chained by bulkId references: time per request and the slowest /healthz meanwhile`,
  async run(ctx, progress) {
    const t = await ctx.newTenant();
    const idp = await createOAuthClient(ctx.db.db, t.organization.id, "bench identity provider", undefined, ["scim"]);
    const token = await ctx.syncToken({ ...t, oauthClient: { ...t.oauthClient, clientId: idp.clientId, clientSecret: idp.clientSecret } });
    const pad = Array.from({ length: 40 }, (_, k) => `bulkId:p${k}`).join(" ");
    const body = JSON.stringify({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],
      Operations: Array.from({ length: OPERATIONS }, (_, i) => ({ method: "PATCH", path: `/Nope/bulkId:u${i + 1}`, bulkId: `u${i}`, data: { pad } })),
    });
    const post = async () => {
      const res = await fetch(`${ctx.api.baseUrl}/scim/v2/Bulk`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
        body,
      });
      if (res.status !== 200) throw new Error(`Bulk answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
    };
    await post(); // warm-up
    const latencies: number[] = [];
    let slowestHealth = 0;
    for (let i = 0; i < 5; i++) {
      let running = true;
      const pinger = (async () => {
        while (running) {
          const { ms } = await timed(() => fetch(`${ctx.api.baseUrl}/healthz`).then((r) => r.arrayBuffer()));
          slowestHealth = Math.max(slowestHealth, ms);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const { ms } = await timed(post);
      latencies.push(ms);
      running = false;
      await pinger;
    }
    progress(`${OPERATIONS} chained operations: median ${round(median(latencies))} ms; slowest /healthz meanwhile ${round(slowestHealth)} ms`);
    const row = latencyRow("scim-bulk", `${OPERATIONS} operations chained by bulkId, ${round(body.length / 1024)} KB`, latencies);
    row.extra = `slowest /healthz during the requests: ${round(slowestHealth)} ms`;
    return {
      name: "scim-bulk",
      rows: [row],
      metrics: { operations: OPERATIONS, bodyKb: round(body.length / 1024), medianMs: round(median(latencies)), slowestHealthMs: round(slowestHealth) },
      samples: { "scim-bulk": latencies },
      notes: [],
    };
  },
};
