import { PG, pgErrorCode, type SqlTx } from "@insp/db";
import { ScimError } from "./protocol.ts";
import type { ScimContext } from "./users.ts";

/**
 * The transactions of SCIM writes. Each write looks at what it will change, takes the advisory
 * locks of the employees concerned (sorted, in one statement, as the sync workers do), then the
 * row locks, then reads again and decides on what it read under the locks. When that second read
 * shows employees the locks do not cover (someone changed the resource between the look and the
 * locks), the write throws LocksOutdated and runs again from the start; so do deadlocks and
 * serialization failures, a few times, before the client gets an answer.
 */

const ATTEMPTS = 4;

/** The locks taken do not cover what the write must change: roll back and run again. */
export class LocksOutdated extends Error {
  constructor() {
    super("The resource changed while its locks were taken");
    this.name = "LocksOutdated";
  }
}

export interface TransactionOptions {
  /** The 409 detail of a unique violation. */
  uniqueness: string;
  /** Run again after a unique violation (a lost race for a key; the rerun sees the winner). */
  retryUnique: boolean;
}

export async function scimTransaction<T>(ctx: ScimContext, run: (tx: SqlTx) => Promise<T>, opts: TransactionOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await ctx.db.$client.begin((tx: SqlTx) => run(tx))) as T;
    } catch (err) {
      const last = attempt >= ATTEMPTS;
      const code = pgErrorCode(err);
      if (code === PG.uniqueViolation && (last || !opts.retryUnique)) throw new ScimError(409, "uniqueness", opts.uniqueness);
      const again = err instanceof LocksOutdated || code === PG.deadlock || code === PG.serializationFailure || code === PG.uniqueViolation;
      if (!again) throw err;
      if (last) throw new ScimError(503, undefined, "The resource is being changed by other requests; try again");
      await new Promise((r) => setTimeout(r, 10 * attempt + Math.random() * 20));
    }
  }
}
