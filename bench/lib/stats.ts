/** Order statistics over repeated rounds (nearest-rank). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}
export const median = (v: number[]) => quantile(v, 0.5);
export const p95 = (v: number[]) => quantile(v, 0.95);
export const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Runs `fn` with at most `limit` calls in flight. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/**
 * Growth over consecutive rounds: the mean of the last `n` samples against the mean of the
 * first `n`, minus 1 (0.15 means the last rounds took 15% longer). NaN with fewer than 2n samples.
 */
export function drift(samples: number[], n = 5): number {
  if (samples.length < 2 * n) return NaN;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return mean(samples.slice(-n)) / mean(samples.slice(0, n)) - 1;
}
