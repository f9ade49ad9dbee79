import path from "node:path";
import { createInterface } from "node:readline/promises";
import { localDataFolders, resetLocalData } from "@insp/local-servers";
import { loadAdminEnv } from "./env.ts";

/**
 * `npm run admin -- reset-local [--yes]`: wipes the embedded servers' folder after the user types
 * "yes" (or with --yes, for scripts), with the Postgres cluster kept outside it when root's
 * project folder was closed to the user postgres. Settings that name other servers are not
 * touched: only the folders the embedded servers keep their data in.
 */
export async function resetLocalCommand(yes: boolean): Promise<number> {
  const dir = path.resolve(loadAdminEnv().EMBEDDED_DATA_DIR);
  const folders = localDataFolders(dir);
  const named = (folders.length > 0 ? folders : [dir]).join(" and ");
  if (!yes && folders.length > 0) {
    if (!process.stdin.isTTY) {
      console.error(`reset-local: confirm with --yes to wipe ${named} without a terminal`);
      return 2;
    }
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(
      `Wipe ${named}: the embedded Postgres and Redis data (every organization, employee, inspection and queued job)? Type yes to confirm: `,
    );
    rl.close();
    if (answer.trim().toLowerCase() !== "yes") {
      console.log("Nothing wiped.");
      return 1;
    }
  }
  const wiped = await resetLocalData(dir);
  console.log(
    wiped.length > 0
      ? `Wiped ${wiped.join(" and ")}; the next npm start begins with empty embedded servers and a new demo organization.`
      : `Nothing to wipe: ${dir} does not exist.`,
  );
  return 0;
}
