import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["daemon/**/*.test.ts", "clients/**/*.test.ts", "hooks/**/*.test.ts", "test/**/*.test.ts"],
    // Integration tests run the compiled daemon and CLI: build them once before any test.
    globalSetup: ["test/helpers/build-once.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
  },
});
