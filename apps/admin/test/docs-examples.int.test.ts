/**
 * Every shell example of README.md and docs/*.md runs as printed, in page order, against a demo
 * made the way `npm start` makes it (seed-demo, the sample content, the credentials file), so the
 * guides cannot drift from the service. Rules (docs/README.md, "The examples"):
 * - a fenced bash/sh/shell block runs with bash under `set -euo pipefail`, from a folder that
 *   links to every entry of the repository's, with the variables and shell functions of every
 *   earlier block (pages share them, in page order);
 * - a block whose fence says `norun: <reason>` is not run, and must give its reason;
 * - every HTTP status a block's curl calls get at 400 or above must be shown in the block's
 *   comments (`# 404 {…}`), and every status the comments show must be got by one of its calls:
 *   the bodies are not compared (ids and times differ on every run), the statuses are.
 * bash, curl and jq are programs of the system: without one, the run is skipped with the reason.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";
import { seedSamples } from "../src/samples.ts";
import { demoFileContent } from "../src/demo-file.ts";
import { blocksOf, pagesInOrder, type Block } from "./docs-examples.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const which = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).stdout.trim();
const missing = ["bash", "curl", "jq"].filter((p) => !which(p));
const pages = pagesInOrder(root);
const all = pages.flatMap((p) => blocksOf(root, p));

describe("the shell examples' markers", () => {
  it("give a reason for every block that is not run", () => {
    expect(all.filter((b) => b.norun && b.norun.reason.length < 10).map((b) => `${b.page}:${b.line}`)).toEqual([]);
  });
});

if (missing.length) console.log(`docs examples not run: ${missing.join(", ")} not found (the guides' examples use them)`);

describe.skipIf(missing.length > 0)("the shell examples of README.md and docs/, in page order", () => {
  let stack: Stack;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "insp-docs-"));
  const state = path.join(scratch, "state.sh");
  const curlLog = path.join(scratch, "curl.log");
  // The blocks run in a folder that looks like the repository (a link to each of its entries), so
  // the files they save (a PDF, an export, demo-mapping.json) land there, not beside a developer's own.
  const work = path.join(scratch, "repo");
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startStack({ workers: 1 });
    await stack.settled();
    // As `npm start` on an empty database: the demo organization, its sample content, its credentials file.
    const demo = await seedDemo(stack.db.db, { name: "Demo Organization" });
    const samples = await seedSamples(stack.api.baseUrl, demo, 90_000);
    const demoFile = path.join(scratch, "demo-credentials.json");
    writeFileSync(demoFile, demoFileContent(stack.api.baseUrl, demo, samples));
    // curl as printed, with its status and address written aside for the checks below.
    const bin = path.join(scratch, "bin");
    mkdirSync(bin);
    mkdirSync(work);
    for (const name of readdirSync(root))
      if (![".git", ".data", "demo-credentials.json", "demo-mapping.json"].includes(name)) symlinkSync(path.join(root, name), path.join(work, name));
    writeFileSync(
      path.join(bin, "curl"),
      `#!/usr/bin/env bash\nexec "${which("curl")}" "$@" -w '%{stderr}insp-docs-status %{http_code} %{url_effective}\\n' 2>>"${curlLog}"\n`,
    );
    chmodSync(path.join(bin, "curl"), 0o755);
    writeFileSync(state, "");
    env = {
      ...(process.env as Record<string, string>),
      ...stack.env,
      PATH: `${bin}:${process.env.PATH}`,
      BASE: stack.api.baseUrl,
      DEMO_CREDENTIALS_FILE: demoFile,
      NO_COLOR: "1",
    };
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  function run(block: Block): void {
    writeFileSync(curlLog, "");
    const script = path.join(scratch, "block.sh");
    writeFileSync(
      script,
      ["set -euo pipefail", "set -a", `source ${JSON.stringify(state)}`, block.code, `{ export -p; declare -f; } > ${JSON.stringify(state)}`, ""].join("\n"),
    );
    const res = spawnSync("bash", [script], { cwd: work, env, encoding: "utf8", timeout: 300_000 });
    const calls = readFileSync(curlLog, "utf8")
      .split("\n")
      .map((l) => /^insp-docs-status (\d+) (.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ status: Number(m[1]), url: m[2]! }));
    const where = `${block.page}:${block.line}`;
    const detail = `\n--- stdout\n${res.stdout.slice(-3000)}\n--- stderr\n${res.stderr.slice(-3000)}\n--- curl\n${readFileSync(curlLog, "utf8").slice(-2000)}`;
    expect(res.status, `${where} exited ${res.status ?? res.signal}${detail}`).toBe(0);
    const unshown = calls.filter((c) => c.status >= 400 && !block.shownStatuses.flat().includes(c.status));
    expect(unshown, `${where}: statuses the page does not show${detail}`).toEqual([]);
    const got = new Set(calls.map((c) => c.status));
    expect(
      block.shownStatuses.filter((alternatives) => !alternatives.some((s) => got.has(s))),
      `${where}: statuses the page shows but no call got${detail}`,
    ).toEqual([]);
  }

  for (const page of pages) {
    const blocks = all.filter((b) => b.page === page && !b.norun);
    if (blocks.length === 0) continue;
    it(`${page} (${blocks.length} block${blocks.length > 1 ? "s" : ""})`, () => {
      for (const block of blocks) run(block);
    }, 1_800_000);
  }
});
