import { configDefaults, defineConfig } from "vitest/config";

/** Integration tests run the compiled daemon and CLI: build them once before any test. */
const BUILD = "test/helpers/build-once.ts";
/** The real-agent suite (test/agents): the agent CLIs from npm against a scripted model server. */
const AGENT_TESTS = "test/agents/**/*.test.ts";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "memd",
          include: ["daemon/**/*.test.ts", "clients/**/*.test.ts", "hooks/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, AGENT_TESTS],
          globalSetup: [BUILD],
        },
      },
      {
        extends: true,
        test: {
          name: "agents",
          include: [AGENT_TESTS],
          // Installs the agents from test/agents/package-lock.json (npm ci) when they are not yet.
          globalSetup: [BUILD, "test/agents/harness/install-agents.ts"],
          testTimeout: 180_000,
        },
      },
    ],
  },
});
