import cliProgress from "cli-progress";

export interface ProgressSnapshot {
  /** Rows settled, this run and the ones it resumed. */
  rows: number;
  /** Input bytes settled. */
  offset: number;
  errors: number;
  warnings: number;
}

/** h:mm:ss or m:ss. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "--:--";
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * Rate and time left from samples of (time, rows, bytes) over the last `windowMs`: recent speed
 * says more than the average since start (the first batches warm caches up, a resumed run
 * starts fast from skipped rows). The ETA is in bytes, since the number of rows is not known
 * until the end of a stream.
 */
export class RateMeter {
  private samples: { t: number; rows: number; offset: number }[] = [];
  constructor(private readonly windowMs = 20_000) {}

  add(t: number, rows: number, offset: number): void {
    this.samples.push({ t, rows, offset });
    while (this.samples.length > 2 && t - this.samples[1]!.t >= this.windowMs) this.samples.shift();
  }

  /** Rows per second and milliseconds left for `totalBytes`; null until two samples apart in time. */
  estimate(totalBytes: number): { rowsPerSecond: number; etaMs: number } | null {
    const a = this.samples[0];
    const b = this.samples[this.samples.length - 1];
    if (!a || !b || b.t <= a.t) return null;
    const seconds = (b.t - a.t) / 1000;
    const bytesPerMs = (b.offset - a.offset) / (b.t - a.t);
    return { rowsPerSecond: (b.rows - a.rows) / seconds, etaMs: bytesPerMs > 0 ? Math.max(0, totalBytes - b.offset) / bytesPerMs : Infinity };
  }
}

export function progressLine(p: ProgressSnapshot, totalBytes: number, est: { rowsPerSecond: number; etaMs: number } | null): string {
  const pct = totalBytes > 0 ? ((100 * p.offset) / totalBytes).toFixed(1) : "100.0";
  const rate = est ? Math.round(est.rowsPerSecond).toLocaleString("en-US") : "-";
  return `${p.rows.toLocaleString("en-US")} rows (${pct}%), ${rate} rows/s, ETA ${est ? formatDuration(est.etaMs) : "--:--"}, ${p.errors} errors, ${p.warnings} warnings`;
}

/**
 * Progress on stderr: a bar when stderr is a terminal, else one line every `intervalMs` (logs
 * and CI show lines, not a redrawn bar). Notes (retries, waits) go on their own lines.
 */
export class Progress {
  private readonly meter = new RateMeter();
  private bar: cliProgress.SingleBar | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private last: ProgressSnapshot;

  constructor(
    private readonly totalBytes: number,
    start: ProgressSnapshot,
    private readonly opts: { tty: boolean; intervalMs: number; write: (line: string) => void },
  ) {
    this.last = start;
    this.meter.add(Date.now(), start.rows, start.offset);
    if (opts.tty) {
      this.bar = new cliProgress.SingleBar(
        {
          format: "{bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {etaText} | {errors} errors, {warnings} warnings",
          hideCursor: true,
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(Math.max(1, totalBytes), start.offset, this.payload());
    } else {
      this.timer = setInterval(
        () => this.opts.write(`progress: ${progressLine(this.last, this.totalBytes, this.meter.estimate(this.totalBytes))}`),
        opts.intervalMs,
      );
      this.timer.unref();
    }
  }

  private payload() {
    const est = this.meter.estimate(this.totalBytes);
    return {
      rows: this.last.rows.toLocaleString("en-US"),
      rate: est ? Math.round(est.rowsPerSecond) : "-",
      etaText: est ? formatDuration(est.etaMs) : "--:--",
      errors: this.last.errors,
      warnings: this.last.warnings,
    };
  }

  update(p: ProgressSnapshot): void {
    this.last = p;
    this.meter.add(Date.now(), p.rows, p.offset);
    this.bar?.update(p.offset, this.payload());
  }

  note(message: string): void {
    if (this.bar) {
      // Clear the bar's line, print the note, draw the bar again below it.
      process.stderr.write(`\r\x1b[K${message}\n`);
      this.bar.render();
    } else this.opts.write(message);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.bar) {
      this.bar.update(this.last.offset, this.payload());
      this.bar.stop();
    } else this.opts.write(`progress: ${progressLine(this.last, this.totalBytes, this.meter.estimate(this.totalBytes))}`);
  }
}
