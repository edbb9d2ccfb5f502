// Gemini CLI (@google/gemini-cli, pinned in test/agents/package.json) run headless with -p
// against the scripted model server (Gemini streamGenerateContent), wired by the real `memctl setup`.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "./model-server/model-server.js";
import { mcpTool } from "./model-server/script.js";
import { addMemory, storedMemories } from "./harness/memories.js";
import { describeAgent, hooksLog, openWorld } from "./harness/suite.js";

/** The conversation's requests (those offering tools), not Gemini CLI's side calls. */
const turns = (requests: readonly ModelRequest[]) => requests.filter((r) => /:streamGenerateContent/.test(r.path) && toolsOffered(r).length > 0);
const firstTurn = (requests: readonly ModelRequest[]) => requestText(turns(requests)[0] as ModelRequest);

describeAgent("gemini", "memd through Gemini CLI's hooks and MCP server", () => {
  it("briefs a new session: the project's decision reaches the model's first request", async () => {
    const world = await openWorld("gemini");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(firstTurn(run.requests)).toContain("We deploy the billing service with Argo CD");
  });

  it("points the prompt at the memory it needs, though Gemini puts the briefing in front of the prompt", async () => {
    const world = await openWorld("gemini");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const id = await addMemory(world, "To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker", "--kind", "procedure");
    const run = await world.run("How do I rotate the webhook signing secret?", [{ text: "Let me check." }]);
    expect(run.code, run.stderr).toBe(0);
    const text = firstTurn(run.requests);
    expect(text).toContain("memd has memories that bear on this prompt");
    expect(text).toContain(id);
  });

  it("lists memd's MCP tools and calls memory_search through them", async () => {
    const world = await openWorld("gemini");
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("Which port does staging use?", [{ tool: mcpTool("memory_search"), input: { query: "staging database port" } }, { text: "Port 5433." }]);
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = turns(run.requests);
    expect(toolsOffered(first as ModelRequest).some((name) => name.endsWith("memory_search"))).toBe(true);
    expect(requestText(second as ModelRequest)).toContain("The staging database listens on port 5433");
  });

  it("saves a failed shell command as a trace", async () => {
    const world = await openWorld("gemini");
    const run = await world.run("List the missing directory", [{ tool: "run_shell_command", input: { command: "ls /nonexistent-gemini-only-dir" } }, { text: "It does not exist." }]);
    expect(run.code, run.stderr).toBe(0);
    const traces = await until(
      async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE"),
      (found) => found.length > 0,
    );
    expect(traces.map((m) => m.content)).toEqual([expect.stringContaining("Command failed: ls /nonexistent-gemini-only-dir")]);
  });

  it("sweeps the chat at session end: the preference stated in the only prompt of gemini -p is saved", async () => {
    const world = await openWorld("gemini");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("From now on always use pnpm instead of npm in this repository.", [{ text: "Understood, pnpm it is." }]);
    expect(run.code, run.stderr).toBe(0);
    const saved = await until(
      () => storedMemories(world),
      (found) => found.some((m) => m.kind === "MEMORY_KIND_PREFERENCE"),
    );
    expect(saved.find((m) => m.kind === "MEMORY_KIND_PREFERENCE")).toMatchObject({ content: expect.stringContaining("pnpm"), sourceAgent: "gemini" });
  });

  it("sweeps a session once, at its end, however many turns it took", async () => {
    const world = await openWorld("gemini");
    const shell = (command: string) => ({ tool: "run_shell_command", input: { command } });
    const run = await world.run("List two directories.", [shell("ls /"), shell("ls /tmp"), { text: "Done." }]);
    expect(run.code, run.stderr).toBe(0);
    const log = path.join(world.memdHome, "logs", "memd.log");
    const sweeps = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"transcript swept"')) : []);
    // The SessionEnd sweep is the session's last: once it is logged, any other would be too.
    const logged = await until(sweeps, (lines) => lines.some((line) => line.includes('"trigger":"SessionEnd"')));
    expect(logged.map((line) => /"trigger":"(\w+)"/.exec(line)?.[1])).toEqual(["SessionEnd"]);
  });

  it("fails open with memd down: the prompt still reaches the model, and hooks.log names the socket", async () => {
    const world = await openWorld("gemini", { daemon: false });
    const run = await world.run("Hello while memd is down", [{ text: "Hi." }]);
    expect(run.code, run.stderr).toBe(0);
    expect(firstTurn(run.requests)).toContain("Hello while memd is down");
    expect(hooksLog(world)).toContain("memd is not running (nothing answers on");
  });

  it("saves through memd's MCP server with a session id (Gemini CLI gives its MCP servers none: memd-mcp names one per process)", async () => {
    const world = await openWorld("gemini");
    const run = await world.run("Remember the staging port.", [{ tool: mcpTool("memory_save"), input: { content: "The staging database listens on port 5433", kind: "fact" } }, { text: "Saved." }]);
    expect(run.code, run.stderr).toBe(0);
    const saved = (await storedMemories(world)).find((m) => m.content.includes("port 5433"));
    expect(saved?.sessionId).toMatch(/^mcp-[0-9a-f-]{36}$/);
  });
});
