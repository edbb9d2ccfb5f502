import { describe, expect, it } from "vitest";
import { WakeableSleep } from "./wakeable-sleep.js";

describe("WakeableSleep", () => {
  it("ends a pause early when woken, and otherwise after its time", async () => {
    const pause = new WakeableSleep();
    const started = performance.now();
    const sleeping = pause.sleep(10_000);
    pause.wake();
    await sleeping;
    expect(performance.now() - started).toBeLessThan(1_000);
    const timed = performance.now();
    await pause.sleep(20);
    expect(performance.now() - timed).toBeGreaterThanOrEqual(15);
  });

  it("keeps a wake that came while nothing slept for the next pause, once", async () => {
    const pause = new WakeableSleep();
    pause.wake();
    pause.wake();
    const started = performance.now();
    await pause.sleep(10_000);
    expect(performance.now() - started).toBeLessThan(1_000);
    const timed = performance.now();
    await pause.sleep(20);
    expect(performance.now() - timed).toBeGreaterThanOrEqual(15);
  });
});
