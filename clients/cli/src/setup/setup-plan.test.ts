import { describe, expect, it } from "vitest";
import type { InstallPaths } from "./locations.js";
import { setupLocations } from "./locations.js";
import { SETUP_TARGETS } from "./file-change.js";
import { planFiles, setupPlan, uninstallPlan } from "./setup-plan.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/main.js", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };
const endpoint = { port: 7345, token: "a".repeat(64) };

describe("setup's plan", () => {
  it.each(["linux", "darwin", "win32"])("changes only files it read first, for every target, in setup and in uninstall (%s)", (platform) => {
    const locations = setupLocations({}, "/home/ada", platform);
    const agentsMdPath = "/home/ada/project/AGENTS.md";
    const files = planFiles(locations, SETUP_TARGETS, agentsMdPath);
    // No file exists yet: every target plans its whole setup, and its whole removal.
    const contents = new Map(files.map((file) => [file, null]));
    const input = { locations, targets: SETUP_TARGETS, contents, agentsMdPath, hookEndpoint: endpoint };
    const planned = [...setupPlan(input, paths, "Use memd."), ...uninstallPlan(input, paths.hook)];
    expect(planned.length).toBeGreaterThan(SETUP_TARGETS.length);
    expect(planned.map((change) => change.path).filter((file) => !files.includes(file))).toEqual([]);
  });
});
