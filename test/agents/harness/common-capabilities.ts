import path from "node:path";
import { expect, it } from "vitest";
import { until } from "../../helpers/until.js";
import { type ModelRequest, requestText, toolsOffered } from "../model-server/model-server.js";
import { mcpTool, type Turn } from "../model-server/script.js";
import type { AgentName } from "./agents.js";
import type { AgentRun, AgentWorld } from "./agent-world.js";
import { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { addMemory, importProvenMemory, recordedInjections, storedMemories } from "./memories.js";
import { o200kTokens } from "../../../daemon/src/injections/token-count.js";
import { hooksLog, openWorld, type Wiring } from "./suite.js";

/** How one agent's tests differ: the rest of each capability's test is the same for every agent. */
export interface AgentTestSpec {
  agent: AgentName;
  /** The agent's name on what memd stores from it (source_agent). */
  sourceAgent: string;
  wiring?: Wiring;
  /** The conversation's requests, without the agent's side calls (titles, classifiers). */
  turns(requests: readonly ModelRequest[]): ModelRequest[];
  /** A call of the agent's own shell tool. */
  shell(command: string): Turn;
  /** Turns the model needs before it can call an MCP tool (Claude Code loads deferred tools with ToolSearch). */
  mcpPrelude?: (tool: string) => Turn[];
  /** The session id a save through memd-mcp should carry. */
  mcpSession(world: AgentWorld, run: AgentRun): string | RegExp;
}

/**
 * The capabilities memd claims for every agent, each a test on what reached the model's requests
 * and what memd stored: briefing, pointers, MCP tools listed and called (and their saves' session),
 * a failed shell command's trace, the transcript sweep, and failing open with memd down.
 */
export function commonCapabilities(spec: AgentTestSpec): void {
  const { agent } = spec;
  const open = (daemon = true) => openWorld(agent, { wiring: spec.wiring, daemon });
  const firstTurn = (run: AgentRun) => requestText(spec.turns(run.requests)[0] as ModelRequest);
  const ran = (run: AgentRun) => expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  /**
   * Every injection memd gave in the run reached the model, and `memctl injections` has it with
   * its tokens (o200k_base's count of the text recorded): a briefing's or the pointers' text line
   * by line, and a recall's memories, each with its id and line as memory_search showed them.
   */
  const expectInjectionsRecorded = async (world: AgentWorld, run: AgentRun, kinds: readonly string[]) => {
    const given = (await recordedInjections(world)).filter((i) => (i.tokens ?? 0) > 0);
    expect(given.map((i) => i.kind)).toEqual(expect.arrayContaining(kinds.map((kind) => `INJECTION_KIND_${kind.toUpperCase()}`)));
    const sent = spec.turns(run.requests).map(requestText).join("\n");
    for (const injection of given) {
      expect(injection.tokens, `${injection.via}: ${injection.text}`).toBe(o200kTokens(injection.text ?? ""));
      if (injection.kind === "INJECTION_KIND_RECALL") {
        for (const m of injection.memories ?? []) expect(sent, injection.via).toContain(m.line);
        for (const m of injection.memories ?? []) expect(sent, injection.via).toContain(m.memoryId);
      } else {
        expect(injection.agent).toBe(spec.sourceAgent);
        for (const line of (injection.text ?? "").split("\n").map((l) => l.trim()).filter(Boolean)) expect(sent, injection.via).toContain(line);
      }
    }
  };

  it("briefs a new session: the project's decision reaches the model's first request", async () => {
    const world = await open();
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("Hello", [{ text: "Hi." }]);
    ran(run);
    expect(firstTurn(run)).toContain("We deploy the billing service with Argo CD");
    await expectInjectionsRecorded(world, run, ["briefing"]);
  });

  it("points the prompt at the memory it needs, by id, with a way to read it whole that exists", async () => {
    const world = await open();
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const id = await addMemory(world, "To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker", "--kind", "procedure");
    const run = await world.run("How do I rotate the webhook signing secret?", [{ text: "Let me check." }]);
    ran(run);
    const text = firstTurn(run);
    expect(text).toContain("memd has memories that bear on this prompt (full text: the memory_search tool with ids, or memctl recall --depth 2 --ids ID,...):");
    expect(text).toContain(`- ${id} (procedure)`);
    await expectInjectionsRecorded(world, run, ["briefing", "pointers"]);
  });

  it("lists memd's MCP tools and calls memory_search through them", async () => {
    const world = await open();
    await addMemory(world, "The staging database listens on port 5433", "--kind", "fact");
    const run = await world.run("Which port does staging use?", [...(spec.mcpPrelude?.("memory_search") ?? []), { tool: mcpTool("memory_search"), input: { query: "staging database port" } }, { text: "Port 5433." }]);
    ran(run);
    const turns = spec.turns(run.requests);
    expect([...toolsOffered(turns[0] as ModelRequest), firstTurn(run)].join("\n")).toMatch(/memd\S*memory_search/);
    expect(requestText(turns.at(-1) as ModelRequest)).toContain("The staging database listens on port 5433");
    await expectInjectionsRecorded(world, run, ["recall"]);
  });

  it("saves through memd's MCP server with the session's id", async () => {
    const world = await open();
    const run = await world.run("Remember the staging port.", [...(spec.mcpPrelude?.("memory_save") ?? []), { tool: mcpTool("memory_save"), input: { content: "The staging database listens on port 5433", kind: "fact" } }, { text: "Saved." }]);
    ran(run);
    const saved = (await storedMemories(world)).find((m) => m.content.includes("port 5433"));
    const expected = spec.mcpSession(world, run);
    if (typeof expected === "string") expect(saved?.sessionId).toBe(expected);
    else expect(saved?.sessionId).toMatch(expected);
  });

  it("saves a failed shell command as a trace", async () => {
    const world = await open();
    const command = `ls /nonexistent-${agent}-dir`;
    const run = await world.run("List the missing directory", [spec.shell(command), { text: "It does not exist." }]);
    ran(run);
    const traces = await until(
      async () => (await storedMemories(world)).filter((m) => m.kind === "MEMORY_KIND_TRACE"),
      (found) => found.length > 0,
    );
    expect(traces.map((m) => m.content)).toEqual([expect.stringContaining(`Command failed: ${command}`)]);
  });

  it("sweeps the transcript: a preference the user stated in the prompt is saved", async () => {
    const world = await open();
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const run = await world.run("From now on always use pnpm instead of npm in this repository.", [{ text: "Understood, pnpm it is." }]);
    ran(run);
    const saved = await until(
      () => storedMemories(world),
      (found) => found.some((m) => m.kind === "MEMORY_KIND_PREFERENCE"),
    );
    expect(saved.find((m) => m.kind === "MEMORY_KIND_PREFERENCE")).toMatchObject({ content: "Always use pnpm instead of npm in this repository.", sourceAgent: spec.sourceAgent });
  });

  // A proven preference: stated ten days ago and read back since. Skills are Claude Code's.
  const proposes = agent === "claude";
  it(proposes ? "proposes a proven preference as a Claude Code skill in the briefing" : "offers no Claude Code skill proposals in the briefing, even for a proven preference", async () => {
    const world = await open();
    const id = await importProvenMemory(world, "Always run make lint before pushing a branch", MemoryKind.PREFERENCE);
    const run = await world.run("Hello", [{ text: "Hi." }]);
    ran(run);
    const text = firstTurn(run);
    expect(text).toContain("Always run make lint before pushing a branch");
    if (proposes) expect(text).toContain(`Proven memories that could become Claude Code skills`);
    expect(text.includes(`memctl skills approve ${id}`)).toBe(proposes);
  });

  it("fails open with memd down: the prompt still reaches the model, and hooks.log names the socket", async () => {
    const world = await open(false);
    const run = await world.run("Hello while memd is down", [{ text: "Hi." }]);
    ran(run);
    expect(firstTurn(run)).toContain("Hello while memd is down");
    expect(hooksLog(world)).toContain(`memd is not running (nothing answers on ${path.join(world.memdHome, "memd.sock")})`);
  });
}
