// memd's plugin for OpenCode (opencode-ai): the file memctl setup writes into OpenCode's plugins
// folder imports this and runs it inside OpenCode (Bun). Like the hook shims it only forwards:
// it posts OpenCode's own events to the daemon's routes (/hooks/opencode/<event>) over the Unix
// socket and hands back what the daemon answers; every decision about an event is the daemon's
// (daemon/src/agent-hooks/opencode/). It fails open: within each event's budget, whatever goes
// wrong leaves one line in MEMD_HOME/logs/hooks.log and OpenCode carries on as if memd were not there.
import os from "node:os";
import { forwardHookEvent } from "./forward-event.js";
import { readHookEnv } from "./hook-env.js";
import { appendHookLog } from "./hook-log.js";

/** What memctl setup writes into the plugin file. */
export interface OpenCodePluginOptions {
  /** MEMD_HOME, when the user chose one at setup; else the environment's, else ~/.memd. */
  memdHome?: string;
}

/** The parts of OpenCode's plugin API this plugin uses (@opencode-ai/plugin 1.18.33, Hooks). */
type Part = Record<string, unknown>;
interface OpenCodeEvent {
  type: string;
  properties?: { sessionID?: string; info?: { id?: string; parentID?: string } };
}
interface OpenCodeHooks {
  event(arg: { event: OpenCodeEvent }): Promise<void>;
  "chat.message"(input: { sessionID: string }, output: { message: Part; parts: Part[] }): Promise<void>;
  "tool.execute.after"(input: { tool: string; sessionID: string }, output: Record<string, unknown>): Promise<void>;
  dispose(): Promise<void>;
}

/** OpenCode's plugin: a function of the plugin input (the folder it runs in, among others) that returns its hooks. */
export type OpenCodePlugin = (input: { directory: string }) => Promise<OpenCodeHooks>;

/**
 * The plugin. A session's briefing is asked for when OpenCode creates or compacts the session,
 * and waits for its next prompt (OpenCode has no context to return from an event): chat.message
 * adds it and the prompt's pointers to the user's message, as synthetic parts, which the model
 * reads and OpenCode's views do not show. A failed bash call and the end of each turn
 * (session.idle, when the daemon sweeps the session) are posted without waiting; OpenCode awaits
 * dispose before it exits, and dispose waits for them, each within its own budget.
 */
export function memdOpenCodePlugin(options: OpenCodePluginOptions = {}): OpenCodePlugin {
  return async ({ directory }) => {
    const pending = new Set<Promise<Part[]>>();
    const briefings = new Map<string, Promise<Part[]>>();
    const parents = new Map<string, string>();
    const send = (event: string, body: Record<string, unknown>): Promise<Part[]> => {
      const call = post(options, event, { directory, ...body });
      pending.add(call);
      void call.finally(() => pending.delete(call));
      return call;
    };
    return {
      async event({ event }) {
        const sessionID = event.properties?.sessionID ?? "";
        if (sessionID === "") return;
        if (event.type === "session.created" || event.type === "session.compacted") {
          const parentID = event.properties?.info?.parentID ?? "";
          if (parentID !== "") parents.set(sessionID, parentID);
          briefings.set(sessionID, send(event.type, { event }));
        } else if (event.type === "session.idle") {
          void send(event.type, { event, storage: { HOME: os.homedir(), XDG_DATA_HOME: process.env.XDG_DATA_HOME, OPENCODE_DB: process.env.OPENCODE_DB } });
        }
      },
      async "chat.message"(input, output) {
        const last = output.parts.at(-1);
        if (typeof last?.id !== "string") return;
        const held = briefings.get(input.sessionID);
        briefings.delete(input.sessionID);
        // File parts carry whole files as data URLs, and memd reads only what was typed.
        const typed = output.parts.filter((part) => part.type === "text");
        const [briefing, pointers] = await Promise.all([
          held ?? Promise.resolve([]),
          send("chat.message", { input, output: { message: output.message, parts: typed }, parentID: parents.get(input.sessionID) }),
        ]);
        // Part ids sort in the order OpenCode shows and sends them: these go right after the prompt.
        [...briefing, ...pointers].forEach((part, i) => {
          output.parts.push({ ...part, id: `${last.id}memd${i}`, sessionID: input.sessionID, messageID: output.message.id });
        });
      },
      async "tool.execute.after"(input, output) {
        // The daemon reads only the shell's failures; other tools' outputs hold whole files.
        if (input.tool === "bash") void send("tool.execute.after", { input, output });
      },
      async dispose() {
        await Promise.allSettled([...pending]);
      },
    };
  };
}

/** Posts one event within its budget; resolves with the parts the daemon answered, [] on anything else. */
async function post(options: OpenCodePluginOptions, event: string, body: Record<string, unknown>): Promise<Part[]> {
  const env = readHookEnv(event, { ...process.env, MEMD_HOME: options.memdHome ?? process.env.MEMD_HOME });
  const started = performance.now();
  const remainingMs = () => Math.max(1, env.budgetMs - (performance.now() - started));
  const signal = AbortSignal.timeout(env.budgetMs);
  try {
    const answer = await forwardHookEvent({
      socketPath: env.endpoint.socketPath,
      route: `/hooks/opencode/${event}`,
      payload: JSON.stringify(body),
      signal,
      remainingMs,
    });
    if (answer === "") return [];
    const parts = (JSON.parse(answer) as { parts?: unknown }).parts;
    return Array.isArray(parts) ? parts.filter((part): part is Part => typeof part === "object" && part !== null) : [];
  } catch (error) {
    const reason = signal.aborted ? `gave up after the ${env.budgetMs} ms budget` : `daemon call failed: ${error instanceof Error ? error.message : String(error)}`;
    appendHookLog(env.endpoint.logDir, `opencode ${event}`, reason);
    return [];
  }
}
