/**
 * Sends up to `concurrency` items at once and acknowledges them strictly in input order, so
 * "everything before row N is done" stays true at every acknowledgement (that is what a
 * resume starts from). A batch that finishes early waits for those before it.
 *
 * On the first failure (or an abort) nothing more is sent, the requests still in flight are
 * aborted, and the error is thrown once they have settled: nothing is acknowledged after it.
 */
export async function inOrder<T, R>(
  items: AsyncIterable<T>,
  opts: {
    concurrency: number;
    send: (item: T, signal: AbortSignal) => Promise<R>;
    ack: (item: T, result: R) => Promise<void>;
    signal?: AbortSignal;
  },
): Promise<void> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  const inflight: { item: T; result: Promise<R> }[] = [];
  const limit = Math.max(1, opts.concurrency);
  const settleHead = async () => {
    const head = inflight.shift()!;
    await opts.ack(head.item, await head.result);
  };
  try {
    for await (const item of items) {
      stop.signal.throwIfAborted();
      const result = opts.send(item, stop.signal);
      // Failures are taken up in order by settleHead; until then the rejection is expected.
      result.catch(() => {});
      inflight.push({ item, result });
      while (inflight.length >= limit) await settleHead();
    }
    while (inflight.length) {
      stop.signal.throwIfAborted();
      await settleHead();
    }
  } catch (err) {
    stop.abort(err);
    await Promise.allSettled(inflight.map((x) => x.result));
    throw err;
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
