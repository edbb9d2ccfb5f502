// OpenCode (opencode-ai, pinned in test/agents/package.json) run headless with `opencode run`
// against the scripted model server (chat completions, through a custom OpenAI-compatible
// provider), wired by the real `memctl setup`: memd's plugin, MCP server and /memd in OpenCode's
// config folder. What memd puts in front of the model, what it stores, and what uninstall leaves.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import type { AgentWorld } from "./harness/agent-world.js";
import { commonCapabilities } from "./harness/common-capabilities.js";
import { addMemory, storedMemories } from "./harness/memories.js";
import { describeAgent, hooksLog, openWorld } from "./harness/suite.js";

/** The conversation's requests (chat completions with tools), not OpenCode's title requests. */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => r.path.startsWith("/v1/chat/completions") && toolsOffered(r).length > 0);
const firstTurn = (requests: readonly ModelRequest[]) => turns(requests)[0] as ModelRequest;
/** The text of the user's messages in a chat completions request: the prompt and what memd's plugin added to it. */
const userText = (request: ModelRequest) =>
  requestText({ ...request, body: ((request.body as { messages?: { role: string }[] }).messages ?? []).filter((m) => m.role === "user") });
const configDir = (world: AgentWorld) => path.join(world.home, ".config", "opencode");

describeAgent("opencode", "memd through its OpenCode plugin, MCP server and /memd", () => {
  commonCapabilities({
    agent: "opencode",
    sourceAgent: "opencode",
    turns,
    shell: (command) => ({ tool: "bash", input: { command, description: "Run the command" } }),
    // OpenCode starts its MCP servers once per process and gives them no session id: memd-mcp names one.
    mcpSession: () => /^mcp-[0-9a-f-]{36}$/,
  });

  it("adds the briefing and the pointers to the user's message after the prompt, and the sweep leaves them out", async () => {
    const world = await openWorld("opencode");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const id = await addMemory(world, "To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker", "--kind", "procedure");
    const run = await world.run("How do I rotate the webhook signing secret? From now on always use pnpm instead of npm in this repository.", [{ text: "Let me check." }]);
    expect(run.code, run.stderr).toBe(0);
    const text = userText(firstTurn(run.requests));
    const prompt = text.indexOf("How do I rotate the webhook signing secret?");
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("We deploy the billing service with Argo CD")).toBeGreaterThan(prompt);
    expect(text.indexOf(`- ${id} (procedure)`)).toBeGreaterThan(text.indexOf("We deploy the billing service with Argo CD"));
    const saved = await until(
      () => storedMemories(world),
      (found) => found.some((m) => m.kind === "MEMORY_KIND_PREFERENCE"),
    );
    expect(saved.find((m) => m.kind === "MEMORY_KIND_PREFERENCE")).toMatchObject({ content: expect.stringContaining("pnpm"), sourceAgent: "opencode" });
    // Only the two memories memd was given: nothing was read back out of its own briefing or pointers.
    expect(saved.filter((m) => /Argo CD|rotate-webhook-secret/.test(m.content))).toHaveLength(2);
  });

  it("saves the bash tool's exit code in a failed command's trace, even as the session's last tool call", async () => {
    const world = await openWorld("opencode");
    const run = await world.run("List the missing directory", [{ tool: "bash", input: { command: "ls /nonexistent-opencode-dir", description: "List it" } }, { text: "It does not exist." }]);
    expect(run.code, run.stderr).toBe(0);
    const traces = await until(
      async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE"),
      (found) => found.length > 0,
    );
    expect(traces).toMatchObject([{ content: expect.stringMatching(/^Command failed: ls \/nonexistent-opencode-dir\nExit code 2\n.*No such file or directory/), sourceAgent: "opencode" }]);
  });

  it("runs /memd stats: memctl's answer reaches the model", async () => {
    const world = await openWorld("opencode");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("stats", [{ text: "Here are the stats." }], { extraArgs: ["--command", "memd"] });
    expect(run.code, run.stderr).toBe(0);
    const text = userText(firstTurn(run.requests));
    expect(text).toMatch(/\b1 memories, database [\d.]+ MiB, schema v\d+/);
    expect(text).not.toContain("Written by memctl setup");
  });

  it("fails open within its budget with memd hung: the prompt and a failed command go on, and the run ends", async () => {
    const world = await openWorld("opencode", { daemon: false });
    // A daemon that takes every connection and never answers.
    fs.mkdirSync(world.memdHome, { recursive: true, mode: 0o700 });
    const held = new Set<net.Socket>();
    const hung = net.createServer((socket) => held.add(socket.resume()));
    await new Promise<void>((resolve) => hung.listen(path.join(world.memdHome, "memd.sock"), resolve));
    onTestFinished(() => {
      for (const socket of held) socket.destroy();
      hung.close();
    });
    const run = await world.run("Hello while memd hangs", [{ tool: "bash", input: { command: "false", description: "Fail" } }, { text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(userText(firstTurn(run.requests))).toContain("Hello while memd hangs");
    expect(turns(run.requests)).toHaveLength(2);
    expect(hooksLog(world)).toMatch(/opencode chat\.message gave up after the 300 ms budget/);
  });

  it("after OpenCode has run, a second setup changes nothing and uninstall restores its config folder byte for byte", async () => {
    const world = await openWorld("opencode", { wiring: "none" });
    const config = path.join(configDir(world), "opencode.json");
    const before = fs.readFileSync(config, "utf8");
    expect((await world.memctl("setup", "--systemd", "no")).code).toBe(0);
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolsOffered(firstTurn(run.requests))).toContain("memd_memory_search");
    const again = await world.memctl("setup", "--systemd", "no", "--only", "opencode");
    expect(again.stdout).toContain("nothing to change");
    expect((await world.memctl("uninstall", "--only", "opencode")).code).toBe(0);
    expect(fs.readFileSync(config, "utf8")).toBe(before);
    expect(fs.existsSync(path.join(configDir(world), "plugins", "memd.js"))).toBe(false);
    expect(fs.existsSync(path.join(configDir(world), "commands", "memd.md"))).toBe(false);
  });
});
