// Gemini CLI (@google/gemini-cli, pinned in test/agents/package.json) run headless with -p
// against the scripted model server (Gemini streamGenerateContent), wired by the real `memctl setup`.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, toolsOffered } from "./model-server/model-server.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import { describeAgent, openWorld } from "./harness/suite.js";

const shell = (command: string) => ({ tool: "run_shell_command", input: { command } });

describeAgent("gemini", "memd through Gemini CLI's hooks and MCP server", () => {
  // Gemini puts the SessionStart briefing in front of the prompt (<hook_context>): the pointer and
  // sweep tests, which brief first, show that memd reads the user's words behind it.
  commonCapabilities({
    agent: "gemini",
    sourceAgent: "gemini",
    turns: (requests: readonly ModelRequest[]) => requests.filter((r) => /:streamGenerateContent/.test(r.path) && toolsOffered(r).length > 0),
    shell,
    // Gemini CLI gives its MCP servers no session id: memd-mcp names one per process (one per session).
    mcpSession: () => /^mcp-[0-9a-f-]{36}$/,
  });

  it("sweeps a session once, at its end, however many turns it took", async () => {
    const world = await openWorld("gemini");
    const run = await world.run("List two directories.", [shell("ls /"), shell("ls /tmp"), { text: "Done." }]);
    expect(run.code, run.stderr).toBe(0);
    const log = path.join(world.memdHome, "logs", "memd.log");
    const sweeps = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"transcript swept"')) : []);
    // The SessionEnd sweep is the session's last: once it is logged, any other would be too.
    const logged = await until(sweeps, (lines) => lines.some((line) => line.includes('"trigger":"SessionEnd"')));
    expect(logged.map((line) => /"trigger":"(\w+)"/.exec(line)?.[1])).toEqual(["SessionEnd"]);
  });
});
