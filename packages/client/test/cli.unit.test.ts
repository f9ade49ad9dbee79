import { describe, expect, it } from "vitest";
import { parseCli } from "../src/cli/args.ts";
import { readCliEnv } from "../src/cli/env.ts";
import { EXIT, UsageError, exitFor } from "../src/cli/exit-codes.ts";
import { HELP } from "../src/cli/help.ts";
import { RateMeter, formatDuration, progressLine } from "../src/cli/progress.ts";
import { describeCommit, ensureSession } from "../src/cli/snapshot.ts";
import type { SessionsApi } from "../src/sessions/client.ts";
import { newRunId, zeroCounts, type SyncState } from "../src/state/state-file.ts";
import { AuthError, HttpError, RetriesExhaustedError } from "../src/errors.ts";
import { InputError } from "../src/input/types.ts";

describe("command line", () => {
  it("has defaults for everything but the input", () => {
    expect(parseCli(["in.csv"])).toMatchObject({
      input: "in.csv",
      concurrency: 2,
      batchSize: 500,
      maxAttempts: 8,
      restart: false,
      force: false,
      dryRun: false,
      snapshot: false,
      scope: {},
      progressIntervalSeconds: 5,
    });
    expect(parseCli(["--help"])).toBeNull();
  });

  it("reads snapshot scopes", () => {
    expect(
      parseCli(["in.jsonl", "--snapshot", "--scope-department", "Ops", "--scope-site", "s1", "--scope-metadata", "region=north=1", "--commit-dry-run"]),
    ).toMatchObject({
      snapshot: true,
      commitDryRun: true,
      scope: { department: "Ops", siteId: "s1", metadata: { key: "region", value: "north=1" } },
    });
  });

  it.each([
    [[], /input file is missing/],
    [["a.csv", "b.csv"], /one input file expected/],
    [["a.csv", "--concurrency", "0"], /--concurrency must be a whole number from 1 to 16/],
    [["a.csv", "--batch-size", "501"], /--batch-size must be a whole number from 1 to 500/],
    [["a.csv", "--format", "xml"], /--format must be csv, json or jsonl/],
    [["a.csv", "--nope"], /Unknown option/],
    [["a.csv", "--client-secret", "ics_x"], /not accepted/],
    [["a.csv", "--client-secret=ics_x"], /not accepted/],
    [["a.csv", "--scope-department", "x"], /need --snapshot/],
    [["a.csv", "--snapshot", "--dry-run"], /cannot be combined/],
    [["a.csv", "--snapshot", "--scope-metadata", "novalue"], /key=value/],
    [["a.csv", "--restart", "--force"], /contradict/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCli(argv as string[])).toThrow(UsageError);
    expect(() => parseCli(argv as string[])).toThrow(message as RegExp);
  });

  it("never echoes a refused secret", () => {
    try {
      parseCli(["a.csv", "--client-secret=ics_topsecret"]);
    } catch (err) {
      expect((err as Error).message).not.toContain("topsecret");
    }
  });

  it("reads credentials from the environment", () => {
    expect(readCliEnv({ INSP_URL: " http://x ", INSP_CLIENT_ID: "c", INSP_CLIENT_SECRET: "" })).toEqual({
      url: "http://x",
      clientId: "c",
      clientSecret: undefined,
    });
  });

  it("documents every exit code in --help", () => {
    for (const code of Object.values(EXIT)) expect(HELP).toMatch(new RegExp(`^  ${code}\\s`, "m"));
  });
});

describe("exit codes", () => {
  it.each([
    [new UsageError("x"), EXIT.usage],
    [new AuthError("x", 401), EXIT.auth],
    [new RetriesExhaustedError("x", 8, 503), EXIT.service],
    [new HttpError("x", 500, null), EXIT.service],
    [new HttpError("x", 422, null), EXIT.usage],
    [Object.assign(new Error("Invalid Closing Quote"), { code: "CSV_INVALID_CLOSING_QUOTE" }), EXIT.usage],
    [Object.assign(new Error("gone"), { code: "ENOENT" }), EXIT.usage],
    [new InputError("not valid JSON"), EXIT.usage],
  ])("%s -> %i", (err, code) => {
    expect(exitFor(err, false).code).toBe(code);
  });
  it("an interruption wins over the error it caused", () => {
    expect(exitFor(new RetriesExhaustedError("x", 1, null), true).code).toBe(EXIT.interrupted);
  });
});

describe("snapshot commit answers", () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => ({ employeeId: `id${i}`, externalEmployeeId: `E${i}`, displayName: null }));
  const session = {
    scope: {},
    batches: 1,
    employeesSeen: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    expiresAt: "2026-01-02T00:00:00.000Z",
    committedAt: null,
    requestId: null,
  };
  it("committed: done, exit code from the rows", () => {
    const r = describeCommit({ ...session, sessionId: "s", status: "committed", deactivated: list(2), requestId: "r" });
    expect(r).toMatchObject({ exitCode: null, done: true });
    expect(r.lines).toEqual(["session s committed: 2 employees deactivated", "  E0 (id0)", "  E1 (id1)"]);
  });
  it("quarantined: exit 3 and who would go", () => {
    const r = describeCommit({
      ...session,
      sessionId: "s",
      status: "quarantined",
      wouldDeactivate: list(60),
      threshold: { percent: 10, min: 50 },
      activeInScope: 200,
    });
    expect(r.exitCode).toBe(EXIT.quarantined);
    expect(r.lines[0]).toMatch(/quarantined: the commit would deactivate 60 employees \(guard: more than 10% and more than 50 of 200 active in scope\)/);
    expect(r.lines).toHaveLength(1 + 50 + 1);
    expect(r.lines.at(-1)).toBe("  ... and 10 more");
  });
  it("dry run: the session stays open, the run is not done", () => {
    const r = describeCommit({
      ...session,
      sessionId: "s",
      status: "open",
      dryRun: true,
      wouldDeactivate: list(1),
      activeInScope: 10,
      wouldQuarantine: false,
      threshold: { percent: 5, min: 10 },
    });
    expect(r).toMatchObject({ exitCode: null, done: false });
    expect(r.lines[0]).toMatch(/would be deactivated; the session stays open/);
  });
});

describe("progress", () => {
  it("formats durations", () => {
    expect([0, 59_400, 61_000, 3_600_000 + 62_000, Infinity].map(formatDuration)).toEqual(["0:00", "0:59", "1:01", "1:01:02", "--:--"]);
  });
  it("estimates rows/s and the time left from recent samples", () => {
    const m = new RateMeter(10_000);
    expect(m.estimate(1000)).toBeNull();
    m.add(0, 0, 0);
    m.add(1000, 500, 100);
    m.add(2000, 1000, 200);
    expect(m.estimate(1000)).toEqual({ rowsPerSecond: 500, etaMs: 8000 });
    m.add(30_000, 1500, 300); // old samples leave the window
    expect(m.estimate(1000)!.rowsPerSecond).toBeCloseTo(500 / 28, 5);
  });
  it("writes one line with rows, percentage, rate, ETA and counts", () => {
    expect(progressLine({ rows: 12_345, offset: 250, errors: 3, warnings: 1 }, 1000, { rowsPerSecond: 812.4, etaMs: 95_000 })).toBe(
      "12,345 rows (25.0%), 812 rows/s, ETA 1:35, 3 errors, 1 warnings",
    );
    expect(progressLine({ rows: 0, offset: 0, errors: 0, warnings: 0 }, 1000, null)).toBe("0 rows (0.0%), - rows/s, ETA --:--, 0 errors, 0 warnings");
  });
});

describe("resuming a snapshot run", () => {
  it("refuses another scope than the interrupted run's session has, before asking the server anything", async () => {
    const state: SyncState = {
      version: 1,
      runId: newRunId(),
      input: { path: "/x.csv", size: 1, mtimeMs: 1 },
      mappingHash: "",
      nextRow: 501,
      batches: 1,
      offset: 0,
      counts: zeroCounts(),
      errorsCsv: { path: "/x.errors.csv", bytes: 0 },
      session: { id: "s1", scope: { department: "Warehouse" } },
      done: false,
      startedAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    };
    const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("the server was asked")) }) as SessionsApi;
    await expect(ensureSession(unused, state, { department: "Stores" }, () => {})).rejects.toThrow(UsageError);
    await expect(ensureSession(unused, state, { department: "Stores" }, () => {})).rejects.toThrow(/has another scope .*--restart/);
    await expect(ensureSession(unused, state, { department: "Warehouse" }, () => {})).rejects.toThrow("the server was asked");
  });
});
