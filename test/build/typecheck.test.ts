import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/daemon.js";

it("type-checks the whole tree, tests included, without errors", () => {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
});
