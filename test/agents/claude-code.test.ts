// Claude Code (@anthropic-ai/claude-code, pinned in test/agents/package.json) run headless
// against the scripted model server, wired by the real `memctl setup`: what memd puts in front
// of the model, and what it stores from the session.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import { mcpTool } from "./model-server/script.js";
import type { AgentWorld } from "./harness/agent-world.js";
import { addMemory, storedMemories } from "./harness/memories.js";
import { describeAgent, hooksLog, openWorld, type Wiring } from "./harness/suite.js";

/** The conversation's requests (Messages with tools), not Claude Code's side calls. */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/messages?") && toolsOffered(r).length > 0);
/** Claude Code's auto-memory folder for the world's project. */
const memoryDir = (world: AgentWorld) => path.join(world.home, ".claude", "projects", world.project.replace(/[^A-Za-z0-9]/g, "-"), "memory");

for (const wiring of ["command", "http"] as Wiring[]) {
  describeAgent("claude", `memd through Claude Code's ${wiring} hooks`, () => {
    it("briefs a new session: the project's decision reaches the model's first request", async () => {
      const world = await openWorld("claude", { wiring });
      await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
      const run = await world.run("Hello", [{ text: "Hi." }]);
      expect(run.code, run.stderr).toBe(0);
      expect(requestText(turns(run.requests)[0] as ModelRequest)).toContain("We deploy the billing service with Argo CD");
    });

    it("points the prompt at the memory it needs, by id", async () => {
      const world = await openWorld("claude", { wiring });
      const id = await addMemory(world, "To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker", "--kind", "procedure");
      const run = await world.run("How do I rotate the webhook signing secret?", [{ text: "Let me check." }]);
      expect(run.code, run.stderr).toBe(0);
      const text = requestText(turns(run.requests)[0] as ModelRequest);
      // The way to read one whole is a tool the agent has (memd-mcp's memory_search) or a real command.
      expect(text).toContain("memd has memories that bear on this prompt (full text: the memory_search tool with ids, or memctl recall --depth 2 --ids ID,...):");
      expect(text).toContain(id);
    });

    it("saves a failed shell command as a trace, even as the session's last tool call", async () => {
      const world = await openWorld("claude", { wiring });
      const run = await world.run("List the missing directory", [{ tool: "Bash", input: { command: "ls /nonexistent-dir-xyz", description: "List it" } }, { text: "It does not exist." }]);
      expect(run.code, run.stderr).toBe(0);
      const traces = await until(
        async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE"),
        (found) => found.length > 0,
      );
      expect(traces.map((m) => m.content)).toEqual([expect.stringContaining("Command failed: ls /nonexistent-dir-xyz")]);
    });

    it("sweeps the transcript at session end: a preference the user stated is saved", async () => {
      const world = await openWorld("claude", { wiring });
      const run = await world.run("From now on always use pnpm instead of npm in this repository.", [{ text: "Understood, pnpm it is." }]);
      expect(run.code, run.stderr).toBe(0);
      const saved = await until(
        () => storedMemories(world),
        (found) => found.some((m) => m.kind === "MEMORY_KIND_PREFERENCE"),
      );
      expect(saved.find((m) => m.kind === "MEMORY_KIND_PREFERENCE")).toMatchObject({ content: expect.stringContaining("pnpm"), sourceAgent: "claude-code" });
    });

    it("saves a memory note Claude Code writes", async () => {
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

describeAgent("claude", "memd's MCP server, command and failure modes in Claude Code", () => {
  it("proposes a proven preference as a Claude Code skill in the briefing", async () => {
    const world = await openWorld("claude");
    await addMemory(world, "Always run make lint before pushing a branch", "--kind", "preference", "--provenance", "human");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(turns(run.requests)[0] as ModelRequest)).toContain("Proven memories that could become Claude Code skills");
  });

  it("lists memd's MCP tools and calls memory_search through them", async () => {
    const world = await openWorld("claude");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("Which port does staging use?", [
      { tool: "ToolSearch", input: { query: "select:mcp__memd__memory_search", max_results: 1 } },
      { tool: mcpTool("memory_search"), input: { query: "staging database port" } },
      { text: "Port 5433." },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [first, , third] = turns(run.requests);
    expect(requestText(first as ModelRequest)).toContain("mcp__memd__memory_search");
    expect(toolsOffered(third as ModelRequest)).toContain("mcp__memd__memory_search");
    expect(requestText(third as ModelRequest)).toContain("The staging database listens on port 5433");
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

  it("fails open with memd down: the prompt still reaches the model, and hooks.log names the socket", async () => {
    const world = await openWorld("claude", { daemon: false });
    const run = await world.run("Hello while memd is down", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(turns(run.requests)[0] as ModelRequest)).toContain("Hello while memd is down");
    expect(hooksLog(world)).toContain(path.join(world.memdHome, "memd.sock"));
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
