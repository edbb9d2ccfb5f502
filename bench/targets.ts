/**
 * What a bench run made of its targets. Each report prints `verdict`'s word beside a target, and
 * the script ends with `targetsExitCode`: with --check a missed target exits 1, so that a run
 * in CI or a script can fail on it; without, the run prints MISSED and exits 0 as before.
 * One run is one process, so the verdicts are kept here rather than threaded through every report.
 */
const missed = new Set<string>();

/** The parse option every bench script with targets takes. */
export const CHECK_OPTION = { check: { type: "boolean", default: false } } as const;

/** The line of a script's usage that explains --check. */
export const CHECK_USAGE = "--check exits 1 when a target was MISSED (everything is still measured and printed).";

/** "met" or "MISSED" for a target, remembering a miss under `target` (what was aimed for) for --check. */
export function verdict(met: boolean, target: string): "met" | "MISSED" {
  if (!met) missed.add(target);
  return met ? "met" : "MISSED";
}

/**
 * The exit code a script ends with once it has printed its reports: 1 when `check` is set and a
 * target was missed (each named on stderr), else 0.
 */
export function targetsExitCode(check: boolean): number {
  if (!check || missed.size === 0) return 0;
  process.stderr.write(`${missed.size} target${missed.size === 1 ? "" : "s"} MISSED:\n${[...missed].map((target) => `  ${target}`).join("\n")}\n`);
  return 1;
}
