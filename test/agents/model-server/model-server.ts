import type { ServerResponse } from "node:http";
import { type RecordedRequest, sendJson, startLocalServer } from "../../embed/local-http-server.js";
import { answerMessages, messagesToolNames } from "./anthropic.js";
import { answerGemini, geminiToolNames } from "./gemini.js";
import { answerChat, answerResponses, chatToolNames, responsesToolNames } from "./openai.js";
import type { Script } from "./script.js";

/** A request as the model server received it: its path and its body (parsed JSON, or the text). */
export type ModelRequest = RecordedRequest;

type Body = Record<string, never>;

/** One wire protocol: the POST paths it answers, how it answers, and the tools a request offers. */
interface Protocol {
  path: RegExp;
  answer(path: string, body: Body, script: Script, res: ServerResponse, id: number): void;
  toolNames(body: Body): string[];
}

const PROTOCOLS: readonly Protocol[] = [
  { path: /\/messages(\/count_tokens)?(\?|$)/, answer: answerMessages, toolNames: messagesToolNames },
  { path: /\/responses(\?|$)/, answer: (_path, body, script, res, id) => answerResponses(body, script, res, id), toolNames: responsesToolNames },
  { path: /\/chat\/completions(\?|$)/, answer: (_path, body, script, res, id) => answerChat(body, script, res, id), toolNames: chatToolNames },
  { path: /\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)\b/, answer: (path, body, script, res) => answerGemini(path, body, script, res), toolNames: geminiToolNames },
];

const protocolOf = (request: { method: string; path: string }) => (request.method === "POST" ? PROTOCOLS.find((p) => p.path.test(request.path)) : undefined);

/** The tool names a recorded request offered the model (MCP tools under the agent's own naming). */
export function toolsOffered(request: ModelRequest): string[] {
  const protocol = protocolOf(request);
  return protocol && typeof request.body === "object" && request.body !== null ? protocol.toolNames(request.body as Body) : [];
}

/** Every string in a request's body, one per line: what the model was given to read, in any protocol's shape. */
export function requestText(request: ModelRequest): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(request.body);
  return out.join("\n");
}

export interface ModelServer {
  port: number;
  /** Every request so far, in arrival order. */
  requests: ModelRequest[];
  /** The script the next conversations follow. */
  play(script: Script): void;
  close(): Promise<void>;
}

/**
 * A scripted model on 127.0.0.1: Anthropic Messages (SSE) and count_tokens, OpenAI Responses and
 * chat completions (streamed), Gemini generateContent and streamGenerateContent. It records every
 * request, so a test reads what the agent (and memd through its hooks) sent the model. Anything
 * else it answers with 404 and records too, so that an agent's unexpected call shows in a test.
 */
export async function startModelServer(script: Script = []): Promise<ModelServer> {
  let current = script;
  const server = await startLocalServer((request, res) => {
    const protocol = protocolOf(request);
    const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Body;
    if (protocol) return protocol.answer(request.path, body, current, res, server.requests.length);
    if (request.method === "GET" && /\/models(\?|$)/.test(request.path)) return sendJson(res, 200, { object: "list", data: [], models: [] });
    sendJson(res, 404, { error: { message: `the scripted model server has no ${request.method} ${request.path}` } });
  });
  return {
    port: Number(new URL(server.url).port),
    requests: server.requests,
    play(next) {
      current = next;
    },
    close: () => server.close(),
  };
}
