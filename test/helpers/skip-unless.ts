// Tests that skip where the machine lacks something, with the reason in their title; the reason
// comes from requirement() (requirement.ts), which throws instead under CI.
import { describe, it, type TestFunction } from "vitest";

const titled = (title: string, missing: string) => (missing === "" ? title : `${title} (skipped: ${missing})`);

/** A describe block that runs only when `missing` is "", and otherwise says in its title why it was skipped. */
export function describeUnless(missing: string, title: string, body: () => void): void {
  describe.skipIf(missing !== "")(titled(title, missing), body);
}

/** A test that runs only when `missing` is "", and otherwise says in its title why it was skipped. */
export function itUnless(missing: string, title: string, body: TestFunction): void {
  it.skipIf(missing !== "")(titled(title, missing), body);
}
