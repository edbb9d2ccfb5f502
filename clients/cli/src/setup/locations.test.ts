import { describe, expect, it } from "vitest";
import { type InstallPaths, missingEntryPoints } from "./locations.js";

const paths: InstallPaths = { node: "/usr/bin/node", daemon: "/opt/memd/dist/daemon/src/main.js", mcp: "/opt/memd/dist/clients/mcp/src/memd-mcp.mjs", hook: "/opt/memd/dist/hooks/src/main.js", shim: "/opt/memd/hooks/memd-hook.sh", cli: "/opt/memd/dist/clients/cli/src/main.js" };

describe("installed entry points", () => {
  it("names each of the MCP bundle, the hook script, the curl shim, the daemon and the OpenCode plugin that does not exist", () => {
    expect(missingEntryPoints(paths, (file) => file === paths.daemon)).toEqual([paths.mcp, paths.hook, paths.shim, "/opt/memd/dist/hooks/src/opencode-plugin.js"]);
    expect(missingEntryPoints(paths, () => true)).toEqual([]);
  });
});
