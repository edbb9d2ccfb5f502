// Codex (@openai/codex, pinned in test/agents/package.json) run headless with `codex exec`
// against the scripted model server (OpenAI Responses), wired by the real `memctl setup`.
import { expect, it } from "vitest";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import { addMemory } from "./harness/memories.js";
import { describeAgent, openWorld } from "./harness/suite.js";

/** The conversation's requests (Responses with tools). */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/responses") && toolsOffered(r).length > 0);

describeAgent("codex", "memd through Codex's hooks, MCP server and skill", () => {
  commonCapabilities({
    agent: "codex",
    sourceAgent: "codex",
    turns,
    shell: (cmd) => ({ tool: "exec_command", input: { cmd } }),
    // Codex gives its MCP servers no session id: memd-mcp names one per process (one per session).
    mcpSession: () => /^mcp-[0-9a-f-]{36}$/,
  });

  it("setup trusts memd's hooks in config.toml and says so: without it codex exec would skip them", async () => {
    const world = await openWorld("codex");
    expect(world.setupOutput?.stdout).toContain("trust memd's 4 hooks ([hooks.state] trusted_hash), so that codex exec runs them");
  });

  it("runs $memd stats through memd's skill: memctl's answer reaches the model", async () => {
    const world = await openWorld("codex");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const probe = await world.run("$memd stats", [{ text: "Reading the skill." }]);
    const skill = requestText(turns(probe.requests)[0] as ModelRequest);
    expect(skill).toContain("<name>memd</name>");
    const command = /Run `(.+?) ACTION` in the shell/.exec(skill)?.[1];
    expect(command).toBeDefined();
    const run = await world.run("$memd stats", [{ tool: "exec_command", input: { cmd: `${command} stats` } }, { text: "Here are the stats." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(turns(run.requests)[1] as ModelRequest)).toMatch(/\b1 memories, database [\d.]+ MiB, schema v\d+/);
  });
});
