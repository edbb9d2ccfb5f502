// The benchmarks' --check: a missed target fails the run, in the shared verdict (bench/targets.ts)
// and through the compiled scripts as npm runs them.
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseBenchOptions } from "../../bench/bench-options.js";
import { targetsExitCode, verdict } from "../../bench/targets.js";
import { REPO_ROOT, runCommand } from "../helpers/daemon.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("bench --check", () => {
  it("exits 0 while every target is met, and 1 under --check once one is missed, naming it", () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(verdict(true, "Save p50 <= 5 ms")).toBe("met");
    expect(targetsExitCode(true)).toBe(0);
    expect(verdict(false, "Search p50 <= 20 ms")).toBe("MISSED");
    expect(targetsExitCode(false)).toBe(0);
    expect(stderr).not.toHaveBeenCalled();
    expect(targetsExitCode(true)).toBe(1);
    expect(stderr).toHaveBeenCalledWith("1 target MISSED:\n  Search p50 <= 20 ms\n");
  });

  it("is an option of bench/run.js, off unless given", () => {
    expect(parseBenchOptions([])).toMatchObject({ check: false });
    expect(parseBenchOptions(["--check", "--only", "save"])).toMatchObject({ check: true });
  });

  it("fails bench:vectors on a target it cannot meet (4 dimensions recall too little), naming each row", async () => {
    const run = await runCommand(process.execPath, [`${REPO_ROOT}/dist/bench/vectors.js`, "--sizes", "1000", "--queries", "20", "--dimensions", "4", "--check"], { env: process.env, cwd: REPO_ROOT });
    const missedRows = run.stdout.split("\n").filter((line) => line.includes(": MISSED"));
    expect(missedRows.length).toBeGreaterThan(0);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${missedRows.length} target${missedRows.length === 1 ? "" : "s"} MISSED:\n  vectors at 1000, `);
  });

  it("fails bench:contradictions exactly when its report says MISSED", async () => {
    const script = `${REPO_ROOT}/dist/bench/contradictions.js`;
    const checked = await runCommand(process.execPath, [script, "--rules-only", "--check"], { env: process.env, cwd: REPO_ROOT });
    const missed = checked.stdout.includes("MISSED");
    expect(checked.stdout).toMatch(/Contradictions found by the rules alone/);
    expect({ code: checked.code, missed }).toEqual({ code: missed ? 1 : 0, missed });
    if (missed) expect(checked.stderr).toMatch(/targets? MISSED:\n {2}contradictions, the rules alone, /);
    const unchecked = await runCommand(process.execPath, [script, "--rules-only"], { env: process.env, cwd: REPO_ROOT });
    expect(unchecked.code).toBe(0);
  });
});
