import { hookCommand, isMemdHook } from "./claude-settings.js";
import { formatJsonLike, isJsonObject, type JsonObject, parseJsonObject } from "./json-file.js";
import type { InstallPaths } from "./locations.js";
import { type FileChange, SetupError } from "./plan.js";

/**
 * memd's hook in Cursor's ~/.cursor/hooks.json (`{"version": 1, "hooks": {event: [{command}]}}`,
 * entries without matcher groups; cursor.com/docs/hooks): the briefing on sessionStart, whose
 * `additional_context` Cursor adds to the conversation. Cursor's beforeSubmitPrompt can only allow
 * or block a prompt, so prompts get no pointers there.
 */
const CURSOR_EVENT = "sessionStart";
const TIMEOUT_SECONDS = 10;

/** hooks.json with memd's sessionStart entry where it was (or last), or without it; every other entry and key kept. */
export function planCursorHooks(file: string, before: string | null, paths: InstallPaths | undefined, memdHome: string | undefined, installedHook: string | undefined): FileChange {
  const config = parseJsonObject(file, before);
  if (config.hooks !== undefined && !isJsonObject(config.hooks)) throw new SetupError(`${file}: "hooks" is not an object; fix it and run again. Nothing was changed.`);
  const hooks: JsonObject = { ...(config.hooks as JsonObject | undefined) };
  const entries = hooks[CURSOR_EVENT] ?? [];
  if (!Array.isArray(entries)) throw new SetupError(`${file}: hooks.${CURSOR_EVENT} is not a list; fix it and run again. Nothing was changed.`);
  const ours = (entry: unknown) => isMemdHook(isJsonObject(entry) ? { type: "command", ...entry } : entry, installedHook);
  const at = entries.findIndex(ours);
  const kept = entries.filter((entry) => !ours(entry));
  const wanted = paths === undefined ? [] : [{ command: hookCommand(paths, "session-start", memdHome, "cursor"), timeout: TIMEOUT_SECONDS }];
  const next = [...kept.slice(0, at === -1 ? kept.length : at), ...wanted, ...kept.slice(at === -1 ? kept.length : at)];
  if (next.length > 0) hooks[CURSOR_EVENT] = next;
  else delete hooks[CURSOR_EVENT];
  const updated: JsonObject = { version: 1, ...config, hooks };
  if (Object.keys(hooks).length === 0) delete updated.hooks;
  if (JSON.stringify(next) === JSON.stringify(entries)) return { target: "cursor", path: file, before, after: before, summary: [], backup: true, mode: 0o644 };
  let summary = `update hook: ${CURSOR_EVENT}`;
  if (paths === undefined) summary = `remove memd's ${CURSOR_EVENT} hook`;
  else if (at === -1) summary = `add hook: ${CURSOR_EVENT}`;
  // A file that held only memd's hook goes with it.
  const emptied = paths === undefined && Object.keys(updated).every((key) => key === "version");
  return { target: "cursor", path: file, before, after: emptied ? null : formatJsonLike(before, config, updated), summary: [summary], backup: true, mode: 0o644 };
}
