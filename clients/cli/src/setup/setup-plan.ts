import { planAgentsMd, planAgentsMdRemoval } from "./agents-md.js";
import { type HttpHookEndpoint, planClaudeHooks, planClaudeHooksRemoval } from "./claude-settings.js";
import { copilotHooksText, planCopilotHooks } from "./copilot-hooks.js";
import { planCursorHooks } from "./cursor-hooks.js";
import { planGeminiHooks, planGeminiHooksRemoval } from "./gemini-hooks.js";
import { planHookEndpoint, planHookEndpointRemoval } from "./hook-endpoint.js";
import { claudeCommandText, codexSkillText, openCodeCommandText, planCommandFile } from "./memd-command.js";
import { planCodexHooks, planCodexHooksRemoval } from "./codex-hooks.js";
import { planCodexConfig, planCodexConfigRemoval } from "./codex-toml.js";
import { memdHookTrust, withCodexHookTrust } from "./codex-hook-trust.js";
import type { InstallPaths, SetupLocations } from "./locations.js";
import { planLoginService } from "./login-service.js";
import { claudeMcpEntry, copilotMcpEntry, cursorMcpEntry, planMcpServer } from "./mcp-json.js";
import { openCodeMcpEntry, openCodePluginText, planOpenCodeConfig, planOpenCodePlugin } from "./opencode.js";
import { combineChanges, type FileChange, type SetupTarget } from "./plan.js";

export interface PlanInput {
  locations: SetupLocations;
  targets: readonly SetupTarget[];
  /** The current content of every file in planFiles (null when it does not exist). */
  contents: ReadonlyMap<string, string | null>;
  agentsMdPath?: string;
  /** Where Claude Code's http hooks reach the daemon, when a login service keeps it running; command hooks otherwise. */
  hookEndpoint?: HttpHookEndpoint;
}

/** The files a plan reads, so that the caller can read them all first. */
export function planFiles(locations: SetupLocations, targets: readonly SetupTarget[], agentsMdPath?: string): string[] {
  const files: string[] = [];
  if (targets.includes("claude")) {
    files.push(locations.claudeSettings, locations.claudeJson, locations.hookEndpoint.listenFile, locations.hookEndpoint.tokenFile, locations.claudeCommand);
  }
  if (targets.includes("codex")) files.push(locations.codexConfig, locations.codexHooks, locations.codexSkill, locations.codexLegacyPrompt);
  if (targets.includes("cursor")) files.push(locations.cursorMcp, locations.cursorHooks);
  if (targets.includes("gemini")) files.push(locations.geminiSettings);
  if (targets.includes("copilot")) files.push(locations.copilotHooks, locations.copilotMcp);
  if (targets.includes("opencode")) files.push(locations.opencodeConfig, locations.opencodePlugin, locations.opencodeCommand);
  if (targets.includes("service") && locations.platform !== null) {
    files.push(locations.platform === "linux" ? locations.systemdUnit : locations.launchAgent);
  }
  if (agentsMdPath !== undefined) files.push(agentsMdPath);
  return files;
}

/**
 * Every change setup (paths and agentsMdBody given) or uninstall (neither given) makes, in the
 * order they are applied. Pure: throws SetupError, naming the file, before anything is written.
 * installedHook, this installation's hook script, is how uninstall knows memd's hooks that run
 * it from a directory not named memd.
 */
function plan(input: PlanInput, paths: InstallPaths | undefined, agentsMdBody: string | undefined, installedHook: string | undefined): FileChange[] {
  const { locations: loc, targets } = input;
  const home = loc.memdHome;
  const read = (file: string) => input.contents.get(file) ?? null;
  const changes: FileChange[] = [];
  if (targets.includes("claude")) {
    const settings = read(loc.claudeSettings);
    const state = read(loc.claudeJson);
    changes.push(paths ? planClaudeHooks(loc.claudeSettings, settings, paths, home, input.hookEndpoint) : planClaudeHooksRemoval(loc.claudeSettings, settings, installedHook));
    if (paths && input.hookEndpoint) changes.push(...planHookEndpoint(loc.hookEndpoint, input.contents, input.hookEndpoint));
    else changes.push(planHookEndpointRemoval(loc.hookEndpoint, input.contents));
    // ~/.claude.json holds Claude Code's private state too: keep a new one private.
    changes.push(planMcpServer("claude", loc.claudeJson, state, paths && claudeMcpEntry(paths, home), 0o600));
    changes.push(planCommandFile("claude", loc.claudeCommand, read(loc.claudeCommand), paths ? claudeCommandText(paths, home) : null, "the /memd command"));
  }
  if (targets.includes("codex")) {
    const config = read(loc.codexConfig);
    const hooksBefore = read(loc.codexHooks);
    const hooks = paths ? planCodexHooks(loc.codexHooks, hooksBefore, paths, home) : planCodexHooksRemoval(loc.codexHooks, hooksBefore, installedHook);
    // codex exec runs only trusted hooks: memd's are trusted in config.toml as they are written.
    const trust = (text: string | null) => memdHookTrust(loc.codexHooks, text, installedHook);
    const configChange = paths ? planCodexConfig(loc.codexConfig, config, paths, home) : planCodexConfigRemoval(loc.codexConfig, config);
    changes.push(withCodexHookTrust(configChange, trust(hooks.after), trust(hooksBefore)));
    changes.push(hooks);
    changes.push(planCommandFile("codex", loc.codexSkill, read(loc.codexSkill), paths ? codexSkillText(paths, home) : null, "the memd skill ($memd)"));
    changes.push(planCommandFile("codex", loc.codexLegacyPrompt, read(loc.codexLegacyPrompt), null, "the memd prompt (/prompts:memd), which Codex no longer reads"));
  }
  if (targets.includes("cursor")) {
    changes.push(planMcpServer("cursor", loc.cursorMcp, read(loc.cursorMcp), paths && cursorMcpEntry(paths, home), 0o644));
    changes.push(planCursorHooks(loc.cursorHooks, read(loc.cursorHooks), paths, home, installedHook));
  }
  if (targets.includes("gemini")) {
    const settings = read(loc.geminiSettings);
    const hooks = paths ? planGeminiHooks(loc.geminiSettings, settings, paths, home) : planGeminiHooksRemoval(loc.geminiSettings, settings, installedHook);
    // settings.json holds the MCP servers too: one change, written once.
    changes.push(combineChanges(hooks, planMcpServer("gemini", loc.geminiSettings, hooks.after, paths && cursorMcpEntry(paths, home), 0o644)));
  }
  if (targets.includes("copilot")) {
    changes.push(planCopilotHooks(loc.copilotHooks, read(loc.copilotHooks), paths ? copilotHooksText(paths, home) : null, installedHook));
    changes.push(planMcpServer("copilot", loc.copilotMcp, read(loc.copilotMcp), paths && copilotMcpEntry(paths, home), 0o644));
  }
  if (targets.includes("opencode")) {
    changes.push(planOpenCodeConfig(loc.opencodeConfig, read(loc.opencodeConfig), paths && openCodeMcpEntry(paths, home)));
    changes.push(planOpenCodePlugin(loc.opencodePlugin, read(loc.opencodePlugin), paths ? openCodePluginText(paths, home) : null));
    changes.push(planCommandFile("opencode", loc.opencodeCommand, read(loc.opencodeCommand), paths ? openCodeCommandText(paths, home) : null, "the /memd command"));
  }
  if (targets.includes("service")) {
    const file = loc.platform === "darwin" ? loc.launchAgent : loc.systemdUnit;
    const service = planLoginService(loc, read(file), paths);
    if (service) changes.push(service);
  }
  if (input.agentsMdPath !== undefined) {
    const before = read(input.agentsMdPath);
    changes.push(agentsMdBody !== undefined ? planAgentsMd(input.agentsMdPath, before, agentsMdBody) : planAgentsMdRemoval(input.agentsMdPath, before));
  }
  return changes;
}

export function setupPlan(input: PlanInput, paths: InstallPaths, agentsMdBody?: string): FileChange[] {
  if (input.agentsMdPath !== undefined && agentsMdBody === undefined) throw new Error("setupPlan: an AGENTS.md path needs its section text");
  return plan(input, paths, agentsMdBody, paths.hook);
}

export function uninstallPlan(input: PlanInput, installedHook?: string): FileChange[] {
  return plan(input, undefined, undefined, installedHook);
}
