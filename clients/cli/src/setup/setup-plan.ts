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
import { combineChanges, type FileChange, type SetupTarget } from "./file-change.js";

export interface PlanInput {
  locations: SetupLocations;
  targets: readonly SetupTarget[];
  /** The current content of every file in planFiles (null when it does not exist). */
  contents: ReadonlyMap<string, string | null>;
  agentsMdPath?: string;
  /** Where Claude Code's http hooks reach the daemon, when a login service keeps it running; command hooks otherwise. */
  hookEndpoint?: HttpHookEndpoint;
}

/** What one target's plan is given: its own files' contents, and what setup (or uninstall) brings. */
interface TargetPlanning {
  loc: SetupLocations;
  home: string | undefined;
  /** The content of one of the target's files (null when it does not exist); reading a file it does not list throws. */
  read(file: string): string | null;
  /** The target's files and their contents, for the plans that take them whole. */
  contents: ReadonlyMap<string, string | null>;
  /** This installation's entry points for setup; undefined for uninstall. */
  paths: InstallPaths | undefined;
  hookEndpoint: HttpHookEndpoint | undefined;
  /** This installation's hook script, by which uninstall knows memd's hooks that run it from a directory not named memd. */
  installedHook: string | undefined;
}

/**
 * One place setup wires memd into, described once: the files it reads and may change, and the
 * changes (setup when `paths` is given, removal when not), in the order they are applied. A plan
 * can read only the files its target lists, so that none is planned without being read first
 * (apply would then find it "changed while memctl was planning").
 */
interface TargetDescription {
  files(loc: SetupLocations): string[];
  plan(target: TargetPlanning): FileChange[];
}

const TARGETS: Record<SetupTarget, TargetDescription> = {
  claude: {
    files: (loc) => [loc.claudeSettings, loc.claudeJson, loc.hookEndpoint.listenFile, loc.hookEndpoint.tokenFile, loc.claudeCommand],
    plan: ({ loc, home, read, contents, paths, hookEndpoint, installedHook }) => [
      paths ? planClaudeHooks(loc.claudeSettings, read(loc.claudeSettings), paths, home, hookEndpoint) : planClaudeHooksRemoval(loc.claudeSettings, read(loc.claudeSettings), installedHook),
      ...(paths && hookEndpoint ? planHookEndpoint(loc.hookEndpoint, contents, hookEndpoint) : [planHookEndpointRemoval(loc.hookEndpoint, contents)]),
      // ~/.claude.json holds Claude Code's private state too: keep a new one private.
      planMcpServer("claude", loc.claudeJson, read(loc.claudeJson), paths && claudeMcpEntry(paths, home), 0o600),
      planCommandFile("claude", loc.claudeCommand, read(loc.claudeCommand), paths ? claudeCommandText(paths, home) : null, "the /memd command"),
    ],
  },
  codex: {
    files: (loc) => [loc.codexConfig, loc.codexHooks, loc.codexSkill, loc.codexLegacyPrompt],
    plan: ({ loc, home, read, paths, installedHook }) => {
      const config = read(loc.codexConfig);
      const hooksBefore = read(loc.codexHooks);
      const hooks = paths ? planCodexHooks(loc.codexHooks, hooksBefore, paths, home) : planCodexHooksRemoval(loc.codexHooks, hooksBefore, installedHook);
      // codex exec runs only trusted hooks: memd's are trusted in config.toml as they are written.
      const trust = (text: string | null) => memdHookTrust(loc.codexHooks, text, installedHook);
      const configChange = paths ? planCodexConfig(loc.codexConfig, config, paths, home) : planCodexConfigRemoval(loc.codexConfig, config);
      return [
        withCodexHookTrust(configChange, trust(hooks.after), trust(hooksBefore)),
        hooks,
        planCommandFile("codex", loc.codexSkill, read(loc.codexSkill), paths ? codexSkillText(paths, home) : null, "the memd skill ($memd)"),
        planCommandFile("codex", loc.codexLegacyPrompt, read(loc.codexLegacyPrompt), null, "the memd prompt (/prompts:memd), which Codex no longer reads"),
      ];
    },
  },
  cursor: {
    files: (loc) => [loc.cursorMcp, loc.cursorHooks],
    plan: ({ loc, home, read, paths, installedHook }) => [
      planMcpServer("cursor", loc.cursorMcp, read(loc.cursorMcp), paths && cursorMcpEntry(paths, home), 0o644),
      planCursorHooks(loc.cursorHooks, read(loc.cursorHooks), paths, home, installedHook),
    ],
  },
  gemini: {
    files: (loc) => [loc.geminiSettings],
    plan: ({ loc, home, read, paths, installedHook }) => {
      const settings = read(loc.geminiSettings);
      const hooks = paths ? planGeminiHooks(loc.geminiSettings, settings, paths, home) : planGeminiHooksRemoval(loc.geminiSettings, settings, installedHook);
      // settings.json holds the MCP servers too: one change, written once.
      return [combineChanges(hooks, planMcpServer("gemini", loc.geminiSettings, hooks.after, paths && cursorMcpEntry(paths, home), 0o644))];
    },
  },
  copilot: {
    files: (loc) => [loc.copilotHooks, loc.copilotMcp],
    plan: ({ loc, home, read, paths, installedHook }) => [
      planCopilotHooks(loc.copilotHooks, read(loc.copilotHooks), paths ? copilotHooksText(paths, home) : null, installedHook),
      planMcpServer("copilot", loc.copilotMcp, read(loc.copilotMcp), paths && copilotMcpEntry(paths, home), 0o644),
    ],
  },
  opencode: {
    files: (loc) => [loc.opencodeConfig, loc.opencodePlugin, loc.opencodeCommand],
    plan: ({ loc, home, read, paths }) => [
      planOpenCodeConfig(loc.opencodeConfig, read(loc.opencodeConfig), paths && openCodeMcpEntry(paths, home)),
      planOpenCodePlugin(loc.opencodePlugin, read(loc.opencodePlugin), paths ? openCodePluginText(paths, home) : null),
      planCommandFile("opencode", loc.opencodeCommand, read(loc.opencodeCommand), paths ? openCodeCommandText(paths, home) : null, "the /memd command"),
    ],
  },
  service: {
    // No login service where memd knows of none (platform null): nothing to read or write.
    files: (loc) => (loc.platform === null ? [] : [loc.platform === "linux" ? loc.systemdUnit : loc.launchAgent]),
    plan: ({ loc, read, paths }) => {
      if (loc.platform === null) return [];
      const service = planLoginService(loc, read(loc.platform === "linux" ? loc.systemdUnit : loc.launchAgent), paths);
      return service ? [service] : [];
    },
  },
};

/** The files a plan reads, so that the caller can read them all first. */
export function planFiles(locations: SetupLocations, targets: readonly SetupTarget[], agentsMdPath?: string): string[] {
  return [...targets.flatMap((target) => TARGETS[target].files(locations)), ...(agentsMdPath === undefined ? [] : [agentsMdPath])];
}

/**
 * Every change setup (paths and agentsMdBody given) or uninstall (neither given) makes, in the
 * order they are applied. Pure: throws SetupError, naming the file, before anything is written.
 */
function plan(input: PlanInput, paths: InstallPaths | undefined, agentsMdBody: string | undefined, installedHook: string | undefined): FileChange[] {
  const { locations: loc } = input;
  const changes = input.targets.flatMap((target) => {
    const files = TARGETS[target].files(loc);
    const contents = new Map(files.map((file) => [file, input.contents.get(file) ?? null]));
    const read = (file: string) => {
      if (!contents.has(file)) throw new Error(`setup's plan for ${target} reads ${file}, which its files do not list`);
      return contents.get(file) ?? null;
    };
    const planned = TARGETS[target].plan({ loc, home: loc.memdHome, read, contents, paths, hookEndpoint: input.hookEndpoint, installedHook });
    const unlisted = planned.find((change) => !contents.has(change.path));
    if (unlisted) throw new Error(`setup's plan for ${target} changes ${unlisted.path}, which its files do not list`);
    return planned;
  });
  if (input.agentsMdPath !== undefined) {
    const before = input.contents.get(input.agentsMdPath) ?? null;
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
