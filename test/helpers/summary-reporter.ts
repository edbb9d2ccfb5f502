import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with the plain line CI reads: "N passed, N failed". A test file that fails
 * to load, and an unhandled error, each count as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      const moduleFailed = [...module.children.allTests("failed")].length;
      passed += [...module.children.allTests("passed")].length;
      skipped += [...module.children.allTests("skipped")].length;
      failed += moduleFailed;
      if (moduleFailed === 0 && module.state() === "failed") failed += 1;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : "";
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
