import type postgres from "postgres";

/** A connection of the pool held for one transaction (postgres.js `reserve()`). */
export type ReservedTx = postgres.ReservedSql;
/** A statement built on that connection and not sent yet (postgres.js sends a query when it is awaited). */
export type Statement = PromiseLike<unknown>;
/** The answers of statements, in their order. */
export type Answers<S extends readonly Statement[]> = { [K in keyof S]: Awaited<S[K]> };

/** What the second trip sends with COMMIT, and how to read their answers. */
export interface SecondTrip<T> {
  statements: readonly Statement[];
  result: (answers: readonly unknown[]) => T;
}

/** A SecondTrip whose `result` sees its statements' answers typed. */
export const secondTrip = <S extends readonly Statement[], T>(statements: [...S], result: (answers: Answers<S>) => T): SecondTrip<T> => ({
  statements,
  result: result as (answers: readonly unknown[]) => T,
});

/**
 * A transaction in two round trips. BEGIN and `first`'s statements go out in one write, so
 * they must not need each other's answers (Postgres still runs them one after another, each
 * statement with its own snapshot); `second` reads their answers and returns the statements
 * to write, which go out with COMMIT in the next write. postgres.js's `begin()` waits for
 * BEGIN, for each statement the callback awaits and for COMMIT: one round trip each.
 *
 * A statement that fails in the first trip, or `second` throwing, rolls the transaction back
 * (a third round trip, on that path only). A statement that fails in the second trip makes
 * Postgres answer the COMMIT after it with ROLLBACK, so nothing is left open either way; the
 * failure is thrown. When the connection drops, every statement is rejected and the patched
 * driver keeps the connection's next session from seeing anything of this transaction
 * (patches/postgres+3.4.9.patch, `reserve`). `signal` (a job stopped past its timeout) cancels the
 * statement running when it aborts, so the transaction ends instead of waiting on (cancelRunning).
 */
export async function transactionInTwoTrips<F extends readonly Statement[], T>(
  sql: postgres.Sql,
  first: (tx: ReservedTx) => [...F],
  second: (answers: Answers<F>, tx: ReservedTx) => SecondTrip<T>,
  signal?: AbortSignal,
): Promise<T> {
  signal?.throwIfAborted();
  const tx = await sql.reserve();
  let open = true;
  try {
    const firstAnswers = await settle([tx.unsafe("begin"), ...first(tx)], signal);
    const next = second(firstAnswers.slice(1) as Answers<F>, tx);
    const answers = await settle([...next.statements, tx.unsafe("commit")], signal).finally(() => (open = false));
    return next.result(answers.slice(0, -1));
  } catch (err) {
    if (open) await tx.unsafe("rollback").catch(() => {});
    throw err;
  } finally {
    tx.release();
  }
}

/**
 * Sends the statements together and waits for every answer (a connection never carries a
 * statement of this transaction past the moment it is released). Throws the first failure in
 * order: the later ones only say that the transaction was aborted (25P02).
 */
async function settle(statements: readonly Statement[], signal?: AbortSignal): Promise<unknown[]> {
  const cancel = () => cancelRunning(statements);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const settled = await Promise.allSettled(statements);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

/**
 * Cancels the statement Postgres is running now (postgres.js marks it `active`; its cancel sends
 * a CancelRequest): it fails with 57014, those after it with 25P02, and the transaction rolls back.
 * Only that one: a cancel for a statement not yet running is sent when it starts, which could be
 * after this transaction ended and its connection went back to the pool. A CancelRequest reaching
 * the backend between statements is ignored by Postgres.
 */
function cancelRunning(statements: readonly Statement[]): void {
  for (const s of statements) {
    const q = s as Partial<{ active: boolean; cancel: () => unknown }>;
    if (q.active && typeof q.cancel === "function") q.cancel();
  }
}
