import { describe, expect, it } from "vitest";
import { until } from "@insp/testing";
import { launcherSuite, portOpen } from "./launcher.fixtures.ts";

/**
 * `npm start` killed with SIGKILL (docs/local-development.md, Stopping, crashing, starting again):
 * its apps stop by themselves, the embedded servers it leaves are stopped by the next start,
 * which comes up on the same data.
 */
const suite = launcherSuite();

describe("a launcher that crashes", () => {
  it("killed with SIGKILL takes its apps with it, and the next start stops the servers it left and comes up", async () => {
    const first = suite.launch();
    const demo = await suite.firstStart(first);
    first.child.kill("SIGKILL");
    // The apps see the launcher's IPC channel close and stop: the API's port is free again.
    await until(
      "the API to stop",
      () => portOpen(Number(suite.env().PORT)),
      (open) => !open,
      30_000,
    );

    const second = suite.launch();
    await suite.ready(second);
    expect(second.output()).toMatch(/stopping the embedded Postgres left running by an earlier start/);
    expect(second.output()).toMatch(/stopping the embedded Redis left running by an earlier start/);
    expect(second.output()).not.toContain("Empty database");
    expect((await suite.get("/api/inspections", demo.apiKey)).inspections.length).toBe(3);
    await suite.stopped(second);
  });
});
