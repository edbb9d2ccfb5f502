import { createHash } from "node:crypto";
import { isMemdHook } from "./claude-settings.js";
import { isJsonObject, type JsonObject } from "./json-file.js";
import { type FileChange, SetupError } from "./file-change.js";
import { appendBlock, joinLines, removeBlock, splitLines } from "./text-lines.js";
import { tomlString } from "./codex-toml.js";
import { classifyTomlLines, parseOneLinePair, type TomlLine } from "./toml-lines.js";

/**
 * Codex runs a hook from hooks.json only once the user has trusted it, and `codex exec` skips an
 * untrusted one without a word. Trust is recorded in config.toml as
 * `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]` with `trusted_hash`, the hash
 * Codex computes of the hook's normalised definition (openai/codex codex-rs/hooks/src/engine/
 * discovery.rs `command_hook_hash`, config/src/fingerprint.rs `version_for_toml`): the SHA-256
 * of the canonical JSON (keys sorted, no spaces, absent fields left out) of
 * `{event_name, matcher?, hooks: [{type: "command", command, timeout, async, statusMessage?}]}`,
 * the timeout defaulting to 600 s. The interactive UI's "trust" writes the same; memctl setup
 * writes it for memd's own hooks, which it has just written and the user asked for.
 */
export interface HookTrust {
  key: string;
  hash: string;
  /** The hook's event as Codex names it in hooks.json (SessionStart), for the report. */
  event: string;
}

/** hooks.json's event names as Codex's keys spell them: SessionStart -> session_start. */
function eventLabel(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** Keys in the canonical order: sorted at every level, as Codex's canonical JSON has them. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Codex's trust hash of one command handler in its matcher group. */
export function codexHookHash(event: string, matcher: string | undefined, handler: JsonObject): string {
  const timeout = typeof handler.timeout === "number" ? Math.max(1, handler.timeout) : 600;
  const normalized = { type: "command", command: handler.command, timeout, async: handler.async === true, statusMessage: handler.statusMessage };
  const identity = { event_name: eventLabel(event), matcher, hooks: [normalized] };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}

/** The trust entries memd's hooks in this hooks.json need (none for a file that does not parse). */
export function memdHookTrust(hooksFile: string, hooksText: string | null, installedHook: string | undefined): HookTrust[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(hooksText ?? "{}");
  } catch {
    return [];
  }
  const hooks = isJsonObject(parsed) && isJsonObject(parsed.hooks) ? parsed.hooks : {};
  const out: HookTrust[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      group.hooks.forEach((handler, handlerIndex) => {
        if (!isJsonObject(handler) || handler.type !== "command" || !isMemdHook(handler, installedHook)) return;
        out.push({ key: `${hooksFile}:${eventLabel(event)}:${groupIndex}:${handlerIndex}`, hash: codexHookHash(event, matcher, handler), event });
      });
    });
  }
  return out;
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.join("\0") === b.join("\0");

/** The lines of the `[hooks.state."<key>"]` table (header to its last pair), or null. */
function stateTable(kinds: readonly TomlLine[], key: string): { header: number; end: number; pairs: number[] } | null {
  const header = kinds.findIndex((line) => line.kind === "header" && !line.arrayTable && sameKeys(line.keys, ["hooks", "state", key]));
  if (header < 0) return null;
  const pairs: number[] = [];
  let end = header;
  for (let i = header + 1; i < kinds.length && kinds[i]?.kind !== "header"; i += 1) {
    const kind = kinds[i]?.kind;
    if (kind === "pair") pairs.push(i);
    if (kind === "pair" || kind === "continuation") end = i;
  }
  return { header, end, pairs };
}

/** Refuses a trust entry written any other way than as its own table: an edit could not keep the file valid. */
function checkForm(file: string, kinds: readonly TomlLine[], keys: ReadonlySet<string>): void {
  let table: string[] = [];
  kinds.forEach((line, i) => {
    if (line.kind === "header") table = line.keys;
    if (line.kind !== "pair") return;
    const full = [...table, ...line.keys];
    if (full[0] === "hooks" && full[1] === "state" && full.length > 3 && keys.has(full[2] as string) && table.length < 3) {
      throw new SetupError(`${file}:${i + 1}: the trust of a memd hook is written inline there; write it as a [hooks.state."${full[2]}"] table (or remove it) and run again. Nothing was changed.`);
    }
  });
}

/**
 * config.toml (`change`, whose after text this edits) with exactly the trust memd's hooks need:
 * `wanted` set (trusted_hash added or replaced, a table of the user's with `enabled = false`
 * keeping it), and each of `previous` (memd's hooks before this run) that is no longer wanted
 * taken out when it still holds memd's hash: a user's own trust is never removed.
 */
export function withCodexHookTrust(change: FileChange, wanted: readonly HookTrust[], previous: readonly HookTrust[]): FileChange {
  const text = splitLines(change.after ?? "");
  const lines = [...text.lines];
  checkForm(change.path, classifyTomlLines(lines), new Set([...wanted, ...previous].map((t) => t.key)));
  let trusted = 0;
  let withdrawn = 0;
  for (const entry of previous) {
    if (wanted.some((w) => w.key === entry.key)) continue;
    const table = stateTable(classifyTomlLines(lines), entry.key);
    const hashLine = table?.pairs.find((i) => sameKeys(parseOneLinePair(lines[i] as string)?.keys ?? [], ["trusted_hash"]));
    if (table === null || hashLine === undefined || parseOneLinePair(lines[hashLine] as string)?.value !== tomlString(entry.hash)) continue;
    if (table.pairs.length === 1) removeBlock(lines, table.header, table.end);
    else lines.splice(hashLine, 1);
    withdrawn += 1;
  }
  for (const entry of wanted) {
    const value = tomlString(entry.hash);
    const table = stateTable(classifyTomlLines(lines), entry.key);
    if (table === null) {
      appendBlock(lines, [`[hooks.state.${tomlString(entry.key)}]`, `trusted_hash = ${value}`]);
      trusted += 1;
      continue;
    }
    const hashLine = table.pairs.find((i) => sameKeys(parseOneLinePair(lines[i] as string)?.keys ?? [], ["trusted_hash"]));
    if (hashLine === undefined) lines.splice(table.header + 1, 0, `trusted_hash = ${value}`);
    else if (parseOneLinePair(lines[hashLine] as string)?.value !== value) lines[hashLine] = `trusted_hash = ${value}`;
    else continue;
    trusted += 1;
  }
  if (trusted === 0 && withdrawn === 0) return change;
  const summary = [
    ...change.summary,
    ...(trusted > 0 ? [`trust memd's ${trusted} hook${trusted === 1 ? "" : "s"} ([hooks.state] trusted_hash), so that codex exec runs them`] : []),
    ...(withdrawn > 0 ? [`remove the trust of memd's ${withdrawn} hook${withdrawn === 1 ? "" : "s"}`] : []),
  ];
  const after = joinLines({ lines, eol: text.eol });
  return { ...change, after: after === "" && change.before === null ? null : after, summary };
}

/** Whether Codex runs one of memd's hooks, as its discovery decides (codex-rs/hooks/src/engine/discovery.rs). */
export type CodexHookStatus = "trusted" | "untrusted" | "modified" | "disabled";

/** The status of each of memd's hooks in this hooks.json under this config.toml's [hooks.state]. */
export function codexHookStatuses(config: TomlTable, hooksFile: string, hooksText: string | null, installedHook: string | undefined): { event: string; status: CodexHookStatus }[] {
  const states = tableAt(config, ["hooks", "state"]);
  return memdHookTrust(hooksFile, hooksText, installedHook).map(({ key, hash, event }) => {
    const state = tableAt(states, [key]);
    if (state.enabled === false) return { event, status: "disabled" };
    const trusted = state.trusted_hash;
    return { event, status: trusted === undefined ? "untrusted" : trusted === hash ? "trusted" : "modified" };
  });
}

/** The key that turns Codex's hooks off ([features] hooks = false, or its deprecated alias codex_hooks), or null while they are on (the default). */
export function codexHooksSwitchedOff(config: TomlTable): string | null {
  const features = tableAt(config, ["features"]);
  for (const key of ["hooks", "codex_hooks"]) if (features[key] === false) return `features.${key}`;
  return null;
}

/** A parsed TOML document or table. */
export type TomlTable = Record<string, unknown>;

/** The table at `keys` under `table`, or an empty one where there is none. */
function tableAt(table: TomlTable, keys: readonly string[]): TomlTable {
  let current: unknown = table;
  for (const key of keys) current = isJsonObject(current) ? current[key] : undefined;
  return isJsonObject(current) ? current : {};
}
