import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { memdEndpoint } from "../../../transport/endpoint.js";
import type { HookEndpointFiles } from "./hook-endpoint.js";

/** The absolute programs that hooks, MCP registrations and the login service run. */
export interface InstallPaths {
  node: string;
  daemon: string;
  mcp: string;
  hook: string;
  /** The curl shim (hooks/memd-hook.sh, beside dist/), which becomes `node hook` where curl is missing. */
  shim: string;
  /** memctl, which the /memd command runs. */
  cli: string;
}

/**
 * The installed entry points, found next to this file in dist/ (memctl, memd, memd-mcp and
 * memd-hook ship together), so hooks work whatever PATH the agent runs them with.
 */
export function installedPaths(execPath: string = process.execPath): InstallPaths {
  const dist = fileURLToPath(new URL("../../../../", import.meta.url));
  return {
    node: execPath,
    daemon: path.join(dist, "daemon/src/main.js"),
    mcp: path.join(dist, "clients/mcp/src/memd-mcp.mjs"),
    hook: path.join(dist, "hooks/src/main.js"),
    shim: path.join(dist, "../hooks/memd-hook.sh"),
    cli: path.join(dist, "clients/cli/src/main.js"),
  };
}

/** The entry points that do not exist (a checkout that was never built): setup would wire in nothing. */
export function missingEntryPoints(paths: InstallPaths, exists: (file: string) => boolean = fs.existsSync): string[] {
  return [paths.mcp, paths.hook, paths.shim, paths.daemon, openCodePluginModule(paths)].filter((file) => !exists(file));
}

/** memd's OpenCode plugin module, beside memd-hook: the plugin file setup writes imports it. */
export function openCodePluginModule(paths: InstallPaths): string {
  return path.join(path.dirname(paths.hook), "opencode-plugin.js");
}

/** Names that may hold a secret: they go in the environment file, never into a service file. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Matches SECRET_NAME but is a number (the language model's daily token cap). */
const NOT_SECRET = new Set(["MEMD_LLM_DAILY_TOKENS"]);

/**
 * The daemon's settings set in this environment (MEMD_* and OLLAMA_HOST, sorted; MEMD_HOME
 * apart, see memdHome), which a login service would not otherwise see: it starts from
 * systemd's or launchd's environment, not the shell's.
 */
export function serviceEnvironment(env: NodeJS.ProcessEnv): [string, string][] {
  const chosen: [string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === "" || name === "MEMD_HOME") continue;
    if (!name.startsWith("MEMD_") && name !== "OLLAMA_HOST") continue;
    if (SECRET_NAME.test(name) && !NOT_SECRET.has(name)) continue;
    chosen.push([name, value]);
  }
  return chosen.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export type ServicePlatform = "linux" | "darwin";

/** Every file setup may touch, and the settings that shape their content. */
export interface SetupLocations {
  home: string;
  /** The directory whose existence says Claude Code is installed. */
  claudeDir: string;
  claudeSettings: string;
  /** Claude Code's user command file for /memd. */
  claudeCommand: string;
  /** Claude Code's user-scope state file, holding top-level mcpServers among much else. */
  claudeJson: string;
  codexDir: string;
  codexConfig: string;
  /** Codex's user hooks (hooks.json beside config.toml). */
  codexHooks: string;
  /** Codex's memd skill ($memd). */
  codexSkill: string;
  /** Where setup before the skill wrote /prompts:memd, which current Codex ignores: removed when it is memd's. */
  codexLegacyPrompt: string;
  cursorDir: string;
  cursorMcp: string;
  /** Cursor's user hooks. */
  cursorHooks: string;
  /** The directory whose existence says Gemini CLI is installed, and its user settings (with the hooks). */
  geminiDir: string;
  geminiSettings: string;
  /** Copilot CLI's home ($COPILOT_HOME or ~/.copilot), whose existence says it is installed, and memd's hooks file in it. */
  copilotDir: string;
  copilotHooks: string;
  /** Copilot CLI's MCP servers. */
  copilotMcp: string;
  /** OpenCode's config folder ($XDG_CONFIG_HOME/opencode), whose existence says it is installed; its opencode.json, memd's plugin file and /memd command in it. */
  opencodeDir: string;
  opencodeConfig: string;
  opencodePlugin: string;
  opencodeCommand: string;
  systemdUnit: string;
  /** KEY=value lines the systemd unit reads, for secrets such as OPENAI_API_KEY. */
  envFile: string;
  launchAgent: string;
  /** MEMD_HOME when the user chose one (--home or the environment), else undefined. */
  memdHome: string | undefined;
  /** Daemon settings from the environment for the login service (see serviceEnvironment). */
  serviceEnv: [string, string][];
  /** Where the daemon logs, for launchd's stdout and stderr files. */
  logDir: string;
  /** MEMD_HOME's files behind Claude Code's http hooks (see hook-endpoint.ts). */
  hookEndpoint: HookEndpointFiles;
  /** The platform whose login service to install, or null where there is none. */
  platform: ServicePlatform | null;
}

/** The launchd label; also the plist's file name. */
export const LAUNCHD_LABEL = "dev.memd.daemon";
export const SYSTEMD_UNIT = "memd.service";

/** Pure: all locations from the environment, the home directory and the platform. */
export function setupLocations(env: NodeJS.ProcessEnv, home: string, platform: string, explicitHome?: string): SetupLocations {
  // Claude Code moves both settings.json and .claude.json into CLAUDE_CONFIG_DIR when it is set.
  const claudeConfigDir = env.CLAUDE_CONFIG_DIR || undefined;
  const claudeDir = claudeConfigDir ?? path.join(home, ".claude");
  const codexDir = env.CODEX_HOME || path.join(home, ".codex");
  const configHome = env.XDG_CONFIG_HOME || path.join(home, ".config");
  const chosenHome = explicitHome || env.MEMD_HOME || undefined;
  const memdHome = chosenHome === undefined ? undefined : path.resolve(chosenHome);
  return {
    home,
    claudeDir,
    claudeSettings: path.join(claudeDir, "settings.json"),
    claudeCommand: path.join(claudeDir, "commands", "memd.md"),
    claudeJson: claudeConfigDir ? path.join(claudeConfigDir, ".claude.json") : path.join(home, ".claude.json"),
    codexDir,
    codexConfig: path.join(codexDir, "config.toml"),
    codexHooks: path.join(codexDir, "hooks.json"),
    codexSkill: path.join(codexDir, "skills", "memd", "SKILL.md"),
    codexLegacyPrompt: path.join(codexDir, "prompts", "memd.md"),
    cursorDir: path.join(home, ".cursor"),
    cursorMcp: path.join(home, ".cursor", "mcp.json"),
    cursorHooks: path.join(home, ".cursor", "hooks.json"),
    geminiDir: path.join(home, ".gemini"),
    geminiSettings: path.join(home, ".gemini", "settings.json"),
    copilotDir: env.COPILOT_HOME || path.join(home, ".copilot"),
    copilotHooks: path.join(env.COPILOT_HOME || path.join(home, ".copilot"), "hooks", "memd.json"),
    copilotMcp: path.join(env.COPILOT_HOME || path.join(home, ".copilot"), "mcp-config.json"),
    opencodeDir: path.join(configHome, "opencode"),
    opencodeConfig: path.join(configHome, "opencode", "opencode.json"),
    opencodePlugin: path.join(configHome, "opencode", "plugins", "memd.js"),
    opencodeCommand: path.join(configHome, "opencode", "commands", "memd.md"),
    systemdUnit: path.join(configHome, "systemd", "user", SYSTEMD_UNIT),
    envFile: path.join(configHome, "memd", "env"),
    launchAgent: path.join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`),
    memdHome,
    serviceEnv: serviceEnvironment(env),
    logDir: memdEndpoint(memdHome, { HOME: home }).logDir,
    hookEndpoint: {
      listenFile: path.join(memdEndpoint(memdHome, { HOME: home }).home, "listen"),
      tokenFile: path.join(memdEndpoint(memdHome, { HOME: home }).home, "hook-token"),
    },
    platform: platform === "linux" || platform === "darwin" ? platform : null,
  };
}
