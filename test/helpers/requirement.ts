import { describe, it, type TestFunction } from "vitest";

/**
 * What a test needs from the machine that npm does not install. `missing` says what is absent
 * ("" when nothing is); `inCi` says how .ci/run provides it. Outside CI the answer is the reason
 * to skip with; under CI=true (.ci/run exports it) a missing requirement throws, so that a runner
 * without it fails rather than passing by skipping.
 */
export function requirement(missing: string | undefined, inCi: string): string {
  if (!missing) return "";
  if (process.env.CI) throw new Error(`${missing}, and CI must not skip the tests that need it: ${inCi}`);
  return missing;
}

const titled = (title: string, missing: string) => (missing === "" ? title : `${title} (skipped: ${missing})`);

/** A describe block that runs only when `missing` is "", and otherwise says in its title why it was skipped. */
export function describeUnless(missing: string, title: string, body: () => void): void {
  describe.skipIf(missing !== "")(titled(title, missing), body);
}

/** A test that runs only when `missing` is "", and otherwise says in its title why it was skipped. */
export function itUnless(missing: string, title: string, body: TestFunction): void {
  it.skipIf(missing !== "")(titled(title, missing), body);
}
