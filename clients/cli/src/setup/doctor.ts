import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { type HttpHookEndpoint, isMemdHook } from "./claude-settings.js";
import { type CodexHookStatus, codexHookStatuses, codexHooksSwitchedOff } from "./codex-hook-trust.js";
import { type AgentTarget, agentName, agentPresence } from "./agent-targets.js";
import { hookEndpoint } from "./hook-endpoint.js";
import { isJsonObject, type JsonObject } from "./json-file.js";
import type { InstallPaths, SetupLocations } from "./locations.js";
import { planLoginService } from "./login-service.js";
import { changeKind, type FileChange, SetupError, type SetupTarget } from "./file-change.js";
import { setupPlan, uninstallPlan } from "./setup-plan.js";

export type CheckStatus = "ok" | "problem" | "note";

/** One finding of memctl doctor: a problem makes the command fail, a note only informs. */
export interface DoctorCheck {
  /** What it is about: memd itself, or one of setup's targets (an agent, the login service). */
  subject: "memd" | SetupTarget;
  status: CheckStatus;
  message: string;
  /** What to run or change. */
  fix?: string;
}

/** What setup wires into each agent, for the line that says it is all there. */
const WIRED: Record<AgentTarget, string> = {
  claude: "hooks, MCP server and /memd",
  codex: "hooks, their trust, MCP server and $memd skill",
  cursor: "hooks and MCP server",
  gemini: "hooks and MCP server",
  copilot: "hooks and MCP server",
  opencode: "plugin, MCP server and /memd",
};

/** What the checks of one part read: its files' contents (as planFiles lists them), read beforehand. */
export interface DoctorInput {
  locations: SetupLocations;
  contents: ReadonlyMap<string, string | null>;
  paths: InstallPaths;
}

/** A path under the home directory as ~/...: lines stay short and read as the user types them. */
export function shownPath(file: string, home: string): string {
  return file === home || file.startsWith(`${home}${path.sep}`) ? `~${file.slice(home.length)}` : file;
}

/**
 * Claude Code's http hook endpoint as setup left it: setup records a port in MEMD_HOME/listen
 * only when it writes http hooks, and takes it out when it writes command hooks.
 */
export function claudeHookEndpoint(loc: SetupLocations, contents: ReadonlyMap<string, string | null>): HttpHookEndpoint | undefined {
  const listen = contents.get(loc.hookEndpoint.listenFile) ?? null;
  return listen === null ? undefined : hookEndpoint(listen, contents.get(loc.hookEndpoint.tokenFile) ?? null, 0, "");
}

const unchanged = (change: FileChange) => changeKind(change) === "unchanged";
const withoutTail = (message: string) => message.replace(/\s*Nothing was changed\.$/, "");

/**
 * Whether memd is wired into an installed agent as `memctl setup` writes it, and nothing in the
 * agent's settings keeps memd's hooks from running. The files are compared with setup's own plan
 * for them: what setup would change is what differs (a hook edited or removed, an MCP entry
 * pointing elsewhere, a trust that no longer matches), and uninstall's plan tells whether any of
 * memd is there at all.
 */
export function agentChecks(target: AgentTarget, input: DoctorInput): DoctorCheck[] {
  const { locations: loc, contents, paths } = input;
  const name = agentName(target);
  const check = (status: CheckStatus, message: string, fix?: string): DoctorCheck => ({ subject: target, status, message, ...(fix === undefined ? {} : { fix }) });
  const setup = `memctl setup --only ${target}`;
  const endpoint = target === "claude" ? claudeHookEndpoint(loc, contents) : undefined;
  const planInput = { locations: loc, targets: [target], contents, hookEndpoint: endpoint };
  let wanted: FileChange[];
  let present: FileChange[];
  try {
    wanted = setupPlan(planInput, paths);
    present = uninstallPlan(planInput, paths.hook);
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    return [check("problem", `${name}'s settings cannot be read as memd's: ${withoutTail(error.message)}`, `fix that file, then run ${setup}`)];
  }
  if (present.every(unchanged)) {
    return [check("note", `memd is not set up for ${name} (${shownPath(agentPresence(loc, target).where, loc.home)} has none of its hooks or entries)`, setup)];
  }
  const drifted = wanted.filter((change) => !unchanged(change));
  const out =
    drifted.length === 0
      ? [check("ok", `${endpoint ? "http " : ""}${WIRED[target]} as memctl setup writes them`)]
      : drifted.map((change) =>
          check("problem", `${shownPath(change.path, loc.home)} differs from what memctl setup writes: setup would ${change.summary.join("; ") || "rewrite it"}`, `${setup} (with --dry-run first to see the change)`),
        );
  return [...out, ...runChecks(target, input).map((found) => ({ subject: target, ...found }))];
}

type Finding = Omit<DoctorCheck, "subject">;

/** What in an agent's own settings would keep memd's hooks from running, though they are written. */
function runChecks(target: AgentTarget, input: DoctorInput): Finding[] {
  const { locations: loc, contents, paths } = input;
  const read = (file: string) => contents.get(file) ?? null;
  if (target === "claude") return claudeSwitches(jsonOf(read(loc.claudeSettings)), shownPath(loc.claudeSettings, loc.home));
  if (target === "gemini") return geminiSwitches(jsonOf(read(loc.geminiSettings)), shownPath(loc.geminiSettings, loc.home), paths.hook);
  if (target === "codex") return codexSwitches(loc, read(loc.codexConfig), read(loc.codexHooks), paths.hook);
  return [];
}

/** A JSON object's text parsed, or {} (setup's plan has already said when a file does not parse). */
function jsonOf(text: string | null): JsonObject {
  try {
    const value: unknown = JSON.parse(text ?? "{}");
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}

function claudeSwitches(settings: JsonObject, file: string): Finding[] {
  if (settings.disableAllHooks !== true) return [];
  return [{ status: "problem", message: `Claude Code runs no hooks at all: ${file} sets disableAllHooks`, fix: `remove "disableAllHooks": true from ${file}` }];
}

/** Gemini CLI runs no hooks with hooksConfig.enabled false, and none named (or whose command is) in hooksConfig.disabled. */
function geminiSwitches(settings: JsonObject, file: string, installedHook: string): Finding[] {
  const config = isJsonObject(settings.hooksConfig) ? settings.hooksConfig : {};
  if (config.enabled === false) {
    return [{ status: "problem", message: `Gemini CLI runs no hooks at all: ${file} sets hooksConfig.enabled to false`, fix: `set hooksConfig.enabled to true in ${file}` }];
  }
  const disabled = Array.isArray(config.disabled) ? config.disabled.filter((entry): entry is string => typeof entry === "string") : [];
  const memd = disabled.filter((entry) => entry === "memd" || isMemdHook({ command: entry }, installedHook));
  if (memd.length === 0) return [];
  return [{ status: "problem", message: `Gemini CLI skips memd's hooks: ${file} lists ${memd.map((entry) => JSON.stringify(entry)).join(", ")} in hooksConfig.disabled`, fix: `take them out of hooksConfig.disabled in ${file}` }];
}

const HOOK_STATUS_WORDS: Record<Exclude<CodexHookStatus, "trusted">, string> = {
  untrusted: "never trusted",
  modified: "changed in hooks.json since it was trusted",
  disabled: "disabled ([hooks.state] enabled = false)",
};

/**
 * Codex runs a hook of hooks.json only when hooks are on and it is trusted and enabled in
 * config.toml's [hooks.state]; `codex exec` skips the others without a word.
 */
function codexSwitches(loc: SetupLocations, configText: string | null, hooksText: string | null, installedHook: string): Finding[] {
  const configFile = shownPath(loc.codexConfig, loc.home);
  let config: Record<string, unknown>;
  try {
    config = parseToml(configText ?? "");
  } catch (error) {
    return [{ status: "problem", message: `Codex cannot read ${configFile}: ${(error as Error).message.split("\n")[0]}`, fix: `fix ${configFile}` }];
  }
  const off = codexHooksSwitchedOff(config);
  if (off !== null) {
    return [{ status: "problem", message: `Codex runs no hooks at all: ${configFile} sets ${off} = false`, fix: `remove ${off} = false from ${configFile} (hooks are on by default)` }];
  }
  const statuses = codexHookStatuses(config, loc.codexHooks, hooksText, installedHook);
  if (statuses.length === 0) return [];
  const skipped = statuses.filter((hook) => hook.status !== "trusted");
  if (skipped.length === 0) {
    return [{ status: "ok", message: `Codex runs memd's ${statuses.length} hooks: each is trusted in ${configFile} as hooks.json now has it` }];
  }
  const which = skipped.map((hook) => `${hook.event} (${HOOK_STATUS_WORDS[hook.status as Exclude<CodexHookStatus, "trusted">]})`).join(", ");
  return [
    {
      status: "problem",
      message: `Codex skips ${skipped.length} of memd's ${statuses.length} hooks, and codex exec says nothing of it: ${which}`,
      fix: `memctl setup --only codex (it writes memd's hooks as setup does and trusts them), or review and trust them in Codex's /hooks`,
    },
  ];
}

/** The login service's file as setup writes it, or why there is none. */
export function serviceFileChecks(input: DoctorInput): DoctorCheck[] {
  const { locations: loc, contents, paths } = input;
  const check = (status: CheckStatus, message: string, fix?: string): DoctorCheck => ({ subject: "service", status, message, ...(fix === undefined ? {} : { fix }) });
  if (loc.platform === null) return [check("note", `no login service on ${process.platform}: start memd with memctl start`)];
  const file = loc.platform === "linux" ? loc.systemdUnit : loc.launchAgent;
  const before = contents.get(file) ?? null;
  if (before === null) {
    return [check("note", `no login service (${shownPath(file, loc.home)} does not exist): memd runs only once started`, "memctl start, or memctl setup --only service to start it at every login")];
  }
  const change = planLoginService(loc, before, paths);
  if (change !== null && !unchanged(change)) {
    return [check("problem", `${shownPath(file, loc.home)} differs from what memctl setup writes (another memd installation, or other settings)`, "memctl setup --only service (with --dry-run first to see the change)")];
  }
  return [check("ok", `${shownPath(file, loc.home)} as memctl setup writes it`)];
}
