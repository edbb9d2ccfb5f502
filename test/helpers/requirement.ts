/**
 * What a test needs from the machine that npm does not install. `missing` says what is absent
 * ("" when nothing is); `inCi` says how .ci/run provides it. Outside CI the answer is the reason
 * to skip with; under CI=true (.ci/run exports it) a missing requirement throws, so that a runner
 * without it fails rather than passing by skipping. Free of vitest: the benchmarks import it too
 * (through postgres.ts).
 */
export function requirement(missing: string | undefined, inCi: string): string {
  if (!missing) return "";
  if (process.env.CI) throw new Error(`${missing}, and CI must not skip the tests that need it: ${inCi}`);
  return missing;
}
