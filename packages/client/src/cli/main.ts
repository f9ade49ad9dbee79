import { parseCli } from "./args.ts";
import { readCliEnv } from "./env.ts";
import { EXIT, UsageError, exitFor } from "./exit-codes.ts";
import { HELP } from "./help.ts";
import { executeRun } from "./run.ts";
import { setupRun } from "./setup.ts";

const say = (line: string) => process.stderr.write(`insp-sync: ${line}\n`);

export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    // A second signal means "now": the state is consistent after every batch, so leaving at once is safe.
    if (++signals > 1) process.exit(EXIT.interrupted);
    say(`${sig}: stopping; batches in flight are abandoned and re-sent (same Idempotency-Key) when the run is resumed`);
    controller.abort(new Error(sig));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const opts = parseCli(argv);
    if (!opts) {
      process.stdout.write(HELP);
      return EXIT.ok;
    }
    const cfg = await setupRun(opts, readCliEnv());
    return await executeRun(cfg, opts, { say, stderrIsTTY: !!process.stderr.isTTY, signal: controller.signal });
  } catch (err) {
    const { code, message } = exitFor(err, controller.signal.aborted);
    say(message);
    if (code === EXIT.usage && err instanceof UsageError && /argument|option|input file/.test(message)) say("insp-sync --help lists the options");
    return code;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
