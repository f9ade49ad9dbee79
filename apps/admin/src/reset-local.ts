import path from "node:path";
import { createInterface } from "node:readline/promises";
import { resetLocalData } from "@insp/local-servers";
import { loadAdminEnv } from "./env.ts";

/**
 * `npm run admin -- reset-local [--yes]`: wipes the embedded servers' folder after the user types
 * "yes" (or with --yes, for scripts). Settings that name other servers are not touched: only the
 * folder the embedded servers keep their data in.
 */
export async function resetLocalCommand(yes: boolean): Promise<number> {
  const dir = path.resolve(loadAdminEnv().EMBEDDED_DATA_DIR);
  if (!yes) {
    if (!process.stdin.isTTY) {
      console.error(`reset-local: confirm with --yes to wipe ${dir} without a terminal`);
      return 2;
    }
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(`Wipe ${dir}: the embedded Postgres and Redis data (every organization, employee, inspection and queued job)? Type yes to confirm: `);
    rl.close();
    if (answer.trim().toLowerCase() !== "yes") {
      console.log("Nothing wiped.");
      return 1;
    }
  }
  const result = await resetLocalData(dir);
  console.log(result === "wiped" ? `Wiped ${dir}; the next npm start begins with empty embedded servers and a new demo organization.` : `Nothing to wipe: ${dir} does not exist.`);
  return 0;
}
