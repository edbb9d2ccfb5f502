// Codex (@openai/codex, pinned in test/agents/package.json) run headless with `codex exec`
// against the scripted model server (OpenAI Responses), wired by the real `memctl setup`.
import fs from "node:fs";
import path from "node:path";
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

  it("memctl doctor says whether Codex will run memd's hooks, and the real Codex agrees: trusted after setup, skipped once the user edits hooks.json", async () => {
    const world = await openWorld("codex");
    await addMemory(world, "We deploy the billing service with Argo CD from the deploy repo", "--kind", "decision");
    const briefed = async () => {
      const run = await world.run("Hello", [{ text: "Hi." }]);
      expect(run.code, run.stderr).toBe(0);
      return requestText(turns(run.requests)[0] as ModelRequest).includes("We deploy the billing service with Argo CD");
    };
    const doctor = () => world.memctl("doctor", "--only", "codex");

    const trusted = await doctor();
    expect(trusted.code, trusted.stdout).toBe(0);
    expect(trusted.stdout).toContain("codex     ok       Codex runs memd's 4 hooks: each is trusted in ~/.codex/config.toml as hooks.json now has it");
    expect(await briefed()).toBe(true);

    // The user puts a hook of their own before memd's SessionStart hook: Codex keys trust by position, so memd's is new to it.
    const hooksFile = path.join(world.home, ".codex", "hooks.json");
    const hooks = JSON.parse(fs.readFileSync(hooksFile, "utf8")) as { hooks: Record<string, unknown[]> };
    hooks.hooks.SessionStart?.unshift({ hooks: [{ type: "command", command: "true", timeout: 5 }] });
    fs.writeFileSync(hooksFile, `${JSON.stringify(hooks, null, 2)}\n`);
    const untrusted = await doctor();
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain("codex     problem  Codex skips 1 of memd's 4 hooks, and codex exec says nothing of it: SessionStart (never trusted)");
    expect(await briefed()).toBe(false);

    const setup = await world.memctl("setup", "--only", "codex");
    expect(setup.code, setup.stderr).toBe(0);
    expect((await doctor()).code).toBe(0);
    expect(await briefed()).toBe(true);
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
