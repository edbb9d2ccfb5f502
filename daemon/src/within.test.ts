import { describe, expect, it } from "vitest";
import { within } from "./within.js";

const after = <T>(ms: number, settle: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(settle()), ms));

describe("within", () => {
  it("gives the work's outcome when it settles within the wait", async () => {
    expect(await within(after(5, () => "vectors"), 1000, () => "late")).toBe("vectors");
  });

  it("gives what late gives once the wait is over first", async () => {
    expect(await within(after(200, () => "vectors"), 10, () => "late")).toBe("late");
  });

  it("fails with what late throws", async () => {
    const late = () => {
      throw new Error("did not arrive in time");
    };
    await expect(within(new Promise<string>(() => undefined), 10, late)).rejects.toThrow("did not arrive in time");
  });

  it("leaves no unhandled failure when the work fails after the wait", async () => {
    const failsLater = after(30, () => undefined).then(() => Promise.reject(new Error("embedder failed late")));
    expect(await within(failsLater, 5, () => "late")).toBe("late");
    // Vitest fails the run on an unhandled rejection: give the late failure time to surface.
    await after(60, () => undefined);
  });
});
