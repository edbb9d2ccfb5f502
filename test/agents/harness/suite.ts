import fs from "node:fs";
import path from "node:path";
import { inject, onTestFinished } from "vitest";
import type { CliResult } from "../../helpers/daemon.js";
import { describeUnless } from "../../helpers/skip-unless.js";
import { type AgentName, AGENTS } from "./agents.js";
import { type AgentWorld, createAgentWorld } from "./agent-world.js";

/**
 * A describe block for one agent's tests, skipped (with the reason in its title) where the
 * agents are not installed or cannot be isolated; in CI the global setup fails instead.
 */
export function describeAgent(agent: AgentName, title: string, body: () => void): void {
  describeUnless(inject("agentSuiteUnavailable"), `${AGENTS[agent].pkg}: ${title}`, body);
}

/** How memd is wired into the agent: memctl setup's command hooks, its http hooks (Claude Code with a login service), or not at all. */
export type Wiring = "command" | "http" | "none";

export interface WorldOptions {
  wiring?: Wiring;
  /** Start memd before the test (the default); false leaves it down. */
  daemon?: boolean;
  /** memd's embedder: none (keyword only, the default, so that no model competes for the cores) or local. */
  embedder?: "none" | "local";
}

/**
 * A fresh world for this test, wired by the real `memctl setup` as a new user would run it
 * (`--systemd no` keeps a developer's own systemd out of it; `http` writes the login service's
 * unit without starting it, since the test runs the daemon), torn down when the test ends.
 */
export async function openWorld(agent: AgentName, options: WorldOptions = {}): Promise<AgentWorld & { setupOutput: CliResult | null }> {
  const world = await createAgentWorld(agent);
  onTestFinished(() => world.dispose());
  const wiring = options.wiring ?? "command";
  let setupOutput: CliResult | null = null;
  if (wiring !== "none") {
    const args = wiring === "http" ? ["--only", `${AGENTS[agent].target},service`, "--no-start", "--platform", "linux", "--systemd", "yes"] : ["--systemd", "no"];
    setupOutput = await world.memctl("setup", ...args);
    if (setupOutput.code !== 0) throw new Error(`memctl setup failed (${setupOutput.code}): ${setupOutput.stdout}${setupOutput.stderr}`);
  }
  if (options.daemon !== false) await world.startDaemon(options.embedder);
  return Object.assign(world, { setupOutput });
}

/** The lines memd's hook shims logged (MEMD_HOME/logs/hooks.log), or "" when none. */
export function hooksLog(world: AgentWorld): string {
  const file = path.join(world.memdHome, "logs", "hooks.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}
