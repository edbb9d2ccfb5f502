import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/daemon.js";

// The web viewer's page has a project of its own: it is checked against the DOM, not Node.
it.each(["tsconfig.json", "clients/web/tsconfig.json"])("type-checks %s, tests included, without errors", (project) => {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", project, "--noEmit"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
});
