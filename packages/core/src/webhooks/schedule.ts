/**
 * When a failed delivery is tried again: the Standard Webhooks schedule, seconds after the
 * previous attempt (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 27.6
 * hours), each delay with ±10% jitter so endpoints that failed together are not retried together.
 */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** Parses WEBHOOK_RETRY_SCHEDULE ("0,5,300,..."): seconds, at least one attempt. */
export function parseSchedule(text: string | undefined): number[] | null {
  if (text === undefined) return DEFAULT_RETRY_SCHEDULE;
  const parts = text.split(",").map((s) => s.trim());
  if (!parts.length || parts.some((p) => !/^\d{1,6}$/.test(p))) return null;
  return parts.map(Number);
}

/** Delay before attempt `attempt` (0-based; attempt 0 is the first), or null when there is none left. */
export function retryDelayMs(schedule: number[], attempt: number, random = Math.random): number | null {
  if (attempt >= schedule.length) return null;
  const base = schedule[attempt]! * 1000;
  return Math.round(base * (0.9 + 0.2 * random()));
}
