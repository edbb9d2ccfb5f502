// Gemini CLI (@google/gemini-cli, pinned in test/agents/package.json) run headless with -p
// against the scripted model server (Gemini streamGenerateContent), wired by the real `memctl setup`.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, toolsOffered } from "./model-server/model-server.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import { settledMemories, storedMemories } from "./harness/memories.js";
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

  it("keeps a failed command on a new path apart from an older one on another: both traces stay findable", async () => {
    // With memd's own embedding model: the two traces are near-identical in meaning (cosine 0.97).
    const world = await openWorld("gemini", { embedder: "local" });
    const traces = async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE");
    const first = await world.run("List the missing directory", [shell("ls /nonexistent-dir-xyz"), { text: "It does not exist." }]);
    expect(first.code, first.stderr).toBe(0);
    await until(traces, (found) => found.length === 1);
    const second = await world.run("List the other missing directory", [shell("ls /nonexistent-gemini-only-dir"), { text: "That one neither." }]);
    expect(second.code, second.stderr).toBe(0);
    const saved = await until(
      () => settledMemories(world),
      (found) => found.some((m) => m.content.includes("ls /nonexistent-gemini-only-dir")),
    );
    const newer = saved.find((m) => m.content.includes("Command failed: ls /nonexistent-gemini-only-dir"));
    expect(newer).toMatchObject({ kind: "MEMORY_KIND_TRACE", status: "MEMORY_STATUS_ACTIVE" });
    const found = await world.memctlJson<{ memory: { id: string } }[]>("search", "nonexistent-gemini-only-dir");
    expect(found.map((r) => r.memory.id)).toContain(newer?.id);
  });
});
