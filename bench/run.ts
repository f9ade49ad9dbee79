/**
 * `npm run bench [-- options]`: a fresh database, the API and a worker as real processes,
 * the selected scenarios one after the other, then a markdown table on stdout and the figures
 * as JSON under bench/results/. Progress goes to stderr. See bench/README.md.
 */
import { BenchContext } from "./lib/context.ts";
import { parseOptions, type ScenarioName } from "./lib/options.ts";
import { conditions, cpuTable, environment, markdown, ratios, targets, vitestProcesses, writeResults, type Conditions, type Report } from "./lib/report.ts";
import type { Scenario, ScenarioResult } from "./lib/scenario.ts";
import { machineBusyShare } from "./lib/cpu.ts";
import { startSmtpSink } from "./lib/smtp-sink.ts";
import { startS3Server } from "@insp/testing/s3";
import { round } from "./lib/stats.ts";
import { importScenario } from "./scenarios/import.ts";
import { exportScenario } from "./scenarios/export.ts";
import { list } from "./scenarios/list.ts";
import { noisyNeighbour } from "./scenarios/noisy-neighbour.ts";
import { scale } from "./scenarios/scale.ts";
import { soak } from "./scenarios/soak.ts";
import { syncAccounts } from "./scenarios/sync-accounts.ts";
import { syncCreate } from "./scenarios/sync-create.ts";
import { syncFloor } from "./scenarios/sync-floor.ts";
import { syncLarge } from "./scenarios/sync-large.ts";
import { webhooks } from "./scenarios/webhooks.ts";
import { upload } from "./scenarios/upload.ts";
import { detail } from "./scenarios/detail.ts";
import { report } from "./scenarios/report.ts";
import { schedules } from "./scenarios/schedules.ts";
import { scimBulk } from "./scenarios/scim-bulk.ts";
import { syncRaw } from "./scenarios/sync-raw.ts";
import { syncStatements } from "./scenarios/sync-statements.ts";
import { syncUpdate } from "./scenarios/sync-update.ts";

const registry: Record<ScenarioName, Scenario> = {
  "sync-raw": syncRaw,
  "sync-statements": syncStatements,
  "sync-floor": syncFloor,
  "sync-create": syncCreate,
  "sync-update": syncUpdate,
  "sync-accounts": syncAccounts,
  scale,
  "sync-large": syncLarge,
  webhooks,
  upload,
  detail,
  report,
  "scim-bulk": scimBulk,
  import: importScenario,
  list,
  export: exportScenario,
  "noisy-neighbour": noisyNeighbour,
  schedules,
  soak,
};

const t0 = performance.now();
const say = (scope: string, message: string) =>
  process.stderr.write(
    `[${round((performance.now() - t0) / 1000, 1)
      .toFixed(1)
      .padStart(6)} s] ${scope.padEnd(13)} ${message}\n`,
  );

/** Machine busy share (other processes: the service idles between scenarios) below which it counts as quiet. */
const QUIET_BUSY = 0.25;

/** Waits until no vitest runs and the machine is under 25% busy, twice in a row, at most `seconds`. */
async function waitQuiet(seconds: number) {
  const until = Date.now() + seconds * 1000;
  let quietChecks = 0;
  while (quietChecks < 2 && Date.now() < until) {
    const [n, busy] = [await vitestProcesses(), await machineBusyShare()];
    const quiet = n === 0 && busy < QUIET_BUSY;
    quietChecks = quiet ? quietChecks + 1 : 0;
    if (!quiet) say("bench", `waiting: ${n} vitest processes, machine ${Math.round(busy * 100)}% busy`);
    if (quietChecks < 2) await new Promise((r) => setTimeout(r, 3000));
  }
}

async function main() {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    console.error("npm run bench -- --help lists the options");
    process.exit(2);
  }
  if (opts.waitQuietS > 0) await waitQuiet(opts.waitQuietS);
  const startedAt = new Date().toISOString();
  const before = await conditions();
  if (before.vitestProcesses > 0) say("bench", `warning: ${before.vitestProcesses} vitest processes are running; figures will be noisy`);
  say(
    "bench",
    `scenarios ${opts.scenarios.join(", ")}; rounds ${opts.rounds}, batch ${opts.batch}, list size ${opts.listSize}; Postgres at ${opts.pgServerUrl}`,
  );

  const sink = await startSmtpSink();
  const s3 = opts.mediaStore === "s3" ? await startS3Server() : null;
  const ctx = new BenchContext({ ...opts, serviceEnv: { ...s3?.env, ...opts.serviceEnv } });
  ctx.shared.set("smtp:received", sink.received);
  ctx.shared.set("smtp:sink", sink);
  let stopping = false;
  const cleanUp = async () => {
    if (stopping) return;
    stopping = true;
    await ctx.stop().catch((err) => say("bench", `clean-up failed: ${err instanceof Error ? err.message : err}`));
    await sink.close();
    await s3?.stop();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      say("bench", `${signal}: stopping processes and dropping the database`);
      void cleanUp().then(() => process.exit(130));
    });
  }

  const results: ScenarioResult[] = [];
  const notes: string[] = [];
  const perScenario: Record<string, Conditions> = {};
  let failed = false;
  let dbUsed = false;
  try {
    say("bench", `database ${ctx.dbName}, queue prefix ${ctx.queuePrefix}: migrating, starting the API and 1 worker`);
    await ctx.start(1, { SMTP_URL: sink.url });
    const env = await environment(ctx.db.sql, opts.redisUrl);
    if (opts.profileDir) say("bench", `CPU profiles go to ${opts.profileDir} when the processes stop: ${ctx.pids()}`);
    say("bench", `${env.cores} cores, Node ${env.node}, PostgreSQL ${env.postgres}, Redis ${env.redis}`);
    for (const name of opts.scenarios) {
      const scenario = registry[name];
      if (opts.waitQuietS > 0) await waitQuiet(opts.waitQuietS);
      perScenario[name] = await conditions();
      say(name, `${scenario.describe} (load ${perScenario[name].loadAvg1m})`);
      const start = performance.now();
      try {
        if (scenario.freshDatabase && dbUsed) {
          say(name, "recreating the database and restarting the processes (a fresh database)");
          await ctx.freshDatabase();
        }
        dbUsed = true;
        results.push(await scenario.run(ctx, (m) => say(name, m)));
        say(name, `done in ${round((performance.now() - start) / 1000, 1)} s`);
      } catch (err) {
        failed = true;
        const message = err instanceof Error ? err.message : String(err);
        say(name, `FAILED: ${message}`);
        notes.push(`${name} failed: ${message.split("\n")[0]}`);
      }
    }
    for (const r of results) notes.push(...r.notes);

    const after = await conditions();
    if (after.vitestProcesses > 0 || Object.values(perScenario).some((c) => c.vitestProcesses > 0)) {
      notes.push("vitest was running during this run: figures are noisy (other engineers' tests share the cores)");
    }
    const {
      outDir: _out,
      pgServerUrl: _pg,
      redisUrl: _redis,
      keepDb: _keep,
      profileDir: _prof,
      logDir: _logs,
      waitQuietS: _wait,
      autoExplainMs: _explain,
      serviceEnv: _env,
      ...shownOptions
    } = opts;
    const report: Report = {
      startedAt,
      finishedAt: after.at,
      durationS: round((performance.now() - t0) / 1000, 1),
      environment: env,
      conditions: { before, after, perScenario },
      options: shownOptions,
      scenarios: results,
      ratios: ratios(results),
      targets: targets(results, opts),
      cpu: cpuTable(results),
      notes,
    };
    const files = await writeResults(report, opts.outDir, opts.latest);
    process.stdout.write(`\n${markdown(report)}\n`);
    say("bench", `figures written to ${files.join(", ")}`);
  } finally {
    say("bench", opts.keepDb ? `stopping processes; database ${ctx.dbName} kept` : "stopping processes and dropping the database");
    await cleanUp();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
