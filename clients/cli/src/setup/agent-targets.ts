import fs from "node:fs";
import type { SetupTarget } from "./file-change.js";
import type { SetupLocations } from "./locations.js";

/** The agents setup wires memd into. */
export type AgentTarget = Exclude<SetupTarget, "service">;

interface AgentDescription {
  /** As the agent calls itself. */
  name: string;
  /** Paths any of which says the agent is installed here; the first is named when none exists. */
  installedAt(loc: SetupLocations): [string, ...string[]];
}

const AGENTS: Record<AgentTarget, AgentDescription> = {
  // A first `claude` run may write ~/.claude.json before ~/.claude exists.
  claude: { name: "Claude Code", installedAt: (loc) => [loc.claudeDir, loc.claudeJson] },
  codex: { name: "Codex", installedAt: (loc) => [loc.codexDir] },
  cursor: { name: "Cursor", installedAt: (loc) => [loc.cursorDir] },
  gemini: { name: "Gemini CLI", installedAt: (loc) => [loc.geminiDir] },
  copilot: { name: "Copilot CLI", installedAt: (loc) => [loc.copilotDir] },
  opencode: { name: "OpenCode", installedAt: (loc) => [loc.opencodeDir] },
};

export function agentName(target: AgentTarget): string {
  return AGENTS[target].name;
}

/** Whether the agent is installed on this machine, and the path that says so (or would). */
export function agentPresence(loc: SetupLocations, target: AgentTarget): { installed: boolean; where: string } {
  const paths = AGENTS[target].installedAt(loc);
  const found = paths.find((p) => fs.existsSync(p));
  return { installed: found !== undefined, where: found ?? paths[0] };
}
