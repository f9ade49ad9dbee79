/** A value for a failure message: a long one keeps its beginning and its end (where a process's last output is). */
const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length <= 2_000 ? text : `${text.slice(0, 500)} [... ${text.length - 2_000} characters ...] ${text.slice(-1_500)}`;
};

/** Reads `read()` every 50 ms until `done` holds; fails naming `what` and the last value after `ms`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: not reached within ${ms} ms: ${shown(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
