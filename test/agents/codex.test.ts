// Codex (@openai/codex, pinned in test/agents/package.json) run headless with `codex exec`
// against the scripted model server (OpenAI Responses), wired by the real `memctl setup`.
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import { mcpTool } from "./model-server/script.js";
import { addMemory, storedMemories } from "./harness/memories.js";
import { describeAgent, hooksLog, openWorld } from "./harness/suite.js";

/** The conversation's requests (Responses with tools). */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/responses") && toolsOffered(r).length > 0);
const firstTurn = (requests: readonly ModelRequest[]) => requestText(turns(requests)[0] as ModelRequest);

describeAgent("codex", "memd through Codex's hooks, MCP server and skill", () => {
  it("setup trusts memd's hooks, so codex exec runs them: the briefing reaches the model", async () => {
    const world = await openWorld("codex");
    expect(world.setupOutput?.stdout).toContain("trust memd's 4 hooks");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(firstTurn(run.requests)).toContain("We deploy the billing service with Argo CD");
  });

  it("offers no Claude Code skill proposals in Codex's briefing", async () => {
    const world = await openWorld("codex");
    await addMemory(world, "Always run make lint before pushing a branch", "--kind", "preference", "--provenance", "human");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    const text = firstTurn(run.requests);
    expect(text).toContain("Always run make lint before pushing a branch");
    expect(text).not.toContain("Claude Code skills");
  });

  it("points the prompt at the memory it needs, by id", async () => {
    const world = await openWorld("codex");
    const id = await addMemory(world, "To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker", "--kind", "procedure");
    const run = await world.run("How do I rotate the webhook signing secret?", [{ text: "Let me check." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(firstTurn(run.requests)).toContain(id);
  });

  it("lists memd's MCP tools and calls memory_search through them", async () => {
    const world = await openWorld("codex");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("Which port does staging use?", [{ tool: mcpTool("memory_search"), input: { query: "staging database port" } }, { text: "Port 5433." }]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = turns(run.requests);
    expect(toolsOffered(first as ModelRequest)).toContain("mcp__memd__memory_search");
    expect(requestText(second as ModelRequest)).toContain("The staging database listens on port 5433");
  });

  it("saves a failed shell command as a trace, read from the rollout at the turn's end", async () => {
    const world = await openWorld("codex");
    const run = await world.run("List the missing directory", [{ tool: "exec_command", input: { cmd: "ls /nonexistent-dir-xyz" } }, { text: "It does not exist." }]);
    expect(run.code, run.stderr).toBe(0);
    const traces = await until(
      async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE"),
      (found) => found.length > 0,
    );
    expect(traces.map((m) => m.content)).toEqual([expect.stringContaining("Command failed: ls /nonexistent-dir-xyz")]);
  });

  it("sweeps the rollout at the turn's end: a preference the user stated is saved", async () => {
    const world = await openWorld("codex");
    const run = await world.run("From now on always use pnpm instead of npm in this repository.", [{ text: "Understood, pnpm it is." }]);
    expect(run.code, run.stderr).toBe(0);
    const saved = await until(
      () => storedMemories(world),
      (found) => found.some((m) => m.kind === "MEMORY_KIND_PREFERENCE"),
    );
    expect(saved.find((m) => m.kind === "MEMORY_KIND_PREFERENCE")).toMatchObject({ content: expect.stringContaining("pnpm"), sourceAgent: "codex" });
  });

  it("runs $memd stats through memd's skill: memctl's answer reaches the model", async () => {
    const world = await openWorld("codex");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const skillRun = (cmd: string) => [{ tool: "exec_command", input: { cmd } }, { text: "Here are the stats." }];
    const probe = await world.run("$memd stats", [{ text: "Reading the skill." }]);
    const skill = firstTurn(probe.requests);
    expect(skill).toContain("<name>memd</name>");
    const command = /Run `(.+?) ACTION` in the shell/.exec(skill)?.[1];
    expect(command).toBeDefined();
    const run = await world.run("$memd stats", skillRun(`${command} stats`));
    expect(run.code, run.stderr).toBe(0);
    expect(requestText(turns(run.requests)[1] as ModelRequest)).toMatch(/\b1 memories, database [\d.]+ MiB, schema v\d+/);
  });

  it("fails open with memd down: the prompt still reaches the model, and hooks.log names the socket", async () => {
    const world = await openWorld("codex", { daemon: false });
    const run = await world.run("Hello while memd is down", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(firstTurn(run.requests)).toContain("Hello while memd is down");
    expect(hooksLog(world)).toContain("memd is not running (nothing answers on");
  });

  it("saves through memd's MCP server with a session id (Codex gives its MCP servers none: memd-mcp names one per process)", async () => {
    const world = await openWorld("codex");
    const run = await world.run("Remember the staging port.", [{ tool: mcpTool("memory_save"), input: { content: "The staging database listens on port 5433", kind: "fact" } }, { text: "Saved." }]);
    expect(run.code, run.stderr).toBe(0);
    const saved = (await storedMemories(world)).find((m) => m.content.includes("port 5433"));
    expect(saved?.sessionId).toMatch(/^mcp-[0-9a-f-]{36}$/);
  });
});
