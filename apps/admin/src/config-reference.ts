/**
 * `npm run docs:config`: writes the settings reference at the end of docs/configuration.md from
 * the env schemas the processes parse (name, default, allowed values, description), so it cannot
 * drift; `--check` only compares (apps/admin/test/config-reference.unit.test.ts does the same).
 * A development tool: not part of the compiled admin CLI.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { baseEnvShape, describeSettings, type SettingInfo } from "@insp/config";
import { apiEnvShape } from "@insp/api/env";
import { workerEnvShape } from "@insp/worker/env";
import { tracingEnvShape } from "@insp/observability/tracing";
import { adminEnvShape } from "./env.ts";

export const PAGE = fileURLToPath(new URL("../../../docs/configuration.md", import.meta.url));
const MARKER = "<!-- Generated from the env schemas by `npm run docs:config`: edit the schemas, not this part. -->";

const sections: { title: string; intro: string; shape: Record<string, unknown> }[] = [
  { title: "Every process", intro: "Read by the API, the worker, `npm start` and the admin CLI.", shape: baseEnvShape },
  { title: "API", intro: "Read by the API (`apps/api/src/env.ts`), besides the settings of every process.", shape: apiEnvShape },
  { title: "Worker", intro: "Read by each worker (`apps/worker/src/env.ts`), besides the settings of every process.", shape: workerEnvShape },
  {
    title: "npm start and the admin CLI",
    intro: "Read by the launcher and `npm run admin` (`apps/admin/src/env.ts`), besides the settings of every process.",
    shape: adminEnvShape,
  },
  {
    title: "Tracing",
    intro:
      "Read by the API and the worker when they start (`packages/observability/src/tracing/env.ts`); the OpenTelemetry SDK reads the other standard `OTEL_*` variables itself.",
    shape: tracingEnvShape,
  },
];

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const row = (s: SettingInfo) =>
  `| \`${s.name}\`${s.secret ? " (secret)" : ""} | ${s.default === undefined ? "unset" : s.default === "" ? '`""`' : `\`${cell(s.default)}\``} | ${cell(s.allowed ?? "")} | ${cell(s.description)} |`;

/** The generated part of the page: one table per process, each listing what it reads beyond "Every process" (or reads differently). */
export function renderReference(): string {
  const base = new Map(describeSettings(baseEnvShape as never).map((s) => [s.name, s]));
  const out = [MARKER, ""];
  for (const section of sections) {
    const all = describeSettings(section.shape as never);
    const own = section.shape === baseEnvShape ? all : all.filter((s) => JSON.stringify(s) !== JSON.stringify(base.get(s.name)));
    out.push(`### ${section.title}`, "", section.intro, "", "| Setting | Default | Allowed | Meaning |", "|---|---|---|---|", ...own.map(row), "");
  }
  return out.join("\n");
}

/** The page with its generated part (everything after the marker, or after "## Reference") replaced. */
export function pageWithReference(page: string): string {
  const at = page.indexOf(MARKER);
  const head = at >= 0 ? page.slice(0, at) : page.slice(0, page.indexOf("## Reference") + "## Reference".length) + "\n\n";
  return head + renderReference();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = readFileSync(PAGE, "utf8");
  const next = pageWithReference(page);
  if (process.argv.includes("--check")) {
    if (next !== page) {
      console.error("docs/configuration.md differs from the env schemas: run npm run docs:config");
      process.exit(1);
    }
  } else {
    writeFileSync(PAGE, next);
    console.log(next === page ? "docs/configuration.md is up to date" : "docs/configuration.md: reference regenerated");
  }
}
