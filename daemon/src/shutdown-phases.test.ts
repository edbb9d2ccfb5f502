import { describe, expect, it } from "vitest";
import { type ShutdownPhase, ShutdownPhases } from "./shutdown-phases.js";

describe("ShutdownPhases", () => {
  it("runs the phases in their order whatever order their steps were added in, the steps of a phase the last added first", async () => {
    const ran: string[] = [];
    const phases = new ShutdownPhases({ failed: () => undefined });
    phases.on("flush the log", () => void ran.push("flush"));
    phases.on("close the store", () => void ran.push("store"));
    phases.on("stop workers", () => void ran.push("embedder"));
    phases.on("stop workers", async () => {
      await Promise.resolve();
      ran.push("vault writer");
    });
    phases.on("stop accepting", () => void ran.push("listeners"));
    phases.on("release the lock", () => void ran.push("lock"));
    await phases.run();
    expect(ran).toEqual(["listeners", "vault writer", "embedder", "store", "flush", "lock"]);
  });

  it("reports a step that fails and still runs the rest, so the store closes and the lock is released", async () => {
    const ran: string[] = [];
    const failed: [ShutdownPhase, unknown][] = [];
    const phases = new ShutdownPhases({ failed: (phase, error) => failed.push([phase, error]) });
    const broken = new Error("the hub did not answer");
    phases.on("stop workers", () => {
      throw broken;
    });
    phases.on("close the store", () => void ran.push("store"));
    phases.on("release the lock", () => void ran.push("lock"));
    await phases.run();
    expect(failed).toEqual([["stop workers", broken]]);
    expect(ran).toEqual(["store", "lock"]);
  });

  it("runs each step once when shutdown is asked for twice", async () => {
    let closed = 0;
    const phases = new ShutdownPhases({ failed: () => undefined });
    phases.on("close the store", () => void (closed += 1));
    await Promise.all([phases.run(), phases.run()]);
    await phases.run();
    expect(closed).toBe(1);
  });
});
