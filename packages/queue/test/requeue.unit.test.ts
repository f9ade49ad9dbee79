import { describe, expect, it } from "vitest";
import { isLastAttempt } from "../src/requeue.ts";

describe("isLastAttempt", () => {
  it("is true on the attempt that the queue policy will not retry", () => {
    expect(isLastAttempt({ attemptsMade: 0, opts: { attempts: 3 } })).toBe(false);
    expect(isLastAttempt({ attemptsMade: 1, opts: { attempts: 3 } })).toBe(false);
    expect(isLastAttempt({ attemptsMade: 2, opts: { attempts: 3 } })).toBe(true);
    // A failed job retried by a sweep keeps its count: its next failure is final too.
    expect(isLastAttempt({ attemptsMade: 3, opts: { attempts: 3 } })).toBe(true);
    expect(isLastAttempt({ attemptsMade: 0, opts: {} })).toBe(true);
  });
});
