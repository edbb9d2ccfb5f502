import path from "node:path";
import { typedText } from "../../capture/opencode-message.js";
import { isRecord, str } from "../../capture/transcript-event.js";
import type { HookInput } from "../claude-code/hook-payload.js";

/**
 * What memd's OpenCode plugin posts for each event: OpenCode's own arguments, as the plugin got
 * them, with what OpenCode's hooks do not say.
 * - `directory`: the folder OpenCode runs in (the plugin's input), for the project;
 * - `event`: a bus event (`session.created`, `session.compacted`, `session.idle`), `{type, properties}`;
 * - `input` and `output`: a hook's two arguments (`chat.message`, `tool.execute.after`);
 * - `parentID`: the parent of a sub-agent's session, which its `session.created` named;
 * - `storage`: HOME, XDG_DATA_HOME and OPENCODE_DB as OpenCode saw them, which say where its
 *   database is (OpenCode's Global.Path.data and the `opencode db path` rule).
 * Shapes from opencode-ai 1.18.33 (@opencode-ai/plugin's Hooks, @opencode-ai/sdk's Event and Part).
 */
export function parseOpenCodeInput(eventName: string, text: string): HookInput | null {
  const raw: unknown = JSON.parse(text);
  if (!isRecord(raw)) throw new Error("the OpenCode plugin's payload is not a JSON object");
  const event = isRecord(raw.event) ? raw.event : {};
  const properties = isRecord(event.properties) ? event.properties : {};
  const hookInput = isRecord(raw.input) ? raw.input : {};
  const hookOutput = isRecord(raw.output) ? raw.output : {};
  const info = isRecord(properties.info) ? properties.info : {};
  // A sub-agent's session is the parent model talking to a helper: neither briefed nor pointed.
  if (str(info.parentID) !== "" || str(raw.parentID) !== "") return null;
  const input: HookInput = {
    sessionId: str(properties.sessionID) || str(hookInput.sessionID),
    cwd: str(raw.directory) || str(info.directory),
    transcriptPath: "",
    eventName,
    source: eventName === "session.compacted" ? "compact" : "startup",
    prompt: "",
    toolName: str(hookInput.tool),
    toolInput: isRecord(hookInput.args) ? hookInput.args : {},
    toolResponse: hookOutput,
    error: "",
    failureType: "",
    isInterrupt: false,
  };
  if (eventName === "chat.message") input.prompt = typedText(Array.isArray(hookOutput.parts) ? hookOutput.parts : []);
  if (eventName === "session.idle") input.transcriptPath = openCodeDatabase(isRecord(raw.storage) ? raw.storage : {});
  return input;
}

/**
 * OpenCode's database: OPENCODE_DB (absolute, or relative to the data folder), else opencode.db
 * in $XDG_DATA_HOME/opencode (~/.local/share/opencode). "" when it cannot be told, or is in memory.
 */
export function openCodeDatabase(storage: Record<string, unknown>): string {
  const home = str(storage.HOME);
  const dataHome = str(storage.XDG_DATA_HOME);
  const dataDir = path.isAbsolute(dataHome) ? path.join(dataHome, "opencode") : home === "" ? "" : path.join(home, ".local", "share", "opencode");
  const chosen = str(storage.OPENCODE_DB);
  if (chosen === ":memory:") return "";
  if (path.isAbsolute(chosen)) return chosen;
  if (dataDir === "") return "";
  return path.join(dataDir, chosen === "" ? "opencode.db" : chosen);
}
