// Claude Code (@anthropic-ai/claude-code, pinned in test/agents/package.json) run headless
// against the scripted model server, wired by the real `memctl setup`: what memd puts in front
// of the model, and what it stores from the session.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import type { AgentWorld } from "./harness/agent-world.js";
import { addMemory, storedMemories } from "./harness/memories.js";
import { describeAgent, openWorld, type Wiring } from "./harness/suite.js";

/** The conversation's requests (Messages with tools), not Claude Code's side calls. */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/messages?") && toolsOffered(r).length > 0);
/** Claude Code's auto-memory folder for the world's project. */
const memoryDir = (world: AgentWorld) => path.join(world.home, ".claude", "projects", world.project.replace(/[^A-Za-z0-9]/g, "-"), "memory");

for (const wiring of ["command", "http"] as Wiring[]) {
  describeAgent("claude", `memd through Claude Code's ${wiring} hooks`, () => {
    commonCapabilities({
      agent: "claude",
      sourceAgent: "claude-code",
      wiring,
      turns,
      shell: (command) => ({ tool: "Bash", input: { command, description: "Run it" } }),
      // MCP tools are deferred: listed by name until the model loads them with ToolSearch.
      mcpPrelude: (tool) => [{ tool: "ToolSearch", input: { query: `select:mcp__memd__${tool}`, max_results: 1 } }],
      // Claude Code gives stdio servers its session id (CLAUDE_CODE_SESSION_ID), the one its hooks send.
      mcpSession: (_world, run) => (JSON.parse(run.stdout.split("\n")[0] ?? "{}") as { session_id?: string }).session_id ?? "",
    });

    it("saves a memory note Claude Code writes, even as the session's last tool call", async () => {
      const world = await openWorld("claude", { wiring });
      const note = path.join(memoryDir(world), "feedback_pnpm.md");
      const content = "---\nname: pnpm only\ndescription: the user wants pnpm\ntype: feedback\n---\nUse pnpm, never npm, in this repository.\n";
      const run = await world.run("Remember that I want pnpm.", [{ tool: "Write", input: { file_path: note, content } }, { text: "Noted." }]);
      expect(run.code, run.stderr).toBe(0);
      const saved = await until(
        () => storedMemories(world),
        (found) => found.some((m) => m.content.includes("Use pnpm, never npm")),
      );
      expect(saved.find((m) => m.content.includes("Use pnpm, never npm"))).toMatchObject({ kind: "MEMORY_KIND_PREFERENCE", sourceAgent: "claude-code" });
    });
  });
}

describeAgent("claude", "memd's command, notes and skill proposals in Claude Code", () => {
  it("proposes no skill from a preference a person stated minutes ago: it has not been used across sessions yet", async () => {
    const world = await openWorld("claude");
    await addMemory(world, "Always run make lint before pushing a branch", "--kind", "preference", "--provenance", "human");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    const text = requestText(turns(run.requests)[0] as ModelRequest);
    expect(text).toContain("Always run make lint before pushing a branch");
    expect(text).not.toContain("Claude Code skills");
  });

  it("runs /memd stats: memctl's answer reaches the model", async () => {
    const world = await openWorld("claude");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("/memd stats", [{ text: "Here are the stats." }]);
    expect(run.code, run.stderr).toBe(0);
    const text = requestText(turns(run.requests)[0] as ModelRequest);
    expect(text).toMatch(/\b1 memories, database [\d.]+ MiB, schema v\d+/);
    expect(text).not.toContain("Written by memctl setup");
  });

  it("saves a memory note Claude Code edits", async () => {
    const world = await openWorld("claude");
    const note = path.join(memoryDir(world), "project_deploys.md");
    fs.mkdirSync(path.dirname(note), { recursive: true });
    fs.writeFileSync(note, "---\nname: deploys\ndescription: how we deploy\ntype: project\n---\nWe deploy on Fridays.\n");
    const run = await world.run("We no longer deploy on Fridays; update the note.", [
      { tool: "Read", input: { file_path: note } },
      { tool: "Edit", input: { file_path: note, old_string: "We deploy on Fridays.", new_string: "We decided to deploy on Tuesdays instead of Fridays." } },
      { text: "Updated." },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const saved = await until(
      () => storedMemories(world),
      (found) => found.some((m) => m.content.includes("deploy on Tuesdays")),
    );
    expect(saved.map((m) => m.content)).toContain("We decided to deploy on Tuesdays instead of Fridays.");
  });
});
