import type { IncomingHttpHeaders } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, errorToJsonBytes, parseTimeout } from "@connectrpc/connect/protocol-connect";
import { answerHookEvent, type HookAction, HOOK_AGENTS, hookEvent } from "../agent-hooks/answer-hook.js";
import { inProcessCaller } from "../agent-hooks/rpc-caller.js";
import type { Logger } from "../logger.js";
import { toConnectError } from "../services/connect-errors.js";
import { dropUnreadBody } from "./connect-adapter.js";
import type { NodeHandler } from "./protocol-sniff.js";

/** Where agents' hooks post their events: /hooks/<agent>/<Event> (claude-code, codex, gemini, copilot, cursor). */
export const HOOK_ROUTE_PREFIX = "/hooks/";
/** A prompt waits for its hook: this is what memd takes at most when the caller sets no deadline. */
const PROMPT_BUDGET_MS = 300;
const EVENT_BUDGET_MS = 1000;
/** Hook payloads carry a tool's input and output (a whole file for Write). */
const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;

type NodeRequest = Parameters<NodeHandler>[0];
type NodeResponse = Parameters<NodeHandler>[1];

export interface AgentHookRoutesOptions {
  /** The listener's RPC handlers by path, interceptors included: what a route calls. */
  handlers: ReadonlyMap<string, UniversalHandler>;
  logger: Logger;
  /** Refuses a hook request from its headers alone (the TCP listener's Host, Origin and token checks). */
  refuse?: (headers: IncomingHttpHeaders) => ConnectError | null;
  /** Told of a request that passed `refuse`, so that its connection is kept (connection-table.ts). */
  admitted?: (req: NodeRequest) => void;
}

/**
 * The routes an agent's hook posts its own payload to (Claude Code's http hooks, or a shim
 * forwarding a command hook's stdin), answered in the agent's own output format. Each route
 * maps the payload to the RPCs a hook would call, in this process: no logic is copied, and a
 * hook costs no process start. Returns a handler that answers requests under /hooks/ and says
 * whether it took the request.
 */
export function createAgentHookRoutes(options: AgentHookRoutesOptions): (req: NodeRequest, res: NodeResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? "";
    if (!url.startsWith(HOOK_ROUTE_PREFIX)) return false;
    void serve(options, req, res, url.slice(HOOK_ROUTE_PREFIX.length).split("?", 1)[0] ?? "");
    return true;
  };
}

async function serve(options: AgentHookRoutesOptions, req: NodeRequest, res: NodeResponse, route: string): Promise<void> {
  const { logger } = options;
  const started = performance.now();
  const [agent = "", eventName = "", ...rest] = route.split("/");
  const hook = rest.length === 0 ? hookEvent(agent, eventName) : null;
  const log = logger.child({ hook: `${agent}/${eventName}`.slice(0, 80) });
  try {
    const refusal = options.refuse?.(req.headers);
    if (refusal) throw refusal;
    options.admitted?.(req);
    if (hook === null) {
      throw new ConnectError(`no hook route ${HOOK_ROUTE_PREFIX}${route.slice(0, 80)}: memd answers /hooks/<agent>/<Event> for ${HOOK_AGENTS.join(" and ")}`, Code.NotFound);
    }
    if (req.method !== "POST") throw new ConnectError(`hook routes take POST with the event's JSON, not ${req.method}`, Code.InvalidArgument);
    const payload = await readPayload(req);
    const budgetMs = budgetOf(req.headers, hook.action);
    // The calls stop when the caller hangs up (the agent's timeout). The request's own "close"
    // comes as soon as its body is read, so it is the response's that tells.
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const remainingMs = () => Math.max(1, budgetMs - (performance.now() - started));
    const answer = await answerHookEvent(hook, payload, inProcessCaller(options.handlers, abort.signal, remainingMs));
    log.debug({ ms: Math.round(performance.now() - started), answered: answer !== "" }, "hook answered");
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
    res.end(answer);
  } catch (error) {
    const refusal = toConnectError(error, "hook");
    if (refusal.code === Code.Internal) log.error({ err: error }, "hook failed");
    else log.info({ code: Code[refusal.code], reason: refusal.rawMessage }, "hook refused");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = errorToJsonBytes(refusal, {});
    // A refusal may come before the body was read: the client may finish sending it (closing the
    // connection under its write made it fail with EPIPE instead of reading the refusal).
    dropUnreadBody(req, res);
    res.writeHead(codeToHttpStatus(refusal.code), { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  }
}

/** The caller's deadline (Connect's header, as memd-hook sends it), or the event's own budget. */
function budgetOf(headers: IncomingHttpHeaders, action: HookAction): number {
  const header = headers["connect-timeout-ms"];
  const given = parseTimeout(typeof header === "string" ? header : null, Number.MAX_SAFE_INTEGER).timeoutMs;
  return given ?? (action === "pointers" ? PROMPT_BUDGET_MS : EVENT_BUDGET_MS);
}

function readPayload(req: NodeRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        reject(new ConnectError(`the hook payload is over ${MAX_PAYLOAD_BYTES} bytes`, Code.ResourceExhausted));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}
