/**
 * Reads something costly (Redis counts, a SQL aggregate) for a scrape, at most once every
 * `everyMs`, and never longer than `timeoutMs`: a dead Redis or Postgres must not hang a scrape.
 * A read that fails or runs late leaves the previous value (or none) and marks the source down,
 * so a dashboard can tell stale numbers from real ones (insp_metrics_source_up).
 */
export class Sampled<T> {
  private last: T | null = null;
  private at = 0;
  private inFlight: Promise<void> | null = null;
  private pending: Promise<T> | null = null;
  ok = false;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly everyMs: number,
    private readonly timeoutMs: number,
  ) {}

  async get(): Promise<T | null> {
    if (Date.now() - this.at >= this.everyMs) await this.refresh();
    return this.last;
  }

  private refresh(): Promise<void> {
    // Concurrent scrapes share one refresh.
    this.inFlight ??= this.readWithin().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async readWithin(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), this.timeoutMs)));
    try {
      // A read still running after its timeout is awaited again by the next refresh, not started twice.
      this.pending ??= this.read().finally(() => (this.pending = null));
      this.last = await Promise.race([this.pending, timeout]);
      this.ok = true;
    } catch {
      this.ok = false;
    } finally {
      clearTimeout(timer);
      this.at = Date.now();
    }
  }
}
