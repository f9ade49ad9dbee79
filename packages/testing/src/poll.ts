/** Reads `read()` every 50 ms until `done` holds; fails naming `what` and the last value after `ms`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: not reached within ${ms} ms: ${JSON.stringify(v).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
