import { parseArgs } from "node:util";
import { ConfigError } from "@insp/config";
import { ServerSetupError, type ProvidedServers } from "@insp/local-servers";
import { AppError, SecretBox, targetPolicy } from "@insp/core";
import { createDb, runMigrations } from "@insp/db";
import { JobWaiter, Queues, createRedis } from "@insp/queue";
import { commands } from "./commands.ts";
import { hashPasswordCommand } from "./hash-password.ts";
import { resetLocalCommand } from "./reset-local.ts";
import { formatTable } from "./table.ts";
import { withServers } from "./servers.ts";

/** `npm run admin -- <command> [--json]`: operator tasks the HTTP API has no endpoints for. */
function help(): string {
  const rows = [
    ["migrate", "Create the database if missing and apply migrations"],
    ["reset-local [--yes]", "Stop and wipe the embedded Postgres and Redis data (EMBEDDED_DATA_DIR, default .data) after a confirmation"],
    ["hash-password", "Print the argon2id hash of a password read from stdin (ADMIN_DASHBOARD_PASSWORD_HASH)"],
    ...Object.entries(commands).map(([, c]) => [c.usage, c.summary]),
  ];
  return `Usage: npm run admin -- <command> [options] [--json]\n\n${rows.map(([u, s]) => `  ${u}\n      ${s}`).join("\n")}\n`;
}

function printHuman(value: unknown): void {
  if (Array.isArray(value)) {
    if (value.length === 0) console.log("(none)");
    else console.log(formatTable(value as Record<string, unknown>[]));
    return;
  }
  console.log(JSON.stringify(value, null, 2));
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      json: { type: "boolean" },
      yes: { type: "boolean", short: "y" },
      help: { type: "boolean", short: "h" },
      admin: { type: "boolean" },
      option: { type: "string", multiple: true },
      field: { type: "string", multiple: true },
      event: { type: "string", multiple: true },
      scope: { type: "string", multiple: true },
      ...Object.fromEntries(
        [
          "name",
          "org",
          "email",
          "password",
          "code",
          "external-id",
          "input-type",
          "id",
          "client-id",
          "url",
          "description",
          "address",
          "latitude",
          "longitude",
          "parent",
          "expires-at",
          "grace-seconds",
        ].map((n) => [n, { type: "string" as const }]),
      ),
    },
  });
  const [name, ...rest] = positionals;
  if (!name || values.help || name === "help") {
    console.log(help());
    return name || values.help ? 0 : 2;
  }
  if (name === "hash-password") return hashPasswordCommand();
  if (name === "reset-local") return resetLocalCommand(Boolean(values.yes));
  const command = commands[name];
  if (name !== "migrate" && !command) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  // Beside a running `npm start` with embedded servers, its servers; else settings, defaults, or
  // embedded servers started for this command only (docs/local-development.md).
  const { env, servers } = await withServers("npm run admin", "share", (line) => console.error(line), command?.usesQueue === true);
  running = servers;
  await runMigrations(env.DATABASE_URL);
  if (name === "migrate") {
    if (values.json) console.log(JSON.stringify({ migrated: true }));
    else console.log("Migrations applied.");
    return 0;
  }
  const { db, close } = createDb(env.DATABASE_URL, { max: 2, applicationName: "inspection-admin" });
  let queues: { queues: Queues; waiter: JobWaiter; redis: ReturnType<typeof createRedis> } | null = null;
  const sync = async () => {
    if (!queues) {
      const redis = createRedis(env, "producer");
      queues = { redis, queues: new Queues(redis, env.QUEUE_PREFIX), waiter: new JobWaiter(() => createRedis(env, "worker"), env.QUEUE_PREFIX) };
    }
    return { db, queues: queues.queues, waiter: queues.waiter, waitMs: 60_000 };
  };
  try {
    const webhooks = { box: new SecretBox(env.WEBHOOK_SECRET_KEY), policy: targetPolicy(env) };
    const result = await command!.run({ db, sync, pepper: env.SECRET_PEPPER, webhooks, flags: values, positionals: rest });
    if (values.json) console.log(JSON.stringify(result, null, 2));
    else printHuman(result);
    return 0;
  } finally {
    if (queues) {
      const q: { queues: Queues; waiter: JobWaiter; redis: ReturnType<typeof createRedis> } = queues;
      await q.waiter.close().catch(() => {});
      await q.queues.close().catch(() => {});
      q.redis.disconnect();
    }
    await close();
  }
}

/** Embedded servers this command started for itself, stopped before it exits. */
let running: ProvidedServers | null = null;

const finish = (code: number) => (running ? running.stop() : Promise.resolve()).then(() => process.exit(code));

main(process.argv.slice(2)).then(
  (code) => finish(code),
  (err) => {
    if (err instanceof ConfigError || err instanceof ServerSetupError) console.error(err.message);
    else if (err instanceof AppError) console.error(`Error: ${err.message}${err.details?.length ? `: ${err.details.join("; ")}` : ""}`);
    else console.error("Error:", err instanceof Error ? err.message : err);
    return finish(err instanceof ConfigError || err instanceof ServerSetupError ? 78 : 1);
  },
);
