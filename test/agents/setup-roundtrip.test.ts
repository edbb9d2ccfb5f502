// memctl setup and uninstall over a home where Claude Code, Codex, Gemini CLI, Copilot CLI and
// OpenCode are configured the way the real-agent suite runs them: a second setup changes nothing, and
// uninstall gives every file back byte for byte.
import fs from "node:fs";
import path from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { AGENTS, type AgentName } from "./harness/agents.js";
import { createAgentWorld } from "./harness/agent-world.js";
import { describeAgent } from "./harness/suite.js";

/** Every file under `dir` with its bytes, backups left out (setup writes them beside what it changes). */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.includes(".memd-backup-")) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
  }
  return files;
}

for (const wiring of ["command", "http"] as const) {
  describeAgent("claude", `memctl setup and uninstall for the five agents (${wiring} hooks for Claude Code)`, () => {
    it("changes nothing the second time and restores every agent's files byte for byte", async () => {
      const world = await createAgentWorld("claude");
      onTestFinished(() => world.dispose());
      for (const agent of Object.keys(AGENTS) as AgentName[]) AGENTS[agent].prepare(world);
      const before = snapshot(world.home);
      const args = wiring === "http" ? ["--no-start", "--platform", "linux", "--systemd", "yes"] : ["--systemd", "no"];

      const first = await world.memctl("setup", ...args);
      expect(first.code, first.stderr).toBe(0);
      for (const target of ["claude", "codex", "gemini", "copilot", "opencode"]) expect(first.stdout).toMatch(new RegExp(`^${target} `, "m"));
      const wired = snapshot(world.home);
      expect([...wired.keys()].filter((file) => !before.has(file)).sort()).toEqual(
        [
          ".claude/commands/memd.md",
          ".claude/settings.json",
          ".codex/hooks.json",
          ".codex/skills/memd/SKILL.md",
          ".config/opencode/commands/memd.md",
          ".config/opencode/plugins/memd.js",
          ".copilot/hooks/memd.json",
          ".copilot/mcp-config.json",
          ...(wiring === "http" ? [".config/systemd/user/memd.service", ".memd/hook-token", ".memd/listen"] : []),
        ].sort(),
      );

      const second = await world.memctl("setup", ...args);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("nothing to change");
      expect(snapshot(world.home)).toEqual(wired);

      const removed = await world.memctl("uninstall", ...args);
      expect(removed.code, removed.stderr).toBe(0);
      const after = snapshot(world.home);
      // The hook token is the daemon's own (it makes one whenever it listens): uninstall leaves it.
      after.delete(".memd/hook-token");
      expect(after).toEqual(before);
    });
  });
}
