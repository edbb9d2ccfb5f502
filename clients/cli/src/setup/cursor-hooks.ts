import { hookCommand, isMemdHook } from "./claude-settings.js";
import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./file-change.js";

/**
 * memd's hooks in Cursor's ~/.cursor/hooks.json (`{"version": 1, "hooks": {event: [{command}]}}`,
 * flat entries without matcher groups; cursor.com/docs/hooks): the briefing on sessionStart,
 * whose `additional_context` Cursor adds to the conversation; a trace of each failed command on
 * postToolUseFailure (its `matcher` the tool type, Shell); the transcript swept on sessionEnd
 * and preCompact. Cursor's beforeSubmitPrompt can only allow or block a prompt, so prompts get
 * no pointers there. Timeouts in seconds.
 */
const CURSOR_HOOKS: readonly { event: string; arg: string; timeout: number; matcher?: string }[] = [
  { event: "sessionStart", arg: "session-start", timeout: 10 },
  { event: "postToolUseFailure", arg: "post-tool-use-failure", timeout: 5, matcher: "Shell" },
  { event: "sessionEnd", arg: "session-end", timeout: 5 },
  { event: "preCompact", arg: "pre-compact", timeout: 10 },
];

/** hooks.json with memd's entries where they were (or last), or without them; every other entry and key kept. */
export function planCursorHooks(file: string, before: string | null, paths: InstallPaths | undefined, memdHome: string | undefined, installedHook: string | undefined): FileChange {
  const config = parseJsonObject(file, before);
  if (config.hooks !== undefined && !isJsonObject(config.hooks)) throw new SetupError(`${file}: "hooks" is not an object; fix it and run again. Nothing was changed.`);
  const hooks: JsonObject = { ...(config.hooks as JsonObject | undefined) };
  const ours = (entry: unknown) => isMemdHook(isJsonObject(entry) ? { type: "command", ...entry } : entry, installedHook);
  const summary: string[] = [];
  const events = new Set([...CURSOR_HOOKS.map((spec) => spec.event), ...Object.keys(hooks).filter((event) => Array.isArray(hooks[event]) && (hooks[event] as unknown[]).some(ours))]);
  for (const event of events) {
    const spec = CURSOR_HOOKS.find((s) => s.event === event);
    const entries = hooks[event] ?? [];
    if (!Array.isArray(entries)) throw new SetupError(`${file}: hooks.${event} is not a list; fix it and run again. Nothing was changed.`);
    const at = entries.findIndex(ours);
    const kept = entries.filter((entry) => !ours(entry));
    const wanted =
      paths === undefined || spec === undefined
        ? []
        : [{ command: hookCommand(paths, spec.arg, memdHome, "cursor"), timeout: spec.timeout, ...(spec.matcher === undefined ? {} : { matcher: spec.matcher }) }];
    const next = [...kept.slice(0, at === -1 ? kept.length : at), ...wanted, ...kept.slice(at === -1 ? kept.length : at)];
    if (JSON.stringify(next) === JSON.stringify(entries)) continue;
    if (next.length > 0) hooks[event] = next;
    else delete hooks[event];
    summary.push(wanted.length === 0 ? `remove memd's ${event} hook` : at === -1 ? `add hook: ${event}` : `update hook: ${event}`);
  }
  if (summary.length === 0) return { target: "cursor", path: file, before, after: before, summary: [], backup: true, mode: 0o644 };
  const updated: JsonObject = { version: 1, ...config, hooks };
  if (Object.keys(hooks).length === 0) delete updated.hooks;
  // A file that held only memd's hooks goes with them.
  const emptied = paths === undefined && Object.keys(updated).every((key) => key === "version");
  return { target: "cursor", path: file, before, after: emptied ? null : formatJsonLike(before, config, updated), summary, backup: true, mode: 0o644 };
}
