import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./file-change.js";
import { shellQuote } from "./shell-quote.js";

/** One memd hook registration in ~/.claude/settings.json. */
export interface HookSpec {
  event: string;
  /** The argument memd-hook gets. */
  arg: string;
  matcher?: string;
  /** Seconds; memd-hook gives up well within each (see hooks/src/hook-env.ts). */
  timeout: number;
}

/**
 * Timeouts leave room for Node's start-up around memd-hook's own budget (300 ms for prompts,
 * 1 s otherwise). UserPromptSubmit holds the user's prompt, and SessionEnd's timeout raises
 * the budget Claude Code shares among all SessionEnd hooks, so both stay short. No hook is
 * async: `claude -p` exits as soon as its last turn ends and kills async hooks still running
 * ("1 hooks still pending"), which lost the note or trace of a session's last tool call; a
 * synchronous PostToolUse costs one save on the daemon (milliseconds) and never more than the
 * shim's 1 s budget. SessionStart
 * has no matcher: memd briefs on every source (startup, resume, clear, compact, fork), and the
 * daemon reads the source from the payload itself.
 */
export const MEMD_HOOKS: readonly HookSpec[] = [
  { event: "SessionStart", arg: "session-start", timeout: 10 },
  { event: "UserPromptSubmit", arg: "user-prompt-submit", timeout: 5 },
  { event: "PostToolUse", arg: "post-tool-use", matcher: "Write|Edit", timeout: 5 },
  { event: "PostToolUseFailure", arg: "post-tool-use-failure", matcher: "Bash", timeout: 5 },
  { event: "PreCompact", arg: "pre-compact", timeout: 10 },
  { event: "SessionEnd", arg: "session-end", timeout: 2 },
];

/** An event argument, as memd's hook commands take it (session-start, SessionStart, postToolUse...). */
const EVENT_ARG = "[A-Za-z][A-Za-z-]*";
/**
 * memd-hook run by name, or the memd package's hook script or curl shim run by path from any
 * install location (npm's node_modules/memd, a clone named memd). The "memd" directory is required:
 * dist/hooks/src/main.js alone is a common layout, and another tool's hook must never be taken.
 */
const MEMD_HOOK_PATTERN = new RegExp(
  `(?:^|[\\s'"/])memd-hook['"]?\\s|(?:^|[\\s'"/])memd/dist/hooks/src/main\\.js['"]?\\s+['"]?${EVENT_ARG}\\b|(?:^|[\\s'"/])memd/hooks/memd-hook\\.sh['"]?\\s+['"]?${EVENT_ARG}\\b`,
);

/**
 * The shell command a hook runs: the curl shim under /bin/sh (a few milliseconds where Node takes
 * fifty), given absolute node and memd-hook for where curl is missing; MEMD_HOME only when chosen.
 */
export function hookCommand(paths: InstallPaths, arg: string, memdHome: string | undefined, agent?: "codex" | "gemini" | "copilot" | "cursor"): string {
  const words = ["/bin/sh", shellQuote(paths.shim), arg, shellQuote(paths.node), shellQuote(paths.hook), ...(agent ? [agent] : [])];
  return memdHome === undefined ? words.join(" ") : `MEMD_HOME=${shellQuote(memdHome)} ${words.join(" ")}`;
}

/** Where Claude Code's http hooks reach the daemon: its loopback listener, with the hook token. */
export interface HttpHookEndpoint {
  port: number;
  /** MEMD_HOME/hook-token: it calls the hook routes and nothing else. */
  token: string;
}

/** The events Claude Code takes http hooks for; SessionStart takes command hooks only. */
const HTTP_HOOK_EVENTS: ReadonlySet<string> = new Set(["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SessionEnd"]);
/** memd's hook route on a loopback address, as setup writes it. */
const MEMD_HTTP_HOOK = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/hooks\/claude-code\/[A-Za-z]+$/;

/** The URL of the daemon's route for a Claude Code event. */
export function hookUrl(port: number, event: string): string {
  return `http://127.0.0.1:${port}/hooks/claude-code/${event}`;
}

/**
 * True for a hook handler of memd's: an http hook on its route, or a command that runs memd-hook
 * or the curl shim by name, from a memd package directory, or from `installedHook`, this
 * installation's hook script (which may live in a directory of any name).
 */
export function isMemdHook(handler: unknown, installedHook?: string): boolean {
  if (isJsonObject(handler) && handler.type === "http") return typeof handler.url === "string" && MEMD_HTTP_HOOK.test(handler.url);
  if (!isJsonObject(handler) || typeof handler.command !== "string") return false;
  const args = Array.isArray(handler.args) ? handler.args.filter((a): a is string => typeof a === "string") : [];
  const words = ` ${[handler.command, ...args].join(" ")} `;
  if (installedHook !== undefined && (words.includes(` ${installedHook} `) || words.includes(` ${shellQuote(installedHook)} `))) return true;
  return MEMD_HOOK_PATTERN.test(words.slice(1));
}

/**
 * memd's group for one event: an http hook where Claude Code takes one and `http` says where the
 * daemon listens (no process starts at all), else the command shim.
 */
function desiredGroup(spec: HookSpec, paths: InstallPaths, memdHome: string | undefined, http: HttpHookEndpoint | undefined): JsonObject {
  const handler: JsonObject =
    http !== undefined && HTTP_HOOK_EVENTS.has(spec.event)
      ? { type: "http", url: hookUrl(http.port, spec.event), headers: { Authorization: `Bearer ${http.token}` }, timeout: spec.timeout }
      : { type: "command", command: hookCommand(paths, spec.arg, memdHome), timeout: spec.timeout };
  return spec.matcher === undefined ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] };
}

interface MatcherGroup extends JsonObject {
  hooks: unknown[];
}

function isGroup(value: unknown): value is MatcherGroup {
  return isJsonObject(value) && Array.isArray(value.hooks);
}

/**
 * One event's matcher groups with memd's handlers taken out and, when `desired` is given, memd's
 * group put where memd's handler was (or at the end): re-running updates in place, and the
 * user's own handlers and groups stay as they are.
 */
function withMemdGroup(groups: unknown[], desired: JsonObject | undefined, installedHook: string | undefined): unknown[] {
  const out: unknown[] = [];
  let placed = desired === undefined;
  for (const group of groups) {
    if (!isGroup(group)) {
      out.push(group);
      continue;
    }
    const others = group.hooks.filter((handler) => !isMemdHook(handler, installedHook));
    if (others.length === group.hooks.length) {
      out.push(group);
      continue;
    }
    if (others.length > 0) out.push({ ...group, hooks: others });
    if (!placed && desired !== undefined) {
      out.push(desired);
      placed = true;
    }
  }
  if (!placed && desired !== undefined) out.push(desired);
  return out;
}

function hasMemdHook(groups: unknown[], installedHook: string | undefined): boolean {
  return groups.some((group) => isGroup(group) && group.hooks.some((handler) => isMemdHook(handler, installedHook)));
}

function readHooks(file: string, settings: JsonObject): JsonObject {
  if (settings.hooks === undefined) return {};
  if (!isJsonObject(settings.hooks)) throw new SetupError(`${file}: "hooks" is not an object; fix it and run again. Nothing was changed.`);
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) throw new SetupError(`${file}: hooks.${event} is not a list; fix it and run again. Nothing was changed.`);
  }
  return settings.hooks;
}

/**
 * A hooks file (Claude Code's settings.json, Codex's hooks.json: the same shape) with exactly the
 * `wanted` memd groups (all of memd's for setup, none for uninstall) and every other hook and key kept.
 */
export function planHooks(
  file: string,
  before: string | null,
  wanted: readonly { event: string; group: JsonObject }[],
  installedHook: string | undefined,
  target: "claude" | "codex" | "gemini" = "claude",
): FileChange {
  const settings = parseJsonObject(file, before);
  const hooks = readHooks(file, settings);
  const nextHooks: JsonObject = { ...hooks };
  const added: string[] = [];
  const updated: string[] = [];
  const removed: string[] = [];
  for (const event of Object.keys(hooks)) {
    if (wanted.some((w) => w.event === event)) continue;
    const groups = hooks[event] as unknown[];
    if (!hasMemdHook(groups, installedHook)) continue;
    const kept = withMemdGroup(groups, undefined, installedHook);
    if (kept.length > 0) nextHooks[event] = kept;
    else delete nextHooks[event];
    removed.push(event);
  }
  for (const { event, group } of wanted) {
    const groups = (hooks[event] as unknown[] | undefined) ?? [];
    const next = withMemdGroup(groups, group, installedHook);
    if (JSON.stringify(next) === JSON.stringify(groups)) continue;
    nextHooks[event] = next;
    (hasMemdHook(groups, installedHook) ? updated : added).push(event);
  }
  const next: JsonObject = { ...settings };
  if (Object.keys(nextHooks).length > 0) next.hooks = nextHooks;
  else if (removed.length > 0) delete next.hooks;
  const summary = [
    ...(added.length > 0 ? [`add hooks: ${added.join(", ")}`] : []),
    ...(updated.length > 0 ? [`update hooks: ${updated.join(", ")}`] : []),
    ...(removed.length > 0 ? [`remove memd hooks: ${removed.join(", ")}`] : []),
  ];
  // A file that held nothing but memd's hooks (setup created it) goes with them.
  const emptied = removed.length > 0 && wanted.length === 0 && Object.keys(next).length === 0;
  if (emptied) summary.push("remove the file, which held only memd's hooks");
  const after = (before === null && summary.length === 0) || emptied ? null : formatJsonLike(before, settings, next);
  return { target, path: file, before, after, summary, backup: true, mode: 0o644 };
}

/** Setup: memd's hooks merged into the user's settings.json; http hooks where `http` is given. */
export function planClaudeHooks(file: string, before: string | null, paths: InstallPaths, memdHome: string | undefined, http?: HttpHookEndpoint): FileChange {
  return planHooks(file, before, MEMD_HOOKS.map((spec) => ({ event: spec.event, group: desiredGroup(spec, paths, memdHome, http) })), paths.hook);
}

/** Uninstall: memd's hooks taken out (installedHook: this installation's script), everything of the user's left. */
export function planClaudeHooksRemoval(file: string, before: string | null, installedHook?: string): FileChange {
  return planHooks(file, before, [], installedHook);
}
