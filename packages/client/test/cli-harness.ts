import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DemoSeed } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";

// What the insp-sync tests share: a stack of their own (API and one worker as processes), a
// tenant, a scratch folder, and the command run as a real process against them.

const root = fileURLToPath(new URL("../../../", import.meta.url));
// The command's own bin, run on the sources ("source" condition) rather than a build that may be stale.
const bin = path.join(root, "packages/client/bin/insp-sync.mjs");

interface CliRun {
  child: ChildProcess;
  /** What the command has written to stderr so far (progress, summaries, errors). */
  stderr: () => string;
  /** The exit code, once the process has ended and its output is all read (null when killed by a signal). */
  exited: Promise<number | null>;
}

export interface CliStack {
  stack: Stack;
  /** The tenant a run uses unless it names another. */
  tenant: DemoSeed;
  /** A scratch folder for inputs, mapping files, state files and error CSVs; removed by stop(). */
  dir: string;
  /** Starts insp-sync with `args`, as `tenant`'s OAuth client (with `secret`, to test a wrong one). */
  run(args: string[], tenant?: DemoSeed, secret?: string): CliRun;
  stop(): Promise<void>;
}

export async function startCliStack(dirPrefix: string): Promise<CliStack> {
  const [stack, dir] = await Promise.all([startStack({ workers: 1 }), mkdtemp(path.join(os.tmpdir(), dirPrefix))]);
  const tenant = await stack.tenant();
  return {
    stack,
    tenant,
    dir,
    run(args, as = tenant, secret = as.oauthClient.clientSecret) {
      const child = spawn(process.execPath, ["--conditions=source", bin, ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", INSP_URL: stack.api.baseUrl, INSP_CLIENT_ID: as.oauthClient.clientId, INSP_CLIENT_SECRET: secret },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout!.resume();
      return { child, stderr: () => err, exited: new Promise((resolve) => child.once("close", (code) => resolve(code))) };
    },
    async stop() {
      await stack.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
